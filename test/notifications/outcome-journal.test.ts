// The outcome journal: what consumers journal reaches the log once, in order, in appends the store
// accepts, with two replicas appending from one delivery store (SQLite always, MongoDB when MONGODB_URL
// is set), and after a replica that died holding the journal's lease.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { WEBHOOK_OUTCOMES_STREAM, webhooksQueuedEvents } from '../../src/notifications/delivery-outcomes.js';
import type { DeliveryStore } from '../../src/notifications/delivery-store.js';
import { openMongoDeliveryStore } from '../../src/notifications/mongodb/mongodb-delivery-store.js';
import { JOURNAL_LEASE, startOutcomeJournal } from '../../src/notifications/outcome-journal.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { dropDatabase, scratchDatabaseName } from '../support/mongodb.js';
import type { TapTest } from '../eventstore/event-store-contract.js';

const URL_OF_200 = `http://127.0.0.1:1/${'p'.repeat(200)}`;

t.test(
  'a large backlog (1.5 MB of WebhooksQueued) goes out in appends under a 1 MiB limit, in order, and the journal empties',
  async (t) => {
    const dir = await tempDataDir(t, 'journal-large');
    const store = openSqliteEventStore(dir, { maxAppendBytes: 1024 * 1024 });
    t.teardown(() => store.close());
    const deliveries = openSqliteDeliveryStore(dir);
    t.teardown(() => deliveries.close());
    for (let batch = 0; batch < 60; batch++) {
      const queued = Array.from({ length: 100 }, (_, i) => ({
        envelopeId: `evt_${batch}_${i}`,
        eventPosition: BigInt(batch * 100 + i),
        url: URL_OF_200,
      }));
      await deliveries.webhooks.enqueue([], BigInt(batch * 100 + 99), 0, webhooksQueuedEvents(queued, BigInt(batch * 100 + 99)));
    }
    const logs: string[] = [];
    const journal = startOutcomeJournal({ store, deliveries, pollIntervalMs: 20, log: (message) => logs.push(message) });
    t.teardown(() => journal.stop());
    await waitFor('60 events in the log', async () => (await store.readStream(WEBHOOK_OUTCOMES_STREAM)).length >= 60, 20_000);
    const events = await store.readStream(WEBHOOK_OUTCOMES_STREAM);
    t.equal(events.length, 60, 'each journaled once');
    t.strictSame(
      events.map((e) => (e.data as { through: string }).through),
      Array.from({ length: 60 }, (_, b) => String(b * 100 + 99)),
      'in journal order',
    );
    t.ok(new Set(events.map((e) => e.position)).size > 5, 'in several appends');
    t.strictSame(await deliveries.journal.oldest(10), [], 'the journal is empty');
    t.strictSame(logs, [], 'no append refused');
  },
);

const mongodbUrl = process.env.MONGODB_URL;
/** Opens one connection to a delivery store per call: each a replica's. */
const backends: [string, ((t: TapTest, dir: string) => () => Promise<DeliveryStore>) | string][] = [
  ['sqlite', (_t, dir) => async () => openSqliteDeliveryStore(dir)],
  [
    'mongodb',
    mongodbUrl
      ? (t) => {
          const dbName = scratchDatabaseName('journal_replicas');
          t.teardown(() => dropDatabase(mongodbUrl, dbName));
          return () => openMongoDeliveryStore(mongodbUrl, dbName);
        }
      : 'MONGODB_URL is not set; no MongoDB server runs on this machine',
  ],
];

for (const [name, backend] of backends) {
  const skip = typeof backend === 'string' ? backend : false;
  const open = async (t: TapTest, dir: string) => {
    const connect = (backend as Exclude<typeof backend, string>)(t, dir);
    const [a, b] = [await connect(), await connect()];
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    return [a, b] as const;
  };

  t.test(`${name}: two replicas appending one journal: every entry reaches the log once`, { skip }, async (t) => {
    const dir = await tempDataDir(t, 'journal-two');
    const store = openSqliteEventStore(dir);
    t.teardown(() => store.close());
    const [a, b] = await open(t, dir);
    const journals = [
      startOutcomeJournal({ store, deliveries: a, pollIntervalMs: 5, log: () => undefined }),
      startOutcomeJournal({ store, deliveries: b, pollIntervalMs: 5, log: () => undefined }),
    ];
    for (let i = 0; i < 300; i++) {
      await (i % 2 ? a : b).webhooks.enqueue([], BigInt(i), 0, webhooksQueuedEvents([], BigInt(i)));
      journals[i % 2]!.wake();
    }
    for (const journal of journals) await journal.stop();
    const throughs = (await store.readStream(WEBHOOK_OUTCOMES_STREAM)).map((e) => Number((e.data as { through: string }).through));
    t.equal(throughs.length, 300, 'none twice, none lost');
    t.equal(new Set(throughs).size, 300);
  });

  t.test(
    `${name}: a replica that died holding the journal's lease holds it up until the lease runs out; then another appends it, once`,
    { skip },
    async (t) => {
      const dir = await tempDataDir(t, 'journal-dead');
      const store = openSqliteEventStore(dir);
      t.teardown(() => store.close());
      const [a, b] = await open(t, dir);
      for (let i = 0; i < 3; i++) await a.webhooks.enqueue([], BigInt(i), 0, webhooksQueuedEvents([], BigInt(i)));
      const leaseUntil = Date.now() + 1000;
      t.equal(await a.journalLeases.acquire(JOURNAL_LEASE, 'replica-that-died', Date.now(), leaseUntil), true);
      const journal = startOutcomeJournal({ store, deliveries: b, pollIntervalMs: 20, log: () => undefined });
      t.teardown(() => journal.stop());
      await sleep(leaseUntil - Date.now() - 200);
      t.strictSame(await store.readStream(WEBHOOK_OUTCOMES_STREAM), [], 'nothing appended while the lease runs');
      await waitFor('three events in the log', async () => (await store.readStream(WEBHOOK_OUTCOMES_STREAM)).length >= 3, 10_000);
      const events = await store.readStream(WEBHOOK_OUTCOMES_STREAM);
      t.ok(
        events[0]!.recordedAt.getTime() >= leaseUntil,
        `appended after it ran out (${events[0]!.recordedAt.getTime() - leaseUntil} ms after)`,
      );
      await sleep(100);
      t.strictSame(
        (await store.readStream(WEBHOOK_OUTCOMES_STREAM)).map((e) => (e.data as { through: string }).through),
        ['0', '1', '2'],
        'each once, in journal order',
      );
      t.strictSame(await b.journal.oldest(10), [], 'the journal is empty');
    },
  );
}
