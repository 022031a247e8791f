// The public events: `packing_instructions.ready` (orders-api.md 6), built from the OrderPlanned event
// that records it, and `order.cancelled` (issue 59), built from OrderCancelled. Everything here is
// derived from the stored event alone, so every consumer, every attempt and every restart produces the
// same id and the same bytes. The schemas below are the one source of what they look like: the types
// are derived from them, and the OpenAPI document (webhooks), the AsyncAPI document (Kafka) and
// checkReadyMessage all use them.
import Type, { type Static } from 'typebox';
import type { RecordedEvent } from '../eventstore/event-store.js';
import { SERVICE_REF_PATTERN } from '../orders/order-events.js';
import { isOrderEvent, type RecordedOrderEvent } from '../orders/read-order-stream.js';

export const PACKING_INSTRUCTIONS_READY = 'packing_instructions.ready';
export const ORDER_CANCELLED = 'order.cancelled';

/** The stored events announced, each by one envelope on every channel. */
export const ANNOUNCED_EVENT_TYPES = ['OrderPlanned', 'OrderCancelled'];

/** `evt_` and the stored event's id, a UUID in both event stores (version 7 on SQLite, time-ordered-id.ts; version 4 on KurrentDB). */
export const ENVELOPE_ID_PATTERN = '^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

export const ServiceRefSchema = Type.String({
  pattern: SERVICE_REF_PATTERN,
  description: "The order's service_ref (SO- and at least six digits), as the REST API shows it; the order lookup value.",
});

export const EnvelopeIdSchema = Type.String({
  pattern: ENVELOPE_ID_PATTERN,
  description:
    'evt_ and the id of the stored event that recorded the planning (or the cancel). The same on every attempt, restart and channel: de-duplicate on it.',
});

const Timestamp = (when: string) =>
  Type.String({
    format: 'date-time',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$',
    description: `${when}, UTC, with a Z; up to nine fraction digits.`,
  });

// No extra fields: this is exactly what this version sends, so a test of a consumer, or of the
// service, notices a change. A field added later comes with a new version of the documents.
export const ReadyEnvelopeSchema = Type.Object(
  {
    id: EnvelopeIdSchema,
    type: Type.Literal(PACKING_INSTRUCTIONS_READY, { description: 'The event kind.' }),
    timestamp: Timestamp('When the order was planned'),
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
      'Optimization finished and the packing instructions of the order are ready: pallet contents, load plan and PDF can be retrieved. ' +
      'Sent again, with a new id, each time the order is planned again (after an amend): the newest replaces every earlier one of the order.',
  },
);

export type ReadyEnvelope = Static<typeof ReadyEnvelopeSchema>;

export const CancelledEnvelopeSchema = Type.Object(
  {
    id: EnvelopeIdSchema,
    type: Type.Literal(ORDER_CANCELLED, { description: 'The event kind.' }),
    timestamp: Timestamp('When the order was cancelled'),
    data: Type.Object(
      {
        order_id: ServiceRefSchema,
        reference: Type.String({ description: "The customer's reference of the order, as submitted." }),
        reason: Type.Union([Type.String(), Type.Null()], { description: 'The reason given with the cancel; null when none was.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    title: 'order.cancelled',
    description:
      'The order was cancelled (by its client, or by the service for a consolidated shipment one of its orders left): every packing_instructions.ready ' +
      'sent for it before is void, and none follows. The last message of the order.',
  },
);

export type CancelledEnvelope = Static<typeof CancelledEnvelopeSchema>;

export type OrderPlannedEvent = RecordedOrderEvent<'OrderPlanned'>;

export function isOrderPlanned(event: RecordedEvent): event is OrderPlannedEvent {
  return isOrderEvent(event, 'OrderPlanned');
}

export type OrderCancelledEvent = RecordedOrderEvent<'OrderCancelled'>;
/** A stored event that is announced: a plan stored, or an order cancelled. */
export type AnnouncedEvent = OrderPlannedEvent | OrderCancelledEvent;

export function isAnnounced(event: RecordedEvent): event is AnnouncedEvent {
  return isOrderEvent(event, 'OrderPlanned') || isOrderEvent(event, 'OrderCancelled');
}

/** The envelope of an announced event, the same on every channel. */
export function envelopeOf(event: AnnouncedEvent): ReadyEnvelope | CancelledEnvelope {
  if (event.type === 'OrderPlanned') return readyEnvelope(event);
  const { service_ref, reference, reason, cancelled_at } = event.data;
  return {
    id: envelopeIdFor(event),
    type: ORDER_CANCELLED,
    timestamp: utcIso(cancelled_at, event.recordedAt),
    data: { order_id: service_ref, reference, reason },
  };
}

/** The exact body sent for an announced event. */
export function envelopeBody(event: AnnouncedEvent): string {
  return JSON.stringify(envelopeOf(event));
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
