// A consolidation window's own stream (`consolidation-<first order's service_ref>`): opened by the
// first order, closed by time or by filling its containers, then planned once. Which orders are in
// it is recorded in each order's stream (OrderJoinedConsolidation) and fixed at closing.
import type { RecordedEvent } from '../eventstore/event-store.js';
import type { StoredPlan } from '../plan-contract/plan-storage.js';

export interface ConsolidationOpened {
  type: 'ConsolidationOpened';
  data: {
    consolidation: string;
    company_group: string;
    lane_id: number;
    transportation_mode: string;
    window_seconds: number;
    opened_at: string;
    /** UTC, like every timestamp of the log: opened_at plus the window. */
    closes_at: string;
  };
}

export interface ConsolidationClosed {
  type: 'ConsolidationClosed';
  data: {
    consolidation: string;
    reason: 'window_elapsed' | 'containers_full';
    closed_at: string;
    /** The orders planned in this window, in joining order (order streams and service_refs). */
    orders: { stream: string; service_ref: string }[];
  };
}

export interface ConsolidationPlanned {
  type: 'ConsolidationPlanned';
  data: {
    consolidation: string;
    /** together: one shipment (a parent order) in shared containers; alone: each order on its own. */
    decision: 'together' | 'alone';
    containers_together: number | null;
    containers_alone: number;
    planned_at: string;
    /** The parent order, when together. */
    parent: { order_id: number; service_ref: string; reference: string } | null;
    /** Each order's plan alone, in the closed list's order. */
    alone: StoredPlan[];
    /** The joint plan, when together, and which order each of its pallets belongs to. */
    together: StoredPlan | null;
    pallet_owners: string[];
    /**
     * The orders planned, in the order of `alone`: the closing's list less those that left the window
     * (amended or cancelled) before it was planned. Left out by events written before: the closing's list.
     */
    orders?: { stream: string; service_ref: string }[];
  };
}

export type ConsolidationEvent = ConsolidationOpened | ConsolidationClosed | ConsolidationPlanned;

export const CONSOLIDATION_EVENT_TYPES = ['ConsolidationOpened', 'ConsolidationClosed', 'ConsolidationPlanned'] as const;

const EVENT_TYPES: ReadonlySet<string> = new Set(CONSOLIDATION_EVENT_TYPES);

/** Whether a stored event is a window's event. */
export function isConsolidationEvent(event: RecordedEvent): event is RecordedEvent & ConsolidationEvent {
  return EVENT_TYPES.has(event.type);
}

/** A window's events among stored events, in their order. */
export function consolidationEventsIn(history: readonly RecordedEvent[]): (RecordedEvent & ConsolidationEvent)[] {
  return history.filter(isConsolidationEvent);
}

export function consolidationStream(firstServiceRef: string): string {
  return `consolidation-${firstServiceRef}`;
}

/** A parent order's reference: unique in its group, since service_refs are. */
export function parentReference(parentServiceRef: string): string {
  return `CONSOLIDATED-${parentServiceRef}`;
}
