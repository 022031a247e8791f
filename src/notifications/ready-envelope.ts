// The public event `packing_instructions.ready` (orders-api.md 6), built from the OrderPlanned event
// that records it. Everything here is derived from the stored event alone, so every consumer, every
// attempt and every restart produces the same id and the same bytes.
// The schema below is the one source of what it looks like: the type is derived from it, and the
// OpenAPI document (webhooks), the AsyncAPI document (Kafka) and checkReadyMessage all use it.
import Type, { type Static } from 'typebox';
import type { RecordedEvent } from '../eventstore/event-store.js';
import { SERVICE_REF_PATTERN } from '../orders/order-events.js';
import { isOrderEvent, type RecordedOrderEvent } from '../orders/read-order-stream.js';

export const PACKING_INSTRUCTIONS_READY = 'packing_instructions.ready';

/** `evt_` and the stored event's id, a UUID in both event stores (version 7 on SQLite, time-ordered-id.ts; version 4 on KurrentDB). */
export const ENVELOPE_ID_PATTERN = '^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

export const ServiceRefSchema = Type.String({
  pattern: SERVICE_REF_PATTERN,
  description: "The order's service_ref (SO- and at least six digits), as the REST API shows it; the order lookup value.",
});

export const EnvelopeIdSchema = Type.String({
  pattern: ENVELOPE_ID_PATTERN,
  description:
    'evt_ and the id of the stored event that recorded the planning. The same on every attempt, restart and channel: de-duplicate on it.',
});

// No extra fields: this is exactly what this version sends, so a test of a consumer, or of the
// service, notices a change. A field added later comes with a new version of the documents.
export const ReadyEnvelopeSchema = Type.Object(
  {
    id: EnvelopeIdSchema,
    type: Type.Literal(PACKING_INSTRUCTIONS_READY, { description: 'The event kind.' }),
    timestamp: Type.String({
      format: 'date-time',
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$',
      description: 'When the order was planned, UTC, with a Z; up to nine fraction digits.',
    }),
    data: Type.Object(
      {
        order_id: ServiceRefSchema,
        reference: Type.String({ description: "The customer's reference of the order, as submitted." }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    title: 'packing_instructions.ready',
    description:
      'Optimization finished and the packing instructions of the order are ready: pallet contents, load plan and PDF can be retrieved.',
  },
);

export type ReadyEnvelope = Static<typeof ReadyEnvelopeSchema>;

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
