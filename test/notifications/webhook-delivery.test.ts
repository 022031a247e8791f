// Webhook delivery against a real receiver on 127.0.0.1, a real event store and notifications.db in a
// temp dir, with the retry schedule and timeout cut to milliseconds.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import type { MasterData } from '../../src/master-data/master-data.js';
import { WEBHOOKS } from '../../src/notifications/delivery-store.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { startWebhookDelivery, type WebhookDeliveryOptions } from '../../src/notifications/webhook-delivery.js';
import { appendPlannedOrder, masterDataWith, SECRET } from './support/order-fixtures.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { startWebhookReceiver, type Answer } from './support/webhook-receiver.js';

type Tap = { teardown(fn: () => unknown): void };

interface Setup {
  dir: string;
  store: EventStore;
  logs: string[];
  start(masterData: MasterData, overrides?: Partial<WebhookDeliveryOptions>): ReturnType<typeof startWebhookDelivery>;
  deliveries(): ReturnType<ReturnType<typeof openSqliteDeliveryStore>['webhookReport']['deliveries']>;
}

async function setup(t: Tap): Promise<Setup> {
  const dir = await tempDataDir(t, 'webhooks');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 20 });
  const logs: string[] = [];
  const running: { stop(): Promise<void> }[] = [];
  t.teardown(async () => {
    for (const consumer of running) await consumer.stop();
    await store.close();
  });
  return {
    dir,
    store,
    logs,
    async start(masterData, overrides = {}) {
      const deliveries = openSqliteDeliveryStore(dir);
      const consumer = await startWebhookDelivery({
        store,
        deliveries,
        masterData: () => masterData,
        retryDelaysMs: [30, 30, 30],
        timeoutMs: 2000,
        pollIntervalMs: 50,
        log: (message) => logs.push(message),
        ...overrides,
      });
      const once = { stopped: false };
      const handle = {
        stop: async () => {
          if (!once.stopped) {
            once.stopped = true;
            await consumer.stop();
            await deliveries.close();
          }
        },
      };
      running.push(handle);
      return handle;
    },
    async deliveries() {
      const read = openSqliteDeliveryStore(dir);
      try {
        return await read.webhookReport.deliveries();
      } finally {
        await read.close();
      }
    },
  };
}

/** Answers from a script, then `rest` for every later request. */
function script(answers: Answer[], rest: Answer = 200): () => Answer {
  let i = 0;
  return () => answers[i++] ?? rest;
}

t.test('503 then 200: redelivered with the same id and body, delivered, never sent again after a restart', async (t) => {
  const { dir, store, start, deliveries } = await setup(t);
  const receiver = await startWebhookReceiver(SECRET, script([503]));
  t.teardown(() => receiver.close());
  const masterData = masterDataWith({ webhooks: [{ url: receiver.url(), secret: SECRET }] });

  const first = await start(masterData);
  const event = await appendPlannedOrder(store, { orderId: 1 });
  await waitFor('two requests', () => receiver.received.length >= 2);
  await waitFor('delivered', async () => (await deliveries())[0]?.state === 'delivered');

  const [a, b] = receiver.received;
  t.strictSame([a?.answer, b?.answer], [503, 200]);
  t.ok(a?.verified && b?.verified, 'both attempts carry a valid signature');
  t.equal(a?.id, `evt_${event.id}`, 'webhook-id is the envelope id, from the event id');
  t.equal(b?.id, a?.id, 'same webhook-id on the retry');
  t.equal(b?.body, a?.body, 'identical body bytes on the retry');
  t.strictSame(JSON.parse(a!.body), {
    id: `evt_${event.id}`,
    type: 'packing_instructions.ready',
    timestamp: '2026-11-20T09:15:03.654321Z',
    data: { order_id: 'SO-000001', reference: 'PO-1' },
  });
  t.ok(b!.receivedAt - a!.receivedAt >= 25, 'the retry waited for the (injected) 30 ms delay');

  const records = openSqliteDeliveryStore(dir);
  t.teardown(() => records.close());
  const [row] = await records.webhookReport.deliveries();
  t.match(row, { state: 'delivered', attempts: 2, lastStatus: 200, lastError: null, url: receiver.url(), envelopeId: `evt_${event.id}` });
  const attempts = await records.webhookReport.attempts(row!.id);
  t.strictSame(
    attempts.map((attempt) => [attempt.attempt, attempt.outcome.result, attempt.outcome.status]),
    [
      [1, 'retry', 503],
      [2, 'delivered', 200],
    ],
  );
  t.equal(await records.checkpoints.checkpoint(WEBHOOKS), event.position, 'the checkpoint moved with the enqueue');

  await first.stop();
  await start(masterData);
  await sleep(300);
  t.equal(receiver.received.length, 2, 'nothing is sent again after a restart');
  t.equal((await deliveries()).length, 1, 'the event is not queued again');
});

