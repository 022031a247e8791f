// The outcome journal: what consumers journal reaches the log once, in order, in appends the store
// accepts, with two replicas appending from one delivery store.
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { WEBHOOK_OUTCOMES_STREAM, webhooksQueuedEvents } from '../../src/notifications/delivery-outcomes.js';
import { startOutcomeJournal } from '../../src/notifications/outcome-journal.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';

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
    t.strictSame(await deliveries.journal.claim('x', Date.now(), Date.now() + 1, 10), [], 'the journal is empty');
    t.strictSame(logs, [], 'no append refused');
  },
);

t.test('two replicas appending one journal: every entry reaches the log once', async (t) => {
  const dir = await tempDataDir(t, 'journal-two');
  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  const [a, b] = [openSqliteDeliveryStore(dir), openSqliteDeliveryStore(dir)];
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
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
