// Kafka: the record built from an event, for real; publishing to a broker only where one is configured
// (KAFKA_BROKERS), since none runs on the development machines.
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, type KafkaMessage, type LogEntry } from 'kafkajs';
import { stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';
import t from 'tap';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { KAFKA } from '../../src/notifications/delivery-store.js';
import { DEFAULT_KAFKA_TOPIC, kafkaRecordFor } from '../../src/notifications/kafka-message.js';
import { kafkaLogLevel, kafkaLogLine, startKafkaPublisher, type KafkaProducer } from '../../src/notifications/kafka-publisher.js';
import { readyEnvelopeBody, type OrderPlannedEvent } from '../../src/notifications/ready-envelope.js';
import { openSqliteCheckpointStore } from '../../src/checkpoints/sqlite-checkpoint-store.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { appendPlannedOrder } from './support/order-fixtures.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { emptyPlan } from '../support/plans.js';

// kafkajs's 1 ms idle timer off for this process's own clients too (kafkajs-idle-timer.ts)
stopKafkajsIdleTimer();

const planned: OrderPlannedEvent = {
  id: '5d0c8a7e-3f1b-4c2d-8e9f-0a1b2c3d4e5f',
  stream: 'order:Acme%20Group:PO-9',
  type: 'OrderPlanned',
  data: {
    order_id: 9,
    service_ref: 'SO-000009',
    reference: 'PO-9',
    company_group: 'Acme Group',
    plan: emptyPlan(),
    planned_at: '2026-11-20T09:15:03.000001',
  },
  revision: 1n,
  position: 17n,
  recordedAt: new Date('2026-11-20T09:15:03.100Z'),
};

t.test('the record of an OrderPlanned: topic, key, value, headers, acks', async (t) => {
  const other: RecordedEvent = { ...planned, id: 'x', type: 'OrderSubmitted', position: 16n };
  const record = kafkaRecordFor([other, planned], 'orders.test');
  t.equal(record.topic, 'orders.test');
  t.equal(record.acks, -1, 'all in-sync replicas');
  t.equal(record.messages.length, 1, 'only OrderPlanned events become messages');
  t.strictSame(record.messages[0], {
    key: 'SO-000009',
    value: readyEnvelopeBody(planned),
    headers: {
      'event-id': 'evt_5d0c8a7e-3f1b-4c2d-8e9f-0a1b2c3d4e5f',
      'event-type': 'packing_instructions.ready',
      'content-type': 'application/json',
    },
  });
  t.strictSame(JSON.parse(String(record.messages[0]!.value)), {
    id: 'evt_5d0c8a7e-3f1b-4c2d-8e9f-0a1b2c3d4e5f',
    type: 'packing_instructions.ready',
    timestamp: '2026-11-20T09:15:03.000001Z',
    data: { order_id: 'SO-000009', reference: 'PO-9' },
  });
  t.equal(DEFAULT_KAFKA_TOPIC, 'orders.packing-instructions');
});

const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);

