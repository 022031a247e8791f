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
  };
}

export interface OrderPlanningFailed {
  type: 'OrderPlanningFailed';
  data: { order_id: number; service_ref: string; reason: string; failed_at: string };
}

export type OrderEvent = OrderSubmitted | OrderJoinedConsolidation | OrderPlanned | OrderPlanningFailed | PackingInstructionsDownloaded;

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
