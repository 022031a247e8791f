// checkReadyMessage: a message the real kafkaMessageFor built keeps the contract, received as
// kafkajs hands it over (Buffers); each kind of departure from it is named in a problem.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import type { Message } from 'kafkajs';
import { checkReadyMessage, type ReceivedKafkaMessage } from '../../src/notifications/check-ready-message.js';
import { buildAsyncApiDocument } from '../../src/notifications/asyncapi-document.js';
import { kafkaMessageFor, kafkaRecordFor } from '../../src/notifications/kafka-message.js';
import type { OrderPlannedEvent } from '../../src/notifications/ready-envelope.js';
import { serviceRefFor } from '../../src/orders/order-events.js';
import { emptyPlan } from '../support/plans.js';

function planned(orderId: number, plannedAt = '2026-11-25T10:00:00.123456'): OrderPlannedEvent {
  return {
    id: randomUUID(),
    stream: `order:Acme%20Group:PO-${orderId}`,
    type: 'OrderPlanned',
    data: {
      order_id: orderId,
      service_ref: serviceRefFor(orderId),
      reference: `PO-${orderId}`,
      company_group: 'Acme Group',
      plan: emptyPlan(),
      planned_at: plannedAt,
    },
    revision: 1n,
    position: BigInt(orderId),
    recordedAt: new Date('2026-11-25T10:00:00.200Z'),
  };
}

/** As a kafkajs consumer receives it: key, value and header values as Buffers. */
function received(message: Message): ReceivedKafkaMessage & { value: Buffer; headers: Record<string, unknown> } {
  const bytes = (v: unknown) => Buffer.from(String(v), 'utf8');
  return {
    key: bytes(message.key),
    value: bytes(message.value),
    headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, bytes(value)])),
  };
}

const good = received(kafkaMessageFor(planned(42))!);
const envelope = JSON.parse(good.value.toString('utf8')) as Record<string, any>;
const withValue = (value: unknown) => ({ ...good, value: Buffer.from(JSON.stringify(value)) });

t.test('messages the publisher builds keep the contract', async (t) => {
  t.strictSame(checkReadyMessage(good), []);
  // Short and long ids, the stored-time fallback of the timestamp, a whole batch as kafkaRecordFor sends it.
  const events = [planned(1), planned(1_234_567), planned(7, 'not a time')];
  const record = kafkaRecordFor(events, 'any.topic');
  t.equal(record.messages.length, 3);
  for (const message of record.messages) {
    t.strictSame(checkReadyMessage(message as ReceivedKafkaMessage), [], 'as the producer is given it');
    t.strictSame(checkReadyMessage(received(message)), [], 'as a consumer receives it');
  }
});

t.test('the key: missing, not a service_ref, or not the order of the value', async (t) => {
  t.strictSame(checkReadyMessage({ ...good, key: null }), ["key: missing; expected the order's service_ref"]);
  t.strictSame(checkReadyMessage({ ...good, key: '42' }), ['key: "42" does not match ^SO-[0-9]{6,}$']);
  t.strictSame(checkReadyMessage({ ...good, key: Buffer.from('SO-000043') }), [
    'key: "SO-000043" differs from value.data.order_id "SO-000042"',
  ]);
});

