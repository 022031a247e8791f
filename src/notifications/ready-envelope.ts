// The public event `packing_instructions.ready` (orders-api.md 6), built from the OrderPlanned event
// that records it. Everything here is derived from the stored event alone, so every consumer, every
// attempt and every restart produces the same id and the same bytes.
import type { RecordedEvent } from '../eventstore/event-store.js';
import { isOrderEvent, type RecordedOrderEvent } from '../orders/read-order-stream.js';

export const PACKING_INSTRUCTIONS_READY = 'packing_instructions.ready';

export interface ReadyEnvelope {
  id: string;
  type: typeof PACKING_INSTRUCTIONS_READY;
  timestamp: string;
  data: { order_id: string; reference: string };
}

export type OrderPlannedEvent = RecordedOrderEvent<'OrderPlanned'>;

export function isOrderPlanned(event: RecordedEvent): event is OrderPlannedEvent {
  return isOrderEvent(event, 'OrderPlanned');
}

/** The envelope id: receivers dedupe on it, so it is the stored event's id, never a fresh one. */
export function envelopeIdFor(event: RecordedEvent): string {
  return `evt_${event.id}`;
}

export function readyEnvelope(event: OrderPlannedEvent): ReadyEnvelope {
  return {
    id: envelopeIdFor(event),
    type: PACKING_INSTRUCTIONS_READY,
    timestamp: utcIso(event.data.planned_at, event.recordedAt),
    data: { order_id: event.data.service_ref, reference: event.data.reference },
  };
}

/** The exact body sent: serialized once per event, and the signature covers these bytes. */
export function readyEnvelopeBody(event: OrderPlannedEvent): string {
  return JSON.stringify(readyEnvelope(event));
}

/**
 * `planned_at` is the service's zone-less UTC form (2026-11-20T09:15:02.123456); the envelope says
 * so explicitly with a Z. Anything unexpected falls back to the time the event was stored.
 */
function utcIso(plannedAt: string | undefined, recordedAt: Date): string {
  if (typeof plannedAt === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?$/.test(plannedAt)) return `${plannedAt}Z`;
  return recordedAt.toISOString();
}
