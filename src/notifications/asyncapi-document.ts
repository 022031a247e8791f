// The AsyncAPI 3.0 document served at GET /api/v1/asyncapi.json: what Kafka consumers of
// `packing_instructions.ready` may rely on, as the OpenAPI document is for REST clients. Key, headers
// and value are the very schemas the message is typed by (kafka-message.ts, ready-envelope.ts), and
// the example is a message the real kafkaMessageFor built, so the document cannot drift from the code.
import type { RecordedEvent } from '../eventstore/event-store.js';
import { kafkaMessageFor, ReadyMessageHeadersSchema, ReadyMessageKeySchema } from './kafka-message.js';
import { CancelledEnvelopeSchema, ReadyEnvelopeSchema } from './ready-envelope.js';

const CHANNEL = 'packingInstructionsReady';
const MESSAGE = 'packingInstructionsReady';
const CANCELLED_MESSAGE = 'orderCancelled';
const KAFKA_BINDING_VERSION = '0.5.0';

const DELIVERY =
  'How the service publishes (src/notifications/kafka-publisher.ts): a consumer of the event log sends each stored OrderPlanned and OrderCancelled event, in log order, ' +
  'with a kafkajs idempotent producer (acks all in-sync replicas, one request in flight, retried without end while the brokers are away), ' +
  'then records it as published. At least once: a crash between the send and the record sends the batch again on restart, ' +
  'with the same key, the same headers and byte-identical value; de-duplicate on the event-id header (= value.id). ' +
  "Keyed by the order's service_ref and partitioned as Java clients do (murmur2), so all messages of one order are in one partition " +
  '(while the partition count of the topic stays unchanged), first copies in log order; a duplicate may arrive after later messages. ' +
  'So for one order a consumer reads packing_instructions.ready once per plan (again, with a new event-id, after each amend: the newest replaces the earlier ones), ' +
  'and at most one order.cancelled, after every ready of the order and last; a duplicate of an earlier ready may still follow it and is void. ' +
  'Replicas of the service share a delivery store and publish each event once between them. Nothing is published when KAFKA_BROKERS is unset. ' +
  'The topic exists before the service reports ready: at start-up the service looks it up and creates it when missing (ORDERS_KAFKA_PARTITIONS, default 6; ' +
  'ORDERS_KAFKA_REPLICATION_FACTOR, default the number of brokers up to 3), so a consumer group may subscribe as soon as /readyz answers 200, before the first order. ' +
  'Where the service may not create it, /readyz answers 503 naming the topic and the fix, nothing is sent, and every readiness event waits in the log ' +
  'until the topic exists; then they are all published. A broker that is killed and restarted loses no message: sends are retried until acknowledged.';

/** A fixed OrderPlanned event: the example message is built from it by the real code. */
const EXAMPLE_EVENT: RecordedEvent = {
  id: '5d0c8a7e-3f1b-4c2d-8e9f-0a1b2c3d4e5f',
  stream: 'order:Acme%20Group:PO-4711',
  type: 'OrderPlanned',
  data: {
    order_id: 42,
    service_ref: 'SO-000042',
    reference: 'PO-4711',
    company_group: 'Acme Group',
    plan: {},
    planned_at: '2026-11-20T09:15:02.123456',
  },
  revision: 1n,
  position: 17n,
  recordedAt: new Date('2026-11-20T09:15:02.200Z'),
};

/** A fixed OrderCancelled event of the same order, for the second message's example. */
const EXAMPLE_CANCEL: RecordedEvent = {
  ...EXAMPLE_EVENT,
  id: '7a1e4c2b-9d3f-4e5a-8b6c-1d2e3f4a5b6c',
  type: 'OrderCancelled',
  data: {
    order_id: 42,
    service_ref: 'SO-000042',
    reference: 'PO-4711',
    company_group: 'Acme Group',
    reason: 'called off by the consignee',
    cancelled_at: '2026-11-21T08:00:00.000001',
    status_before: 'planned',
    packing_instructions_downloaded: false,
  },
  revision: 2n,
  position: 31n,
};