t.test('the headers: wrong values, missing, repeated, not the envelope id', async (t) => {
  t.strictSame(checkReadyMessage({ ...good, headers: { ...good.headers, 'event-type': Buffer.from('packing_instructions.created') } }), [
    'headers["event-type"]: expected one of "packing_instructions.ready", "order.cancelled", got "packing_instructions.created"',
  ]);
  t.strictSame(checkReadyMessage({ ...good, headers: { ...good.headers, 'event-type': 'order.cancelled' } }), [
    'headers["event-type"]: "order.cancelled" differs from value.type "packing_instructions.ready"',
  ]);
  t.strictSame(checkReadyMessage({ ...good, headers: { ...good.headers, 'content-type': 'text/plain' } }), [
    'headers["content-type"]: expected "application/json", got "text/plain"',
  ]);
  const { 'event-id': _dropped, ...noId } = good.headers;
  t.strictSame(checkReadyMessage({ ...good, headers: noId }), ['headers: missing "event-id"']);
  t.strictSame(checkReadyMessage({ ...good, headers: undefined }), [
    'headers: missing "event-id"',
    'headers: missing "event-type"',
    'headers: missing "content-type"',
  ]);
  t.strictSame(
    checkReadyMessage({ ...good, headers: { ...good.headers, 'event-id': [good.headers['event-id'], good.headers['event-id']] } }),
    ['headers["event-id"]: occurs 2 times; expected once', 'headers: missing "event-id"'],
  );
  const otherId = `evt_${randomUUID()}`;
  t.strictSame(checkReadyMessage({ ...good, headers: { ...good.headers, 'event-id': otherId } }), [
    `headers["event-id"]: "${otherId}" differs from value.id "${envelope.id}"`,
  ]);
  t.strictSame(checkReadyMessage({ ...good, headers: { ...good.headers, 'event-id': 'evt_1' } }), [
    `headers["event-id"]: "evt_1" does not match ^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
  ]);
  t.strictSame(
    checkReadyMessage({ ...good, headers: { ...good.headers, traceparent: 'added by a proxy' } }),
    [],
    'other headers are allowed',
  );
});

t.test('the value: missing, not JSON, a field missing, an extra field, a wrong value', async (t) => {
  t.strictSame(checkReadyMessage({ ...good, value: null }), [
    'value: missing (a tombstone); expected the packing_instructions.ready envelope as JSON',
  ]);
  t.match(checkReadyMessage({ ...good, value: '{"id":' }), [/^value: not JSON \(/]);
  const { reference: _reference, ...dataWithoutReference } = envelope.data;
  t.strictSame(checkReadyMessage(withValue({ ...envelope, data: dataWithoutReference })), ['value.data: missing "reference"']);
  t.strictSame(checkReadyMessage(withValue({ ...envelope, colour: 'red' })), [
    'value: unexpected field "colour"; the contract has no such field',
  ]);
  t.strictSame(checkReadyMessage(withValue({ ...envelope, data: { ...envelope.data, plan: emptyPlan() } })), [
    'value.data: unexpected field "plan"; the contract has no such field',
  ]);
  t.strictSame(checkReadyMessage(withValue({ ...envelope, type: 'packing_instructions.created' })), [
    'value.type: expected "packing_instructions.ready", got "packing_instructions.created"',
  ]);
  t.strictSame(checkReadyMessage(withValue({ ...envelope, timestamp: '2026-11-25T11:00:00+01:00' })), [
    'value.timestamp: "2026-11-25T11:00:00+01:00" does not match ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$',
  ]);
  t.strictSame(checkReadyMessage(withValue({ ...envelope, timestamp: '2026-13-45T10:00:00Z' })), [
    'value.timestamp: "2026-13-45T10:00:00Z" is not a date-time',
  ]);
  t.strictSame(checkReadyMessage(withValue({ ...envelope, data: { ...envelope.data, reference: 4711 } })), [
    'value.data.reference: expected string, got number',
  ]);
  t.strictSame(checkReadyMessage(withValue([envelope])), ['value: expected object, got array']);
});

t.test('the document states what the publisher does: acks all, keyed by service_ref', async (t) => {
  const doc = buildAsyncApiDocument('orders.packing-instructions') as Record<string, any>;
  t.equal(kafkaRecordFor([planned(3)], 'x').acks, -1, 'the publisher asks all in-sync replicas');
  t.equal(doc.operations.publishPackingInstructionsReady.bindings.kafka['x-acks'], 'all', 'and the document says so');
  const [example] = doc.components.messages.packingInstructionsReady.examples;
  t.match(example.summary, new RegExp(`key ${example.payload.data.order_id}\\.$`), 'the example key is the order');
});

t.test('an order.cancelled message as the publisher builds it keeps the contract; a ready envelope under its type does not', async (t) => {
  const cancelled = kafkaMessageFor({
    id: '7a1e4c2b-9d3f-4e5a-8b6c-1d2e3f4a5b6c',
    stream: 'order:G:PO-1',
    type: 'OrderCancelled',
    data: {
      order_id: 42,
      service_ref: 'SO-000042',
      reference: 'PO-1',
      company_group: 'G',
      reason: null,
      cancelled_at: '2026-11-21T08:00:00.000001',
      status_before: 'planned',
      packing_instructions_downloaded: false,
    },
    revision: 2n,
    position: 9n,
    recordedAt: new Date(),
  })!;
  t.strictSame(
    checkReadyMessage({
      key: cancelled.key as string,
      value: cancelled.value as string,
      headers: cancelled.headers as Record<string, string>,
    }),
    [],
  );
  t.same(JSON.parse(String(cancelled.value)).data, { order_id: 'SO-000042', reference: 'PO-1', reason: null });
  const wrong = { ...JSON.parse(String(cancelled.value)), data: { order_id: 'SO-000042', reference: 'PO-1' } };
  t.match(checkReadyMessage({ key: 'SO-000042', value: JSON.stringify(wrong), headers: cancelled.headers as Record<string, string> }), [
    /value.data: missing "reason"/,
  ]);
});