t.test('a 4xx answer is final: one attempt, state failed', async (t) => {
  const { store, start, deliveries } = await setup(t);
  const receiver = await startWebhookReceiver(SECRET, script([], 404));
  t.teardown(() => receiver.close());
  await start(masterDataWith({ webhooks: [{ url: receiver.url(), secret: SECRET }] }));
  await appendPlannedOrder(store, { orderId: 2 });
  await waitFor('failed', async () => (await deliveries())[0]?.state === 'failed');
  await sleep(200);
  t.equal(receiver.received.length, 1, 'not retried');
  t.match((await deliveries())[0], { state: 'failed', attempts: 1, lastStatus: 404, lastError: 'HTTP 404' });
});

t.test('408 and 429 are retried, never sooner than Retry-After asks; failures are logged at warn', async (t) => {
  const { store, start, deliveries, logs } = await setup(t);
  let answered = 0;
  const receiver = await startWebhookReceiver(SECRET, (_request, response) => {
    answered += 1;
    if (answered === 1) return 408;
    if (answered === 2) {
      response.setHeader('Retry-After', '1');
      return 429;
    }
    return 200;
  });
  t.teardown(() => receiver.close());
  const levels: string[] = [];
  await start(masterDataWith({ webhooks: [{ url: receiver.url(), secret: SECRET }] }), {
    log: (message, _error, level) => {
      logs.push(message);
      levels.push(level ?? 'info');
    },
  });
  await appendPlannedOrder(store, { orderId: 3 });
  await waitFor('delivered', async () => (await deliveries())[0]?.state === 'delivered');
  const [first, second, third] = receiver.received;
  t.strictSame([first?.answer, second?.answer, third?.answer], [408, 429, 200]);
  t.ok(
    third!.receivedAt - second!.receivedAt >= 950,
    `the 429's Retry-After: 1 held the retry back 1 s, not the 30 ms schedule (${third!.receivedAt - second!.receivedAt} ms)`,
  );
  t.ok(second!.receivedAt - first!.receivedAt < 900, 'the 408 was retried on the schedule');
  t.strictSame(levels, ['warn', 'warn'], 'each failed attempt at warn');
});

t.test('a timeout is retried', async (t) => {
  const { store, start, deliveries } = await setup(t);
  const receiver = await startWebhookReceiver(SECRET, script(['hang']));
  t.teardown(() => receiver.close());
  await start(masterDataWith({ webhooks: [{ url: receiver.url(), secret: SECRET }] }), { timeoutMs: 500 });
  await appendPlannedOrder(store, { orderId: 3 });
  await waitFor('delivered', async () => (await deliveries())[0]?.state === 'delivered');
  t.strictSame(
    receiver.received.map((r) => r.answer),
    ['hang', 200],
  );
  t.equal(receiver.received[1]!.id, receiver.received[0]!.id);
  t.match((await deliveries())[0], { attempts: 2 });
});

