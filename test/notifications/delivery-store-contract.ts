// The behaviour every DeliveryStore adapter must have, run against each of them. Each test opens its
// own storage (a data directory, a database), so the suite also holds against a shared server; `second`
// is another connection to the same storage, as a second replica has.
import type {
  DeliveryStore,
  DueDelivery,
  JournalEvent,
  NewWebhookDelivery,
  StoredWebhookDelivery,
} from '../../src/notifications/delivery-store.js';
import { EMAIL, KAFKA, WEBHOOKS } from '../../src/notifications/delivery-store.js';
import { leasedQueue, type LeasedQueue } from '../../src/leases/leased-queue.js';
import type { TapTest } from '../eventstore/event-store-contract.js';

export interface OpenedDeliveryStore {
  store: DeliveryStore;
  /** Another store on the same storage: a second replica, or the same one after a restart. */
  second(): Promise<DeliveryStore>;
  /** Closes what was opened and removes what was created. */
  cleanup(): Promise<void>;
}

const delivery = (n: number, url = 'http://127.0.0.1:1/hook'): NewWebhookDelivery => ({
  envelopeId: `evt_${n}`,
  eventPosition: BigInt(n * 10),
  companyGroup: 'Acme Group',
  url,
  body: `{"n":${n}}`,
});
type Body = (t: TapTest, opened: OpenedDeliveryStore) => Promise<void>;
type WebhookLeases = LeasedQueue<StoredWebhookDelivery>;
/** A replica's leases on due webhooks: the port's queue and leases, as the delivery loop acquires them. */
const replica = (store: DeliveryStore, holder: string): WebhookLeases =>
  leasedQueue<DueDelivery, StoredWebhookDelivery>(store.webhooks, store.webhookLeases, holder);
const passNone = () => false;
const journalEvent = (type: string, n: number): JournalEvent => ({
  stream: 'notifications-test',
  type,
  data: { n, position: String(2n ** 60n + BigInt(n)) },
});