t.test(
  'publishes to a real broker, once per event across a restart',
  { skip: brokers.length === 0 ? 'KAFKA_BROKERS is not set: no Kafka broker to publish to' : false },
  async (t) => {
    const topic = `orders.packing-instructions.test-${randomUUID()}`;
    const kafka = new Kafka({ clientId: 'notifications-test', brokers, logLevel: logLevel.ERROR });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    t.teardown(async () => {
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    });

    const dir = await tempDataDir(t, 'kafka');
    const store = openSqliteEventStore(dir, { pollIntervalMs: 20 });
    t.teardown(() => store.close());
    const logs: string[] = [];
    const deliveries = openSqliteDeliveryStore(dir);
    t.teardown(() => deliveries.close());
    // Errors only: a new broker answers the first InitProducerId with a retriable error, logged as a warning.
    const start = () =>
      startKafkaPublisher({
        store,
        deliveries,
        brokers,
        topic,
        retryDelayMs: 100,
        log: (m, _e, level) => void (level === 'warn' || logs.push(m)),
      });

    const received: KafkaMessage[] = [];
    const consumer = kafka.consumer({ groupId: `notifications-test-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
    t.teardown(() => consumer.disconnect());

    const first = await start();
    const events = [];
    for (let i = 1; i <= 3; i++) events.push(await appendPlannedOrder(store, { orderId: i }));
    await waitFor('3 messages', () => received.length >= 3, 30_000);
    await first.stop();

    t.equal(await deliveries.checkpoints.checkpoint(KAFKA), events.at(-1)!.position, 'checkpoint after the last published event');

    const second = await start();
    t.teardown(() => second.stop());
    events.push(await appendPlannedOrder(store, { orderId: 4 }));
    await waitFor('4 messages', () => received.length >= 4, 30_000);
    await sleep(1000);

    t.equal(received.length, 4, 'a restart publishes only what came after the checkpoint');
    t.strictSame(
      received.map((m) => m.key?.toString()),
      ['SO-000001', 'SO-000002', 'SO-000003', 'SO-000004'],
      'keyed by service_ref, in order',
    );
    t.strictSame(
      received.map((m) => m.headers?.['event-id']?.toString()),
      events.map((e) => `evt_${e.id}`),
      'event id in a header',
    );
    t.strictSame(
      received.map((m) => m.value?.toString()),
      events.map((e) => readyEnvelopeBody(e)),
      'the envelope as value',
    );
    t.strictSame(logs, [], 'nothing went wrong');
  },
);

t.test('kafkajs log lines carry their reason; error answers of a broker, which kafkajs retries, are warnings', async (t) => {
  const entry = (namespace: string, level: logLevel, message: string, error?: string): LogEntry => ({
    namespace,
    level,
    label: 'ERROR',
    log: { timestamp: '', logger: 'kafkajs', message, ...(error ? { error } : {}) },
  });
  const coordinator = entry(
    'Connection',
    logLevel.ERROR,
    'Response InitProducerId(key: 22, version: 1)',
    'The coordinator is not available',
  );
  t.equal(kafkaLogLine(coordinator), 'kafka (Connection): Response InitProducerId(key: 22, version: 1): The coordinator is not available');
  t.equal(kafkaLogLevel(coordinator), 'warn');
  t.equal(kafkaLogLevel(entry('Producer', logLevel.ERROR, 'Failed to send messages')), 'error');
  t.equal(kafkaLogLevel(entry('Connection', logLevel.ERROR, 'Connection error: ECONNREFUSED')), 'error');
  t.equal(kafkaLogLevel(entry('Producer', logLevel.WARN, 'anything')), 'warn');
  t.equal(kafkaLogLine(entry('Producer', logLevel.WARN, 'no reason')), 'kafka (Producer): no reason');
});

t.test('a broker that cannot be reached: the publisher starts anyway, keeps its checkpoint, and stops promptly', async (t) => {
  const unreachable = await new Promise<string>((resolve) => {
    // A loopback port nobody listens on: bind one, note it, close it.
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(`127.0.0.1:${port}`));
    });
  });
  const dir = await tempDataDir(t, 'kafka-down');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 20 });
  t.teardown(() => store.close());
  const deliveries = openSqliteDeliveryStore(dir);
  t.teardown(() => deliveries.close());
  const publisher = await startKafkaPublisher({ store, deliveries, brokers: [unreachable], retryDelayMs: 50, log: () => undefined });
  await appendPlannedOrder(store, { orderId: 1 });
  await sleep(500); // the publisher is now trying to connect (kafkajs retries for several seconds)
  const started = Date.now();
  await publisher.stop();
  const took = Date.now() - started;
  t.ok(took < 2000, `stop does not wait for kafkajs's retries (${took} ms)`);
  t.equal(await deliveries.checkpoints.checkpoint(KAFKA), undefined, 'nothing published, checkpoint not moved');
});

/** The publisher's producer seam: keeps what it was asked to send, taking a little time as a broker would. */
function fakeProducer(sent: { eventId: string; by: string }[], by: string): KafkaProducer {
  return {
    connect: async () => undefined,
    disconnect: async () => undefined,
    async send(record) {
      await sleep(5);
      for (const message of record.messages) sent.push({ eventId: String(message.headers?.['event-id']), by });
    },
  };
}

t.test('two publishers on one delivery store (two connections to one file) publish each event once', async (t) => {
  const dir = await tempDataDir(t, 'kafka-replicas');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 10 });
  t.teardown(() => store.close());
  const sent: { eventId: string; by: string }[] = [];
  const publishers = await Promise.all(
    ['a', 'b'].map(async (by) => {
      const deliveries = openSqliteDeliveryStore(dir);
      const publisher = await startKafkaPublisher({
        store,
        deliveries,
        brokers: [],
        producer: fakeProducer(sent, by),
        retryDelayMs: 50,
        log: () => undefined,
      });
      return { deliveries, publisher };
    }),
  );
  t.teardown(async () => {
    for (const { publisher, deliveries } of publishers) {
      await publisher.stop();
      await deliveries.close();
    }
  });
  const events: OrderPlannedEvent[] = [];
  for (let i = 1; i <= 30; i++) {
    events.push(await appendPlannedOrder(store, { orderId: i }));
    if (i % 3 === 0) await sleep(5);
  }
  await waitFor('30 messages', () => new Set(sent.map((m) => m.eventId)).size === 30, 10_000);
  await sleep(300); // time for a duplicate, had one been sent
  t.equal(sent.length, 30, 'no event published twice');
  t.strictSame(sent.map((m) => m.eventId).sort(), events.map((e) => `evt_${e.id}`).sort(), 'every event published');
  t.equal(
    await publishers[0]!.deliveries.checkpoints.checkpoint(KAFKA),
    events.at(-1)!.position,
    'the shared checkpoint reached the last event',
  );
  const order = sent.map((m) => m.eventId);
  t.strictSame(
    order,
    events.map((e) => `evt_${e.id}`),
    'in log order across both publishers',
  );
  t.comment(`published by a: ${sent.filter((m) => m.by === 'a').length}, by b: ${sent.filter((m) => m.by === 'b').length}`);
});