/** The document for the topic this service publishes to (ORDERS_KAFKA_TOPIC). */
export function buildAsyncApiDocument(topic: string): object {
  const example = kafkaMessageFor(EXAMPLE_EVENT)!;
  const cancelExample = kafkaMessageFor(EXAMPLE_CANCEL)!;
  const document = {
    asyncapi: '3.0.0',
    info: {
      title: 'Shipment orders events',
      version: '1.0.0',
      description:
        'Kafka messages of the shipment orders service. `packing_instructions.ready` says that optimization finished and the packing instructions ' +
        'of an order are ready; it is the preferred alternative to polling pallet contents. `order.cancelled` says the order was cancelled and its instructions are void. ' +
        'The same envelopes are POSTed to webhooks (OpenAPI document, ' +
        "GET /api/v1/openapi.json, `webhooks`). The brokers are the deployment's (KAFKA_BROKERS); ask its operator.",
    },
    defaultContentType: 'application/json',
    channels: {
      [CHANNEL]: {
        address: topic,
        title: 'Packing instructions ready',
        description: `The readiness topic, \`${topic}\` in this deployment (ORDERS_KAFKA_TOPIC; default orders.packing-instructions). One message per plan stored, and one per order cancelled.`,
        messages: {
          [MESSAGE]: { $ref: `#/components/messages/${MESSAGE}` },
          [CANCELLED_MESSAGE]: { $ref: `#/components/messages/${CANCELLED_MESSAGE}` },
        },
        bindings: { kafka: { topic, bindingVersion: KAFKA_BINDING_VERSION } },
      },
    },
    operations: {
      publishPackingInstructionsReady: {
        action: 'send',
        title: 'Publish packing_instructions.ready',
        summary: 'The service sends one message per OrderPlanned and per OrderCancelled event, at least once.',
        description: DELIVERY,
        channel: { $ref: `#/channels/${CHANNEL}` },
        messages: [{ $ref: `#/channels/${CHANNEL}/messages/${MESSAGE}` }, { $ref: `#/channels/${CHANNEL}/messages/${CANCELLED_MESSAGE}` }],
        bindings: {
          kafka: {
            // The Kafka binding has no field for the producer's acks or idempotence: extensions state them.
            'x-acks': 'all',
            'x-idempotent': true,
            'x-max-in-flight-requests': 1,
            'x-partitioner': 'murmur2 of the key (Java client default)',
            bindingVersion: KAFKA_BINDING_VERSION,
          },
        },
      },
    },
    components: {
      schemas: {
        ReadyEnvelope: ReadyEnvelopeSchema,
        CancelledEnvelope: CancelledEnvelopeSchema,
        ReadyMessageHeaders: ReadyMessageHeadersSchema,
        ServiceRef: ReadyMessageKeySchema,
      },
      messages: {
        [MESSAGE]: {
          name: 'packing_instructions.ready',
          title: 'Packing instructions ready',
          summary: 'Optimization finished: pallet contents, load plan and packing instructions PDF of the order can be retrieved.',
          contentType: 'application/json',
          correlationId: { description: 'The envelope id, the same on every copy of the message.', location: '$message.header#/event-id' },
          headers: { $ref: '#/components/schemas/ReadyMessageHeaders' },
          payload: { $ref: '#/components/schemas/ReadyEnvelope' },
          bindings: { kafka: { key: { $ref: '#/components/schemas/ServiceRef' }, bindingVersion: KAFKA_BINDING_VERSION } },
          examples: [
            {
              name: 'ready',
              // A message example has no place for the key (nor for extensions): the summary gives it.
              summary: `Order SO-000042 (reference PO-4711) planned; key ${String(example.key)}.`,
              headers: example.headers,
              payload: JSON.parse(String(example.value)) as unknown,
            },
          ],
        },
        [CANCELLED_MESSAGE]: {
          name: 'order.cancelled',
          title: 'Order cancelled',
          summary: 'The order was cancelled: every packing_instructions.ready of it is void, and none follows.',
          contentType: 'application/json',
          correlationId: { description: 'The envelope id, the same on every copy of the message.', location: '$message.header#/event-id' },
          headers: { $ref: '#/components/schemas/ReadyMessageHeaders' },
          payload: { $ref: '#/components/schemas/CancelledEnvelope' },
          bindings: { kafka: { key: { $ref: '#/components/schemas/ServiceRef' }, bindingVersion: KAFKA_BINDING_VERSION } },
          examples: [
            {
              name: 'cancelled',
              summary: `Order SO-000042 (reference PO-4711) cancelled; key ${String(cancelExample.key)}.`,
              headers: cancelExample.headers,
              payload: JSON.parse(String(cancelExample.value)) as unknown,
            },
          ],
        },
      },
    },
  };
  // A plain JSON copy, as for the OpenAPI document: callers may change it without touching the schemas.
  return JSON.parse(JSON.stringify(document)) as object;
}
