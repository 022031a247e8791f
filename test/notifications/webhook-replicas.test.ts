// Two delivery loops (two replicas, each on its own connection to one delivery store) racing for due
// webhooks, on SQLite always and on MongoDB when MONGODB_URL is set: each due webhook is sent by one
// of them, once; a replica that died holding one holds it up only until its lease runs out, and then
// another sends it, once. The store-level claims are in the delivery store contract; real processes
// in two-replicas.test.ts and webhook-sigkill.test.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import type { DeliveryStore, NewWebhookDelivery } from '../../src/notifications/delivery-store.js';
import { openMongoDeliveryStore } from '../../src/notifications/mongodb/mongodb-delivery-store.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { leasedQueue } from '../../src/leases/leased-queue.js';
import { startWebhookDelivery } from '../../src/notifications/webhook-delivery.js';
import { dropDatabase, scratchDatabaseName } from '../support/mongodb.js';
import type { TapTest } from '../eventstore/event-store-contract.js';
import { GROUP, masterDataWith, SECRET } from './support/order-fixtures.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

/** A delivery store's connections, each one replica's. */
type Backend = (t: TapTest, dataDir: string) => Promise<() => Promise<DeliveryStore>>;

const mongodbUrl = process.env.MONGODB_URL;
const backends: [string, Backend | string][] = [
  ['sqlite', async (_t, dataDir) => async () => openSqliteDeliveryStore(dataDir)],
  [
    'mongodb',
    mongodbUrl
      ? async (t) => {
          const dbName = scratchDatabaseName('webhook_replicas');
          t.teardown(() => dropDatabase(mongodbUrl, dbName));
          return () => openMongoDeliveryStore(mongodbUrl, dbName);
        }
      : 'MONGODB_URL is not set; no MongoDB server runs on this machine',
  ],
];

const due = (n: number, receiver: WebhookReceiver): NewWebhookDelivery => ({
  envelopeId: `evt_${n}`,
  eventPosition: BigInt(n),
  companyGroup: GROUP,
  url: receiver.url(),
  body: `{"n":${n}}`,
});

interface Replicas {
  /** A connection of the test's own, to queue deliveries and read what became of them. */
  store: DeliveryStore;
  receiver: WebhookReceiver;
  /** Starts a replica's delivery loop on a connection of its own; it counts the leases it was refused. */
  start(): Promise<{ refused: () => number }>;
}

async function replicas(t: TapTest, backend: Backend, answerAfterMs: number): Promise<Replicas> {
  const dataDir = await tempDataDir(t, 'webhook-replicas');
  const open = await backend(t, dataDir);
  // The loops follow an empty log: the deliveries are queued by the test.
  const log = openSqliteEventStore(dataDir);
  const store = await open();
  const receiver = await startWebhookReceiver(SECRET, () => sleep(answerAfterMs).then(() => 200));
  const stops: (() => Promise<void>)[] = [];
  t.teardown(async () => {
    for (const stop of stops.reverse()) await stop();
    await receiver.close();
    await store.close();
    await log.close();
  });
  const masterData = masterDataWith({ webhooks: [{ url: receiver.url(), secret: SECRET }] });
  return {
    store,
    receiver,
    async start() {
      const deliveries = await open();
      stops.push(() => deliveries.close());
      let refused = 0;
      const leases = deliveries.webhookLeases;
      const consumer = await startWebhookDelivery({
        store: log,
        deliveries: {
          ...deliveries,
          webhookLeases: {
            ...leases,
            acquire: async (...args) => {
              const taken = await leases.acquire(...args);
              if (!taken) refused += 1;
              return taken;
            },
          },
        },
        masterData: () => masterData,
        timeoutMs: 2000,
        pollIntervalMs: 5,
        log: () => undefined,
      });
      stops.push(() => consumer.stop());
      return { refused: () => refused };
    },
  };
}

for (const [name, backend] of backends) {
  const skip = typeof backend === 'string' ? backend : false;

  t.test(`${name}: two replicas racing for each due webhook: exactly one sends it`, { skip }, async (t) => {
    // Each answer takes 50 ms: while one replica holds the delivery, the other looks every 5 ms.
    const { store, receiver, start } = await replicas(t, backend as Backend, 50);
    const racers = await Promise.all([start(), start()]);
    const ROUNDS = 10;
    for (let n = 1; n <= ROUNDS; n++) {
      await store.webhooks.enqueue([due(n, receiver)], 0n, Date.now());
      await waitFor(`evt_${n} delivered`, async () => (await store.webhookReport.counts()).delivered === n, 10_000);
    }
    await sleep(200);
    const ids = receiver.received.map((request) => request.id);
    t.strictSame(
      ids,
      Array.from({ length: ROUNDS }, (_, i) => `evt_${i + 1}`),
      'each webhook reached the receiver once',
    );
    t.strictSame(
      (await store.webhookReport.deliveries()).map((row) => [row.state, row.attempts]),
      Array.from({ length: ROUNDS }, () => ['delivered', 1]),
      'each delivered on one attempt',
    );
    const refused = racers.map((racer) => racer.refused());
    t.ok(refused[0]! + refused[1]! > 0, `the replicas raced: leases refused ${refused.join(' and ')} times`);
  });

  t.test(
    `${name}: a replica that died holding a due webhook holds it up until its lease runs out; then another sends it, once`,
    { skip },
    async (t) => {
      const { store, receiver, start } = await replicas(t, backend as Backend, 0);
      await store.webhooks.enqueue([due(1, receiver)], 0n, Date.now());
      const takenAt = Date.now();
      const leaseUntil = takenAt + 1500;
      const dead = leasedQueue(store.webhooks, store.webhookLeases, 'replica-that-died');
      t.equal((await dead.acquireNextDue(takenAt, leaseUntil, () => false))?.envelopeId, 'evt_1', 'taken by a replica that then died');
      await Promise.all([start(), start()]);
      await waitFor('delivered', async () => (await store.webhookReport.counts()).delivered === 1, 10_000);
      await sleep(200);
      t.equal(receiver.received.length, 1, 'sent once');
      t.ok(
        receiver.received[0]!.receivedAt >= leaseUntil,
        `not before the lease ran out (sent ${receiver.received[0]!.receivedAt - leaseUntil} ms after)`,
      );
      t.match((await store.webhookReport.deliveries())[0], { state: 'delivered', attempts: 1 });
    },
  );
}