t.test(
  "publishers started again in the same replica take up their own claims at once; another replica's wait until they run out",
  async (t) => {
    const dir = await tempDataDir(t, 'kafka-same-holder');
    const store = openSqliteEventStore(dir, { pollIntervalMs: 10 });
    t.teardown(() => store.close());
    const opened = openSqliteDeliveryStore(dir);
    t.teardown(() => opened.close());
    // As when the store is unreachable at the moment the notifications' lease lapses: the claims stay held.
    const deliveries = {
      ...opened,
      kafkaLeases: { ...opened.kafkaLeases, releaseAll: () => Promise.reject(new Error('the claim store is away')) },
    };
    const hanging: KafkaProducer = { connect: async () => undefined, disconnect: async () => undefined, send: () => new Promise(() => {}) };
    const first = await startKafkaPublisher({
      store,
      deliveries,
      brokers: [],
      producer: hanging,
      holder: 'replica-1',
      log: () => undefined,
    });
    const event = await appendPlannedOrder(store, { orderId: 1 });
    await waitFor(
      'the first publisher holds the claim',
      async () => (await opened.kafkaLeases.holderOf(event.id, Date.now())) === 'replica-1',
      5_000,
    );
    await first.stop();

    const sent: { eventId: string; by: string }[] = [];
    const other = await startKafkaPublisher({
      store,
      deliveries: opened,
      brokers: [],
      producer: fakeProducer(sent, 'replica-2'),
      holder: 'replica-2',
      log: () => undefined,
    });
    await sleep(1_000);
    t.strictSame(sent, [], 'another replica leaves the event to the claim, which runs for minutes yet');
    await other.stop();

    const again = await startKafkaPublisher({
      store,
      deliveries: opened,
      brokers: [],
      producer: fakeProducer(sent, 'replica-1 again'),
      holder: 'replica-1',
      log: () => undefined,
    });
    t.teardown(() => again.stop());
    await waitFor('the event published', () => sent.length > 0, 5_000);
    t.strictSame(sent, [{ eventId: `evt_${event.id}`, by: 'replica-1 again' }], 'the same replica publishes it at once');
  },
);

t.test('an upgrade: the kafka checkpoint of the checkpoint store is taken over while the delivery store has none', async (t) => {
  const dir = await tempDataDir(t, 'kafka-legacy');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 10 });
  t.teardown(() => store.close());
  const events: OrderPlannedEvent[] = [];
  for (let i = 1; i <= 3; i++) events.push(await appendPlannedOrder(store, { orderId: i }));
  const legacy = openSqliteCheckpointStore(dir);
  t.teardown(() => legacy.close());
  await legacy.save(KAFKA, events[1]!.position);
  const deliveries = openSqliteDeliveryStore(dir);
  t.teardown(() => deliveries.close());
  const sent: { eventId: string; by: string }[] = [];
  const publisher = await startKafkaPublisher({
    store,
    deliveries,
    legacyCheckpoints: legacy,
    brokers: [],
    producer: fakeProducer(sent, 'a'),
    retryDelayMs: 50,
    log: () => undefined,
  });
  t.teardown(() => publisher.stop());
  await waitFor('the third event published', () => sent.length >= 1, 5000);
  await sleep(200);
  t.strictSame(
    sent.map((m) => m.eventId),
    [`evt_${events[2]!.id}`],
    'only what came after the old checkpoint',
  );
  t.equal(await deliveries.checkpoints.checkpoint(KAFKA), events[2]!.position, 'the checkpoint now lives in the delivery store');
});

t.test('sends that keep failing are tried again at least every maxRetryDelayMs, and the event goes out once a send passes', async (t) => {
  const dir = await tempDataDir(t, 'kafka-ceiling');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 10 });
  t.teardown(() => store.close());
  const deliveries = openSqliteDeliveryStore(dir);
  t.teardown(() => deliveries.close());
  const sent: { eventId: string; by: string }[] = [];
  const working = fakeProducer(sent, 'after');
  let failures = 0;
  // A broker that answers no send seven times in a row, then does.
  const flaky: KafkaProducer = {
    ...working,
    async send(record) {
      if (failures < 7) {
        failures++;
        throw new Error('broker away');
      }
      await working.send(record);
    },
  };
  const pauses: number[] = [];
  const publisher = await startKafkaPublisher({
    store,
    deliveries,
    brokers: [],
    producer: flaky,
    retryDelayMs: 10,
    maxRetryDelayMs: 40,
    log: (message) => {
      const pause = /trying again in (\d+) ms/.exec(message)?.[1];
      if (pause) pauses.push(Number(pause));
    },
  });
  t.teardown(() => publisher.stop());
  await appendPlannedOrder(store, { orderId: 1 });
  await waitFor('the event sent', () => sent.length === 1, 10_000);
  t.strictSame(pauses, [10, 20, 40, 40, 40, 40, 40], 'the pauses doubled up to the ceiling and stayed there');
  await sleep(100);
  t.equal(sent.length, 1, 'then the event went out, once');
});
