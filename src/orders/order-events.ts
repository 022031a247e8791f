// Everything that happens to an order, as recorded in its stream.
import type { StoredPlan } from '../plan-contract/plan-storage.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import type { LaneDocument } from '../master-data/master-data-document.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';

/** Recorded in the `order-ids` stream: hands out ids in submit order. */
export interface OrderIdAllocated {
  type: 'OrderIdAllocated';
  data: { order_id: number; service_ref: string };
}

export interface OrderSubmitted {
  type: 'OrderSubmitted';
  data: {
    order_id: number;
    service_ref: string;
    company_group: string;
    /** The lane as it was at submit, with only the items the order names: the order keeps the master data it is planned with. */
    lane: LaneDocument;
    order: SubmitOrderPayload;
    /** UTC, microseconds, no zone: 2026-11-20T09:15:02.123456 */
    submitted_at: string;
    /** Only on a consolidated shipment (a parent order): the service_refs of the orders it ships. */
    consolidated_orders?: string[];
  };
}

/** The order waits in a consolidation window (src/consolidation) instead of being planned alone. */
export interface OrderJoinedConsolidation {
  type: 'OrderJoinedConsolidation';
  data: { order_id: number; service_ref: string; consolidation: string; joined_at: string };
}

export interface PackingInstructionsDownloaded {
  type: 'PackingInstructionsDownloaded';
  data: { order_id: number; downloaded_at: string };
}

/**
 * The load planner's result for an order. `plan` is the planner's OrderPlan (src/plan-contract), stored
 * whole so that pallet contents, the PDF and auditors read exactly what was planned: compact
 * (StoredPlan) since plans were stored that way, expanded (OrderPlan) in events written before.
 */
export type RecordedPlan = StoredPlan | OrderPlan;

export interface OrderPlanned<Plan = RecordedPlan> {
  type: 'OrderPlanned';
  data: {
    order_id: number;
    service_ref: string;
    reference: string;
    company_group: string;
    plan: Plan;
    planned_at: string;
    /** A child of a consolidated shipment: the parent order's service_ref. */
    consolidated_into?: string;
    /** The version of the order this plan is for (OrderAmended); left out for the order as submitted (0). */
    version?: number;
  };
}

export interface OrderPlanningFailed {
  type: 'OrderPlanningFailed';
  data: { order_id: number; service_ref: string; reason: string; failed_at: string; version?: number };
}

/**
 * The client replaced the order's cargo, containers, notes and e-mail fields (PUT on the order): a new
 * version of the order, planned again. Reference, lane and mode stay; `lane` is the lane as it stood at
 * the amend, with only the items the new cargo names, as OrderSubmitted keeps it.
 */
export interface OrderAmended {
  type: 'OrderAmended';
  data: {
    order_id: number;
    service_ref: string;
    company_group: string;
    /** 1 for the first amend: every plan result names the version it was planned for. */
    version: number;
    lane: LaneDocument;
    order: SubmitOrderPayload;
    amended_at: string;
    /** The consolidation window the order was in, and left by this amend. */
    left_window?: string;
    /** The consolidated shipment (parent service_ref) it was planned into, and left by this amend. */
    left_shipment?: string;
  };
}

/**
 * The order is called off: by its client (POST .../cancel/), or by the service for the parent of a
 * consolidated shipment that one of its orders left. Nothing is planned for it from now on.
 */
export interface OrderCancelled {
  type: 'OrderCancelled';
  data: {
    order_id: number;
    service_ref: string;
    reference: string;
    company_group: string;
    /** The client's reason, or the service's for a dissolved shipment; null when none was given. */
    reason: string | null;
    cancelled_at: string;
    /** Where it stood: `planned` means packing instructions had been announced. */
    status_before: 'submitted' | 'planned' | 'planning_failed';
    packing_instructions_downloaded: boolean;
    left_window?: string;
    left_shipment?: string;
  };
}

/**
 * A child of a consolidated shipment that was dissolved (another order of it was cancelled or amended
 * after its plan went out): its share of the shared containers is void, and it is planned again alone,
 * as a new version.
 */
export interface OrderPlanWithdrawn {
  type: 'OrderPlanWithdrawn';
  data: {
    order_id: number;
    service_ref: string;
    company_group: string;
    version: number;
    shipment: string;
    reason: string;
    withdrawn_at: string;
  };
}

export type OrderEvent =
  | OrderSubmitted
  | OrderJoinedConsolidation
  | OrderPlanned
  | OrderPlanningFailed
  | PackingInstructionsDownloaded
  | OrderAmended
  | OrderCancelled
  | OrderPlanWithdrawn;

/** The order as it stands now: its submit with the newest amend's order and lane, and the version they make. */
export type CurrentOrder = OrderSubmitted['data'] & { version: number };

export const ORDER_IDS_STREAM = 'order-ids';

/**
 * The order's stream is named by its company group and reference, so that appending the order
 * with "no stream expected" is what reserves the reference: uniqueness without any lock.
 */
export function orderStream(companyGroup: string, reference: string): string {
  return `order:${encodeURIComponent(companyGroup)}:${encodeURIComponent(reference)}`;
}

/** Short, unique, never reused (ids never are), and easy to read out over the phone. */
export function serviceRefFor(orderId: number): string {
  return `SO-${String(orderId).padStart(6, '0')}`;
}

/** What serviceRefFor makes, as the published contracts state it (the Kafka key, data.order_id). */
export const SERVICE_REF_PATTERN = '^SO-[0-9]{6,}$';