export function deliveryStoreContract(t: TapTest, name: string, open: () => Promise<OpenedDeliveryStore>): void {
  t.test(`${name}: delivery store contract`, async (t) => {
    const test = (title: string, body: Body) =>
      t.test(title, async (t) => {
        const opened = await open();
        t.teardown(opened.cleanup);
        await body(t, opened);
      });

    test('the log it belongs to: none until bound, then the one bound', async (t, { store }) => {
      t.equal(await store.checkpoints.logIdentity(), undefined);
      await store.checkpoints.bindToLog('evt-first-of-log-a');
      t.equal(await store.checkpoints.logIdentity(), 'evt-first-of-log-a');
      t.equal(await store.restore.isEmpty(), true, 'an identity alone leaves the store empty (a restore still runs)');
    });

    test('checkpoints: none at first, only forward, exact 64-bit positions', async (t, { store }) => {
      t.equal(await store.restore.isEmpty(), true, 'a new store is empty');
      t.equal(await store.checkpoints.checkpoint(EMAIL), undefined);
      await store.checkpoints.saveCheckpoint(EMAIL, 2n ** 62n + 5n);
      t.equal(await store.checkpoints.checkpoint(EMAIL), 2n ** 62n + 5n);
      await store.checkpoints.saveCheckpoint(EMAIL, 7n);
      t.equal(await store.checkpoints.checkpoint(EMAIL), 2n ** 62n + 5n, 'a lower position is ignored');
      t.equal(await store.checkpoints.checkpoint(WEBHOOKS), undefined, 'consumers are independent');
      t.equal(await store.restore.isEmpty(), false, 'a store with a checkpoint is not empty');
    });

    test('enqueued deliveries are due now, once per envelope and url; the checkpoint moves with them', async (t, { store }) => {
      await store.webhooks.enqueue([delivery(1), delivery(1, 'http://127.0.0.1:2/other'), delivery(2)], 20n, 1000);
      await store.webhooks.enqueue([delivery(1), delivery(3)], 30n, 2000);
      const rows = await store.webhookReport.deliveries();
      t.strictSame(
        rows.map((row) => [row.envelopeId, row.url, row.state, row.attempts, row.nextAttemptAt]),
        [
          ['evt_1', 'http://127.0.0.1:1/hook', 'pending', 0, 1000],
          ['evt_1', 'http://127.0.0.1:2/other', 'pending', 0, 1000],
          ['evt_2', 'http://127.0.0.1:1/hook', 'pending', 0, 1000],
          ['evt_3', 'http://127.0.0.1:1/hook', 'pending', 0, 2000],
        ],
        'the repeated one is left as it was',
      );
      t.ok(rows[0]!.id < rows[1]!.id && rows[1]!.id < rows[2]!.id && rows[2]!.id < rows[3]!.id, 'ids in insertion order');
      t.equal(rows[0]!.eventPosition, 10n);
      t.equal(rows[0]!.body, '{"n":1}');
      t.equal(await store.checkpoints.checkpoint(WEBHOOKS), 30n);
      t.equal(await store.webhooks.nextDueAfter(999), 1000);
      t.equal(await store.webhooks.nextDueAfter(1000), 2000, 'the first one not yet due');
      t.equal(await store.webhooks.nextDueAfter(2000), undefined);
      t.strictSame(await store.webhookReport.counts(), { pending: 4, delivered: 0, failed: 0 });
    });

    test('a claimed delivery is held until its lease runs out, by every connection', async (t, { store, second }) => {
      const other = await second();
      t.teardown(() => other.close());
      const [a, b] = [replica(store, 'replica-a'), replica(other, 'replica-b')];
      await store.webhooks.enqueue([delivery(1), delivery(2)], 20n, 1000);
      await store.webhooks.enqueue([delivery(3)], 30n, 5000);
      t.equal(await a.acquireNextDue(999, 10_000, passNone), undefined, 'nothing is due before its time');
      const first = await a.acquireNextDue(1000, 10_000, passNone);
      t.equal(first?.envelopeId, 'evt_1', 'the one due longest first');
      t.equal(first?.nextAttemptAt, 1000, 'its record keeps when it fell due; the hold is its lease');
      t.equal(await store.webhookLeases.holderOf(String(first?.id), 9999), 'replica-a', 'leased by its id');
      // As the delivery loop does, b passes over what it is sending: taking it again would only renew its lease.
      const next = await b.acquireNextDue(1000, 10_000, passNone);
      t.equal(next?.envelopeId, 'evt_2', 'another replica takes the next one, not the held one');
      const sendingByB = (id: number) => id === next?.id;
      t.equal(await b.acquireNextDue(4999, 10_000, sendingByB), undefined, 'nothing else due');
      t.equal((await b.acquireNextDue(5000, 10_000, sendingByB))?.envelopeId, 'evt_3');
      t.equal(
        (await b.acquireNextDue(5000, 10_000, passNone))?.envelopeId,
        'evt_2',
        'what a holder does not pass over, it takes again: a renewal',
      );
      t.equal((await b.acquireNextDue(10_000, 20_000, passNone))?.envelopeId, 'evt_1', 'a lease that ran out (its holder died): due again');
    });

    test('two replicas racing for one due delivery: one takes it; when it dies, one takes it once its lease ran out', async (t, {
      store,
      second,
    }) => {
      const other = await second();
      t.teardown(() => other.close());
      await store.webhooks.enqueue([delivery(1)], 10n, 1000);
      const racers = [replica(store, 'a'), replica(other, 'b'), replica(store, 'c'), replica(other, 'd')];
      const race = async (replicas: WebhookLeases[], now: number, leaseUntil: number) =>
        (await Promise.all(replicas.map((r) => r.acquireNextDue(now, leaseUntil, passNone)))).flatMap((taken, i) =>
          taken ? [{ by: replicas[i]!, taken }] : [],
        );
      const won = await race(racers, 1000, 11_000);
      t.equal(won.length, 1, 'four replicas at once: one takes it');
      t.equal(won[0]?.taken.attempts, 0);
      // Its holder dies: it neither records an attempt nor lets go, and races no more.
      const alive = racers.filter((r) => r !== won[0]?.by);
      t.strictSame(await race(alive, 10_999, 20_999), [], 'held until the lease runs out');
      const again = await race(alive, 11_000, 21_000);
      t.equal(again.length, 1, 'the lease ran out: one of the three left takes it over');
      const { by, taken } = again[0]!;
      await store.webhooks.recordAttempt({
        deliveryId: taken.id,
        attempt: 1,
        at: 11_000,
        durationMs: 5,
        outcome: { result: 'retry', status: 503, error: 'HTTP 503', nextAttemptAt: 30_000 },
      });
      await by.release(taken.id);
      t.strictSame(await race(alive, 29_999, 39_999), [], 'recorded and let go: not due before its retry');
      const retried = await race(alive, 30_000, 40_000);
      t.strictSame(
        retried.map(({ taken }) => taken.attempts),
        [1],
        'due again at the retry time, not at the end of a lease: one takes it, with the attempt counted',
      );
      await store.webhooks.recordAttempt({
        deliveryId: taken.id,
        attempt: 2,
        at: 30_000,
        durationMs: 5,
        outcome: { result: 'delivered', status: 200 },
      });
      await retried[0]!.by.release(taken.id);
      t.strictSame(await race(racers, 10 ** 12, 10 ** 12 + 1), [], 'delivered: never taken again');
    });

    test('a delivery sent and let go by one replica after another listed it as due is not sent again', async (t, { store, second }) => {
      const other = await second();
      t.teardown(() => other.close());
      await store.webhooks.enqueue([delivery(1), delivery(2)], 20n, 1000);
      const fast = replica(other, 'fast');
      // The slow replica lists what is due, then the fast one sends both and lets go before it tries a lease.
      let overtaken = false;
      const slow = leasedQueue<DueDelivery, StoredWebhookDelivery>(
        {
          async due(...args) {
            const listed = await store.webhooks.due(...args);
            if (overtaken) return listed;
            overtaken = true;
            for (let n = 0; n < 2; n++) {
              const taken = await fast.acquireNextDue(1000, 11_000, passNone);
              const outcome =
                n === 0
                  ? { result: 'delivered' as const, status: 200 }
                  : ({ result: 'retry', status: 503, error: 'HTTP 503', nextAttemptAt: 5000 } as const);
              await other.webhooks.recordAttempt({ deliveryId: taken!.id, attempt: 1, at: 1000, durationMs: 1, outcome });
              await fast.release(taken!.id);
            }
            return listed;
          },
          dueNow: store.webhooks.dueNow,
        },
        store.webhookLeases,
        'slow',
      );
      t.equal(await slow.acquireNextDue(1000, 11_000, passNone), undefined, 'one delivered, one due later: neither is taken');
      t.equal(
        await store.webhookLeases.holderOf(String((await store.webhookReport.deliveries())[0]!.id), 1000),
        undefined,
        'nor left held',
      );
      t.equal((await slow.acquireNextDue(5000, 15_000, passNone))?.envelopeId, 'evt_2', 'the retry, when due');
    });

    test('five claims at once on two connections: four deliveries, each once', async (t, { store, second }) => {
      const other = await second();
      t.teardown(() => other.close());
      await store.webhooks.enqueue([delivery(1), delivery(2), delivery(3)], 30n, 1000);
      await store.webhooks.enqueue([delivery(4)], 40n, 30_000);
      const replicas = [0, 1, 2, 3, 4].map((i) => replica(i % 2 ? other : store, `replica-${i}`));
      const claims = await Promise.all(replicas.map((r) => r.acquireNextDue(30_000, 40_000, passNone)));
      t.strictSame(
        claims
          .map((c) => c?.envelopeId)
          .filter(Boolean)
          .sort(),
        ['evt_1', 'evt_2', 'evt_3', 'evt_4'],
        'five claims at once: four deliveries, each once',
      );
      // The same deliveries due again (their leases ran out), claimed by five at once, several times over.
      for (const at of [40_000, 50_000, 60_000]) {
        const again = await Promise.all(replicas.map((r) => r.acquireNextDue(at, at + 10_000, passNone)));
        t.equal(again.filter(Boolean).length, 4, `due again at ${at}: each of the four once`);
      }
    });

    test('two replicas enqueueing at once, as both follow the log: every delivery recorded once, under an id of its own', async (t, {
      store,
      second,
    }) => {
      const other = await second();
      t.teardown(() => other.close());
      // Batches of different sizes that overlap, as two followers of one log cut it: the same envelope
      // comes from both, and new ones from either.
      let n = 0;
      for (let round = 0; round < 12; round++) {
        const mine = Array.from({ length: 1 + (round % 4) }, () => delivery(++n));
        const theirs = [...mine.slice(-1), ...Array.from({ length: 1 + ((round + 2) % 3) }, () => delivery(++n))];
        await Promise.all([
          store.webhooks.enqueue(mine, BigInt(n * 10), 1000),
          other.webhooks.enqueue(theirs, BigInt(n * 10), 1000),
          other.webhooks.enqueue(mine.slice(0, 1), BigInt(n * 10), 1000),
        ]);
      }
      const rows = await store.webhookReport.deliveries();
      t.strictSame(
        rows.map((row) => row.envelopeId).sort(),
        Array.from({ length: n }, (_, i) => `evt_${i + 1}`).sort(),
        `each of the ${n} deliveries is there, once`,
      );
      t.equal(new Set(rows.map((row) => row.id)).size, rows.length, 'no two share an id');
    });

    test('an e-mail or Kafka claim whose lease ran out, taken over by five at once: one holder', async (t, { store, second }) => {
      const other = await second();
      t.teardown(() => other.close());
      for (const [kind, leases] of [
        ['e-mail', 'emailLeases'],
        ['Kafka', 'kafkaLeases'],
      ] as const) {
        t.equal(await store[leases].acquire('evt-9', 'first', 1000, 2000), true);
        for (const at of [2000, 3000, 4000, 5000]) {
          const takers = await Promise.all(
            ['a', 'b', 'c', 'd', 'e'].map((holder, i) => (i % 2 ? other : store)[leases].acquire('evt-9', `${holder}${at}`, at, at + 1000)),
          );
          t.equal(takers.filter(Boolean).length, 1, `${kind}: the lease ran out at ${at}; one of five takes it over`);
        }
      }
    });

    test('attempts: delivered and failed are final, a retry is due again; each attempt kept; outcomes journaled', async (t, { store }) => {
      await store.webhooks.enqueue([delivery(1), delivery(2), delivery(3)], 30n, 1000);
      const [a, b, c] = await store.webhookReport.deliveries();
      await store.webhooks.recordAttempt({
        deliveryId: a!.id,
        attempt: 1,
        at: 1000,
        durationMs: 12.4,
        outcome: { result: 'retry', status: 503, error: 'HTTP 503', nextAttemptAt: 31_000 },
      });
      await store.webhooks.recordAttempt(
        { deliveryId: a!.id, attempt: 2, at: 31_000, durationMs: 8, outcome: { result: 'delivered', status: 200 } },
        [journalEvent('Delivered', 1)],
      );
      await store.webhooks.recordAttempt(
        { deliveryId: b!.id, attempt: 1, at: 1000, durationMs: 3, outcome: { result: 'failed', status: 410, error: 'HTTP 410' } },
        [journalEvent('Failed', 2)],
      );
      await store.webhooks.recordAttempt({
        deliveryId: c!.id,
        attempt: 1,
        at: 1000,
        durationMs: 3,
        outcome: { result: 'retry', status: null, error: 'ECONNREFUSED', nextAttemptAt: 50_000 },
      });
      // Recorded after the delivery was settled (a replica whose lease ran out): ignored.
      await store.webhooks.recordAttempt({
        deliveryId: a!.id,
        attempt: 3,
        at: 40_000,
        durationMs: 3,
        outcome: { result: 'failed', status: 500, error: 'late' },
      });
      const rows = await store.webhookReport.deliveries();
      t.strictSame(
        rows.map((row) => [row.state, row.attempts, row.lastStatus, row.lastError]),
        [
          ['delivered', 2, 200, null],
          ['failed', 1, 410, 'HTTP 410'],
          ['pending', 1, null, 'ECONNREFUSED'],
        ],
      );
      t.equal(rows[2]!.nextAttemptAt, 50_000, 'a retry is due when its outcome says');
      t.strictSame(await store.webhookReport.attempts(a!.id), [
        {
          deliveryId: a!.id,
          attempt: 1,
          at: 1000,
          durationMs: 12,
          outcome: { result: 'retry', status: 503, error: 'HTTP 503', nextAttemptAt: 31_000 },
        },
        { deliveryId: a!.id, attempt: 2, at: 31_000, durationMs: 8, outcome: { result: 'delivered', status: 200 } },
      ]);
      t.strictSame(
        await store.webhooks.due(10 ** 12, 10),
        [{ id: c!.id, nextAttemptAt: 50_000 }],
        'only the pending one is ever due again',
      );
      t.equal(await store.webhooks.dueNow(a!.id, 10 ** 12), undefined, 'a delivered one is not due');
      t.strictSame(await store.webhookReport.counts(), { pending: 1, delivered: 1, failed: 1 });
      const journal = await store.journal.oldest(100);
      t.strictSame(
        journal.map((entry) => entry.type),
        ['Delivered', 'Failed'],
        'the journal events of the recorded outcomes, in order',
      );
    });

    test('the e-mail claim: one holder at a time across two connections, taken over when its lease runs out', async (t, {
      store: first,
      second,
    }) => {
      const other = await second();
      t.teardown(() => other.close());
      t.equal(await first.emailLeases.acquire('evt-1', 'replica-a', 1000, 5000), true, 'a free e-mail is claimed');
      t.equal(await other.emailLeases.acquire('evt-1', 'replica-b', 2000, 6000), false, 'another replica waits while the lease runs');
      t.equal(
        await first.emailLeases.acquire('evt-1', 'replica-a', 2000, 7000),
        true,
        'the holder may claim again (a retry after a transient failure)',
      );
      t.equal(await other.emailLeases.acquire('evt-1', 'replica-b', 6999, 9000), false, 'still held: the renewed lease runs to 7000');
      t.equal(
        await other.emailLeases.acquire('evt-1', 'replica-b', 7000, 9000),
        true,
        'a lease that ran out (its holder died) is taken over',
      );
      t.equal(await first.emailLeases.acquire('evt-1', 'replica-a', 7001, 9000), false, 'and the old holder no longer has it');
      t.equal(await first.emailLeases.acquire('evt-2', 'replica-a', 7001, 9000), true, 'claims are per event');
      const racers = await Promise.all([
        first.emailLeases.acquire('evt-3', 'x', 1, 100),
        other.emailLeases.acquire('evt-3', 'y', 1, 100),
        first.emailLeases.acquire('evt-3', 'z', 1, 100),
      ]);
      t.equal(racers.filter(Boolean).length, 1, 'three claims of a free e-mail at once: one wins');
    });

    test('a holder that stops cleanly lets go of its claims: the others take them at once', async (t, { store: first, second }) => {
      const other = await second();
      t.teardown(() => other.close());
      await first.emails.record({ eventId: 'evt-0', serviceRef: 'SO-1', result: 'sent', detail: '250', messageId: null }, 1n, [
        journalEvent('EmailSent', 1),
        journalEvent('EmailSent', 2),
      ]);
      t.equal(await first.emailLeases.acquire('evt-1', 'replica-a', 1000, 120_000), true);
      t.equal(await first.kafkaLeases.acquire('evt-1', 'replica-a', 1000, 120_000), true);
      t.equal(await first.emailLeases.acquire('evt-2', 'replica-c', 1000, 120_000), true, "another holder's claim");
      t.equal(await first.journalLeases.acquire('journal', 'replica-a', 1000, 30_000), true, 'the journal');
      await first.webhooks.enqueue([delivery(1)], 10n, 1000);
      const webhooksOfA = replica(first, 'replica-a');
      t.equal((await webhooksOfA.acquireNextDue(1000, 120_000, passNone))?.envelopeId, 'evt_1');
      t.equal(await other.emailLeases.acquire('evt-1', 'replica-b', 2000, 9000), false, 'held while replica-a runs');
      t.equal(await replica(other, 'replica-b').acquireNextDue(2000, 9000, passNone), undefined, 'the webhook too');
      await Promise.all([
        first.emailLeases.releaseAll('replica-a'),
        first.kafkaLeases.releaseAll('replica-a'),
        webhooksOfA.releaseAll(),
        first.journalLeases.releaseAll('replica-a'),
      ]);
      t.equal(
        (await replica(other, 'replica-b').acquireNextDue(2000, 9000, passNone))?.envelopeId,
        'evt_1',
        'the webhook is free once replica-a let go',
      );
      t.equal(await other.emailLeases.acquire('evt-1', 'replica-b', 2000, 9000), true, 'the e-mail is free once replica-a let go');
      t.equal(await other.kafkaLeases.acquire('evt-1', 'replica-b', 2000, 9000), true, 'and the Kafka message');
      t.equal(await other.journalLeases.acquire('journal', 'replica-b', 2000, 30_000), true, 'and the journal');
      t.equal(await other.emailLeases.acquire('evt-2', 'replica-b', 2000, 9000), false, "another holder's claims stand");
    });

    test('e-mail records: kept with the checkpoint and journal events; the first record stands', async (t, { store, second }) => {
      const record = {
        eventId: 'evt-1',
        serviceRef: 'SO-000001',
        result: 'sent' as const,
        detail: '250 OK',
        messageId: '<evt_1@localhost>',
      };
      t.equal(await store.emails.find('evt-1'), undefined);
      await store.emails.record(record, 10n, [journalEvent('EmailSent', 1)]);
      await store.emails.record({ ...record, result: 'failed', detail: 'again' }, 11n);
      t.strictSame(await store.emails.find('evt-1'), record);
      t.equal(await store.checkpoints.checkpoint(EMAIL), 11n);
      const other = await second();
      t.teardown(() => other.close());
      t.strictSame(await other.emails.find('evt-1'), record, 'seen by another connection');
      t.strictSame(
        (await other.journal.oldest(100)).map((entry) => entry.type),
        ['EmailSent'],
      );
    });

    test('e-mail records of several events in one call: each kept with its journal events, the checkpoint moved once', async (t, {
      store,
      second,
    }) => {
      const unsent = (n: number) => ({
        eventId: `evt-${n}`,
        serviceRef: `SO-${n}`,
        result: 'skipped' as const,
        detail: 'send_email false',
        messageId: null,
      });
      await store.emails.recordAll(
        [
          { record: unsent(1), journal: [journalEvent('NotSent', 1)] },
          { record: unsent(2), journal: [journalEvent('NotSent', 2)] },
          { record: unsent(3), journal: [journalEvent('NotSent', 3)] },
        ],
        12n,
      );
      const other = await second();
      t.teardown(() => other.close());
      for (const n of [1, 2, 3]) t.strictSame(await other.emails.find(`evt-${n}`), unsent(n), `event ${n} recorded`);
      t.equal(await other.checkpoints.checkpoint(EMAIL), 12n);
      t.strictSame(
        (await other.journal.oldest(100)).map((entry) => (entry.data as { n: number }).n),
        [1, 2, 3],
        'their journal events, in order',
      );
      await store.emails.recordAll([], 14n);
      t.equal(await other.checkpoints.checkpoint(EMAIL), 14n, 'a run whose outcomes were all recorded before moves the checkpoint alone');
    });

    test('kafka: claims like e-mail; published events recorded with the checkpoint', async (t, { store, second }) => {
      const other = await second();
      t.teardown(() => other.close());
      t.equal(await store.kafkaLeases.acquire('evt-1', 'a', 1000, 5000), true);
      t.equal(await other.kafkaLeases.acquire('evt-1', 'b', 1000, 5000), false, 'held by a');
      t.equal(await other.kafkaLeases.acquire('evt-2', 'b', 1000, 5000), true, 'another event is free');
      t.equal(await store.emailLeases.acquire('evt-1', 'b', 1000, 5000), true, 'e-mail and Kafka claims are apart');
      t.equal(await store.kafka.published('evt-1'), false);
      await store.kafka.recordPublished(['evt-1', 'evt-2'], 20n, [journalEvent('KafkaPublished', 20)]);
      await other.kafka.recordPublished(['evt-2'], 15n);
      t.equal(await other.kafka.published('evt-1'), true);
      t.equal(await other.kafka.published('evt-2'), true);
      t.equal(await other.kafka.published('evt-3'), false);
      t.equal(await store.checkpoints.checkpoint(KAFKA), 20n, 'the checkpoint does not go back');
      t.equal(await store.kafkaLeases.acquire('evt-1', 'b', 5000, 9000), true, 'a lease that ran out is taken over');
    });

    test('the journal: oldest first, at most the limit, seen by every connection, gone once appended', async (t, { store, second }) => {
      const other = await second();
      t.teardown(() => other.close());
      await store.webhooks.enqueue([delivery(1)], 10n, 1000, [journalEvent('Queued', 1), journalEvent('Queued', 2)]);
      await store.emails.record({ eventId: 'e', serviceRef: 'SO-1', result: 'skipped', detail: 'no recipients', messageId: null }, 11n, [
        journalEvent('NotSent', 3),
      ]);
      const first = await store.journal.oldest(2);
      t.strictSame(
        first.map((entry) => [entry.stream, entry.type, entry.data]),
        [
          ['notifications-test', 'Queued', { n: 1, position: String(2n ** 60n + 1n) }],
          ['notifications-test', 'Queued', { n: 2, position: String(2n ** 60n + 2n) }],
        ],
        'at most the limit, data as written',
      );
      const all = await other.journal.oldest(10);
      t.strictSame(
        all.map((entry) => entry.type),
        ['Queued', 'Queued', 'NotSent'],
        'another connection sees every entry, oldest first',
      );
      await store.journal.appended(first.map((entry) => entry.id));
      t.strictSame(
        (await other.journal.oldest(10)).map((entry) => entry.type),
        ['NotSent'],
        'appended ones are gone',
      );
      await other.journal.appended(all.map((entry) => entry.id));
      t.strictSame(await store.journal.oldest(10), [], 'empty; removing an entry twice changes nothing');
    });

    test('restore: pending, delivered and failed deliveries, e-mail records, checkpoints; idempotent; never backwards', async (t, {
      store,
      second,
    }) => {
      const state = {
        checkpoints: { webhooks: 30n, email: 2n ** 61n, kafka: 25n },
        webhooks: [
          {
            envelopeId: 'evt_1',
            eventPosition: 10n,
            url: 'http://127.0.0.1:1/hook',
            state: 'delivered' as const,
            attempts: 2,
            lastStatus: 200,
            lastError: null,
            companyGroup: '',
            body: '',
          },
          {
            envelopeId: 'evt_2',
            eventPosition: 20n,
            url: 'http://127.0.0.1:1/hook',
            state: 'failed' as const,
            attempts: 1,
            lastStatus: 410,
            lastError: 'HTTP 410',
            companyGroup: '',
            body: '',
          },
          {
            envelopeId: 'evt_3',
            eventPosition: 30n,
            url: 'http://127.0.0.1:1/hook',
            state: 'pending' as const,
            attempts: 0,
            lastStatus: null,
            lastError: null,
            companyGroup: 'Acme Group',
            body: '{"n":3}',
          },
        ],
        emails: [
          {
            eventId: 'evt-9',
            serviceRef: 'SO-000009',
            result: 'written' as const,
            detail: '/tmp/x.eml',
            messageId: '<m@x>',
            position: 90n,
          },
        ],
      };
      await store.restore.restore(state);
      const other = await second();
      t.teardown(() => other.close());
      await other.restore.restore(state); // a second replica restoring at the same start
      const rows = await other.webhookReport.deliveries();
      t.strictSame(
        rows.map((row) => [row.envelopeId, row.state, row.attempts, row.lastStatus, row.body]),
        [
          ['evt_1', 'delivered', 2, 200, ''],
          ['evt_2', 'failed', 1, 410, ''],
          ['evt_3', 'pending', 0, null, '{"n":3}'],
        ],
        'once each',
      );
      const due = await replica(other, 'a').acquireNextDue(Date.now() + 1000, Date.now() + 60_000, passNone);
      t.equal(due?.envelopeId, 'evt_3', 'the pending one is due');
      t.equal(due?.companyGroup, 'Acme Group');
      t.strictSame(await store.emails.find('evt-9'), {
        eventId: 'evt-9',
        serviceRef: 'SO-000009',
        result: 'written',
        detail: '/tmp/x.eml',
        messageId: '<m@x>',
      });
      t.equal(await store.checkpoints.checkpoint(WEBHOOKS), 30n);
      t.equal(await store.checkpoints.checkpoint(EMAIL), 2n ** 61n);
      t.equal(await store.checkpoints.checkpoint(KAFKA), 25n);
      t.equal(await store.restore.isEmpty(), false);
      await store.restore.restore({
        ...state,
        checkpoints: { webhooks: 5n },
        webhooks: [{ ...state.webhooks[0]!, state: 'pending' as const }],
      });
      t.equal(await store.checkpoints.checkpoint(WEBHOOKS), 30n, 'a checkpoint never goes back');
      t.equal((await store.webhookReport.deliveries())[0]!.state, 'delivered', 'what is there is left alone');
    });

    test('everything survives closing and reopening', async (t, { store, second }) => {
      await store.webhooks.enqueue([delivery(1)], 10n, 1000, [journalEvent('Queued', 1)]);
      await store.emails.record({ eventId: 'evt-1', serviceRef: 'SO-1', result: 'sent', detail: '250', messageId: null }, 12n);
      await store.kafka.recordPublished(['evt-1'], 13n);
      await store.close();
      const again = await second();
      try {
        t.equal((await again.webhookReport.deliveries()).length, 1);
        t.equal(await again.checkpoints.checkpoint(WEBHOOKS), 10n);
        t.equal(await again.checkpoints.checkpoint(EMAIL), 12n);
        t.equal(await again.checkpoints.checkpoint(KAFKA), 13n);
        t.equal(await again.kafka.published('evt-1'), true);
        t.equal((await again.emails.find('evt-1'))?.result, 'sent');
        t.equal((await again.journal.oldest(10)).length, 1);
      } finally {
        await again.close();
      }
    });
  });
}