t.test('after 4 failed attempts (5xx, dropped connection) the delivery is failed and kept', async (t) => {
  const { store, start, deliveries, logs } = await setup(t);
  const receiver = await startWebhookReceiver(SECRET, script([500, 'drop', 502], 503));
  t.teardown(() => receiver.close());
  await start(masterDataWith({ webhooks: [{ url: receiver.url(), secret: SECRET }] }));
  await appendPlannedOrder(store, { orderId: 4 });
  await waitFor('failed', async () => (await deliveries())[0]?.state === 'failed');
  await sleep(200);
  t.strictSame(
    receiver.received.map((r) => r.answer),
    [500, 'drop', 502, 503],
    'exactly 4 attempts',
  );
  t.match((await deliveries())[0], { state: 'failed', attempts: 4, lastStatus: 503, lastError: /HTTP 503.*giving up/ });
  t.ok(
    logs.some((line) => /failed for good after attempt 4/.test(line)),
    'the final failure is logged',
  );
});

t.test('connection refused is retried like a 5xx', async (t) => {
  const { store, start, deliveries } = await setup(t);
  const closed = await startWebhookReceiver(SECRET, () => 200);
  const url = closed.url();
  await closed.close(); // nothing listens on this loopback port now
  await start(masterDataWith({ webhooks: [{ url, secret: SECRET }] }), { retryDelaysMs: [5, 5, 5] });
  await appendPlannedOrder(store, { orderId: 5 });
  await waitFor('failed', async () => (await deliveries())[0]?.state === 'failed');
  t.match((await deliveries())[0], { state: 'failed', attempts: 4, lastStatus: null, lastError: /ECONNREFUSED|fetch failed/ });
});

t.test("every endpoint of the order's group gets the event, other groups none", async (t) => {
  const { store, start, deliveries } = await setup(t);
  const receiver = await startWebhookReceiver(SECRET, () => 200);
  t.teardown(() => receiver.close());
  const masterData = masterDataWith(
    {
      webhooks: [
        { url: receiver.url('/a'), secret: SECRET },
        { url: receiver.url('/b'), secret: SECRET },
      ],
    },
    { name: 'Other Group', webhooks: [{ url: receiver.url('/other'), secret: SECRET }] },
    { name: 'Quiet Group' },
  );
  await start(masterData);
  const event = await appendPlannedOrder(store, { orderId: 6 });
  await appendPlannedOrder(store, { orderId: 7, group: 'Quiet Group' });
  await waitFor('two deliveries', async () => (await deliveries()).filter((row) => row.state === 'delivered').length === 2);
  await sleep(100);
  t.equal(receiver.received.length, 2);
  t.strictSame(new Set(receiver.received.map((r) => r.id)), new Set([`evt_${event.id}`]), 'one webhook-id, for both endpoints');
  t.strictSame((await deliveries()).map((row) => row.url).sort(), [receiver.url('/a'), receiver.url('/b')]);
});

t.test('the secret is read from master data at each attempt', async (t) => {
  const rotated = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  const { store, start, deliveries } = await setup(t);
  const masterData = masterDataWith({ webhooks: [{ url: '', secret: SECRET }] });
  let receiverSecret = SECRET;
  // The first attempt is answered 503 and the secret rotated (in master data and at the receiver) in between.
  const receiver = await startWebhookReceiver(
    () => receiverSecret,
    () => {
      if (receiverSecret === rotated) return 200;
      receiverSecret = rotated;
      masterData.groups.get('Acme Group')!.webhooks[0]!.secret = rotated;
      return 503;
    },
  );
  t.teardown(() => receiver.close());
  masterData.groups.get('Acme Group')!.webhooks[0]!.url = receiver.url();
  await start(masterData);
  await appendPlannedOrder(store, { orderId: 8 });
  await waitFor('delivered', async () => (await deliveries())[0]?.state === 'delivered');
  t.strictSame(
    receiver.received.map((r) => [r.answer, r.verified]),
    [
      [503, true],
      [200, true],
    ],
    'the retry is signed with the new secret',
  );
});
