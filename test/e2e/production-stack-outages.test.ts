// The servers go away while the service runs, as they do in production: the Kafka broker is killed
// with SIGKILL in the middle of a burst of orders and started again; FerretDB (the MongoDB-protocol
// server the read models are on) is stopped and started again. Each test starts its own server, so
// that killing it disturbs no other test; the other server is the suite's (scripts/test-servers).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import { stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';
import t from 'tap';
import type { TapTest } from '../eventstore/event-store-contract.js';
import { checkReadyMessage } from '../../src/notifications/check-ready-message.js';
import { databaseUrl, dropDatabase } from '../support/mongodb.js';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { ferretDbServer, kafkaServer } from '../support/servers/test-servers.js';
import { startServiceProcess, until } from './service-process.js';

// kafkajs's 1 ms idle timer off for this process's own clients too (kafkajs-idle-timer.ts)
stopKafkajsIdleTimer();

t.setTimeout(600_000);
const mongoUrl = process.env.MONGODB_URL;
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
const skip =
  !mongoUrl || brokers.length === 0
    ? 'MONGODB_URL and KAFKA_BROKERS are not both set: start the test servers (scripts/test-servers/test-servers start)'
    : false;

function scratch(t: TapTest, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const BURST = 100;

t.test(
  'the broker killed with SIGKILL in the middle of a burst of 100 orders and started again: every message arrives',
  { skip, timeout: 540_000 },
  async (t) => {
    const kafka = await kafkaServer(scratch(t, 'kafka-kill-'), { quickRestart: true });
    t.teardown(() => kafka.kill());
    t.comment(`own broker up in ${await kafka.start()} ms (pid ${kafka.pid})`);
    const database = `kill_${randomUUID().slice(0, 8)}`;
    t.teardown(() => dropDatabase(mongoUrl!, database));
    const topic = 'orders.packing-instructions';
    const client = new Kafka({ clientId: 'kill-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING, retry: { retries: 30 } });
    const admin = client.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    await admin.disconnect();
    const received: KafkaMessage[] = [];
    const consumer = client.consumer({ groupId: 'kill-test', retry: { retries: 30 } });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
    t.teardown(() => consumer.disconnect());

    const dataDir = scratch(t, 'orders-kill-');
    writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(testSeed()));
    const service = await startServiceProcess({
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      MONGODB_URL: databaseUrl(mongoUrl!, database),
      KAFKA_BROKERS: kafka.brokers,
    });
    t.teardown(() => service.stop());

    const refs: string[] = [];
    let killedAt = -1;
    let messagesAtKill = 0;
    for (let i = 0; i < BURST; i++) {
      if (i === BURST / 2) {
        // Half the burst submitted, some of it planned and published, the rest still to come.
        messagesAtKill = received.length;
        killedAt = i;
        await kafka.kill();
        t.comment(`broker killed with SIGKILL after ${i} submits, ${messagesAtKill} messages read`);
      }
      if (i === BURST / 2 + 20) t.comment(`broker started again in ${await kafka.start()} ms (pid ${kafka.pid})`);
      const response = await service.request('POST', '/api/v1/orders/submit-order/', {
        key: ACME_KEY,
        body: acmeOrder({ reference: `KILL-${i}`, order_items: [{ item: 'SKU-1001', quantity: 20 + i }] }),
      });
      t.equal(response.status, 201, `KILL-${i}`);
      refs.push(response.body.service_ref);
    }
    t.ok(killedAt > 0 && messagesAtKill < BURST, 'the broker went down in the middle of the burst');

    const eventIds = () => new Set(received.map((m) => m.headers?.['event-id']?.toString()));
    await until(`${BURST} distinct messages`, () => eventIds().size >= BURST, 240_000);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // room for the last duplicates
    t.strictSame([...new Set(received.map((m) => m.key!.toString()))].sort(), [...refs].sort(), 'a message for every order of the burst');
    const byId = new Map<string, string[]>();
    for (const message of received) {
      const id = message.headers!['event-id']!.toString();
      byId.set(id, [...(byId.get(id) ?? []), message.value!.toString()]);
    }
    const duplicates = [...byId.values()].filter((values) => values.length > 1);
    t.ok(
      duplicates.every((values) => values.every((value) => value === values[0])),
      'a duplicate is the same bytes under the same event-id, as the docs say',
    );
    t.equal(byId.size, BURST, 'one event id per order');
    t.strictSame(
      received.flatMap((message) => checkReadyMessage(message)),
      [],
      'every message, duplicates too, as the AsyncAPI document says',
    );
    t.comment(`messages read: ${received.length} for ${BURST} orders; duplicates (same event-id): ${received.length - BURST}`);
  },
);

t.test(
  'FerretDB stopped while the service runs: 503s within the deadline, /readyz names the read model, then it recovers without a restart and loses nothing',
  { skip, timeout: 300_000 },
  async (t) => {
    const ferret = await ferretDbServer(scratch(t, 'ferret-outage-'));
    t.teardown(() => ferret.kill());
    t.comment(`own FerretDB up in ${await ferret.start()} ms (pid ${ferret.pid})`);
    const visibleWithinMs = 2000;
    const dataDir = scratch(t, 'orders-outage-');
    writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(testSeed()));
    const service = await startServiceProcess({
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      MONGODB_URL: ferret.url,
      KAFKA_BROKERS: brokers.join(','),
      ORDERS_KAFKA_TOPIC: `orders.outage-${randomUUID().slice(0, 8)}`,
      ORDERS_VISIBLE_WITHIN_MS: String(visibleWithinMs),
    });
    t.teardown(() => service.stop());
    const submit = (reference: string) =>
      service.request('POST', '/api/v1/orders/submit-order/', { key: ACME_KEY, body: acmeOrder({ reference }) });

    const before = await submit('OUTAGE-BEFORE');
    t.equal(before.status, 201);
    await until(
      'the first order planned',
      async () =>
        (await service.request('GET', `/api/v1/orders/detailed-orders/${before.body.order_id}/`, { key: ACME_KEY })).body.status ===
        'planned',
    );

    await ferret.stop();
    const acknowledged: { reference: string; orderId: number }[] = [{ reference: 'OUTAGE-BEFORE', orderId: before.body.order_id }];
    for (const reference of ['OUTAGE-DURING-1', 'OUTAGE-DURING-2']) {
      const started = Date.now();
      const response = await submit(reference);
      const took = Date.now() - started;
      t.equal(response.status, 503, `${reference}: submit while the read model is away: ${JSON.stringify(response.body)}`);
      t.ok(took <= visibleWithinMs + 1000, `${reference}: answered in ${took} ms (ORDERS_VISIBLE_WITHIN_MS ${visibleWithinMs})`);
      if (typeof response.body.order_id === 'number') acknowledged.push({ reference, orderId: response.body.order_id });
    }
    const retrieveStarted = Date.now();
    const retrieve = await service.request('GET', `/api/v1/orders/detailed-orders/${before.body.order_id}/`, { key: ACME_KEY });
    const retrieveTook = Date.now() - retrieveStarted;
    t.equal(retrieve.status, 503, `retrieve while the read model is away: ${JSON.stringify(retrieve.body)}`);
    t.ok(retrieveTook <= visibleWithinMs + 1000, `retrieve answered in ${retrieveTook} ms`);
    const ready = await service.request('GET', '/readyz');
    t.equal(ready.status, 503, '/readyz: not ready');
    t.match(JSON.stringify(ready.body), /read.?model/i, `/readyz names the read model: ${JSON.stringify(ready.body)}`);

    t.comment(`FerretDB started again in ${await ferret.start()} ms`);
    await until('/readyz ready again', async () => (await service.request('GET', '/readyz')).status === 200, 60_000);
    for (const { reference, orderId } of acknowledged) {
      await until(
        `${reference} planned`,
        async () => {
          const response = await service.request('GET', `/api/v1/orders/detailed-orders/${orderId}/`, { key: ACME_KEY });
          return response.status === 200 && response.body.status === 'planned';
        },
        60_000,
      );
    }
    t.pass(`every acknowledged order (${acknowledged.map((a) => a.reference).join(', ')}) is there and planned, without a restart`);
    const after = await submit('OUTAGE-AFTER');
    t.equal(after.status, 201, 'a new order after the outage');
    const list = await service.request('GET', '/api/v1/orders/detailed-orders/?paginate=false', { key: ACME_KEY });
    t.strictSame(
      list.body.map((o: { reference: string }) => o.reference).sort(),
      [...acknowledged.map((a) => a.reference), 'OUTAGE-AFTER'].sort(),
      'the list holds every order, once',
    );
  },
);
