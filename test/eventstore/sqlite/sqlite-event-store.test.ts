import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import t from 'tap';
import { ANY, NO_STREAM, WrongExpectedRevision, exactly, type RecordedEvent } from '../../../src/eventstore/event-store.js';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { EVENTS_FILE, openEventsDatabase } from '../../../src/eventstore/sqlite/sqlite-schema.js';
import { eventStoreContract, type TapTest } from '../event-store-contract.js';
import { tempDir } from '../../support/eventstore-temp-dir.js';

eventStoreContract(t, 'sqlite', async () => {
  const { dir, remove } = await tempDir('contract');
  const store = openSqliteEventStore(dir);
  const others: SqliteEventStore[] = [];
  return {
    store,
    // Another connection to the same file, as another process would have.
    another: async () => {
      const other = openSqliteEventStore(dir);
      others.push(other);
      return other;
    },
    processEnv: { ORDERS_DATA_DIR: dir },
    cleanup: async () => {
      await Promise.all([store, ...others].map((s) => s.close()));
      await remove();
    },
  };
});

/** A temp dir removed when the test ends. */
async function dirFor(t: TapTest): Promise<string> {
  const { dir, remove } = await tempDir('sqlite');
  t.teardown(remove);
  return dir;
}

const ev = (type: string, data: unknown = {}) => ({ type, data });
const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
const snapshot = (e: RecordedEvent) => ({ ...e, recordedAt: e.recordedAt.getTime() });

t.test('the file is created in the directory, in WAL mode with synchronous=NORMAL (the store fsyncs the -wal file itself)', async (t) => {
  const dir = join(await dirFor(t), 'nested', 'data');
  const db = openEventsDatabase(dir);
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.pragma('synchronous', { simple: true }), 1n, 'synchronous = NORMAL (1)');
  db.close();
  const raw = new Database(join(dir, EVENTS_FILE), { readonly: true });
  t.equal(raw.pragma('journal_mode', { simple: true }), 'wal', 'WAL is recorded in the file');
  raw.close();
});

t.test('an append is acknowledged, and its events read or handed to a subscriber, only after the -wal file is fsynced', async (t) => {
  const dir = await dirFor(t);
  // Each fsync waits here until the test lets it return.
  const held: (() => void)[] = [];
  let holding = true;
  const fileSync = (_fd: number, done: (error: NodeJS.ErrnoException | null) => void) =>
    holding ? held.push(() => done(null)) : done(null);
  const store = openSqliteEventStore(dir, { fileSync, pollIntervalMs: 10 });
  const releaseAll = () => {
    holding = false;
    for (const release of held.splice(0)) release();
  };
  t.teardown(async () => {
    releaseAll();
    await store.close();
  });
  const seen: bigint[] = [];
  store.subscribe({ handle: async (events) => void seen.push(...events.map((e) => e.position)) });
  const waitFor = async (what: () => boolean) => {
    while (!what()) await sleep(5);
  };

  let acknowledged = false;
  const append = store.append('order-1', [ev('Submitted')], NO_STREAM).then((r) => {
    acknowledged = true;
    return r;
  });
  await waitFor(() => held.length === 1);
  // Committed (another connection sees it) but not yet on disk: nothing is acknowledged or handed out.
  const other = new Database(join(dir, EVENTS_FILE), { readonly: true });
  t.equal(other.prepare('SELECT count(*) FROM events').pluck().get(), 1, 'the commit is in the file');
  other.close();
  let read: RecordedEvent[] | undefined;
  void store.readStream('order-1').then((events) => (read = events));
  await sleep(50);
  t.equal(acknowledged, false, 'the append waits for the fsync');
  t.equal(read, undefined, 'a read of the fresh event waits too');
  t.same(seen, [], 'so does a subscriber');

  t.equal(held.length, 1, 'one fsync at a time: the read waits for the next one');
  held.shift()!();
  const { position } = await append;
  releaseAll();
  t.equal(position, 1n);
  await waitFor(() => read !== undefined && seen.length === 1);
  // The read was asked for while the first fsync ran: it waits for one that started after it.
  t.equal(read!.length, 1);
  t.same(seen, [1n], 'the subscriber gets the event once it is on disk');

  // settle: 'committed' resolves at COMMIT; readers still get the event only once it is on disk.
  holding = true;
  const early = await store.append('order-ids', [ev('Allocated')], NO_STREAM, { settle: 'committed' });
  t.equal(early.position, 2n, 'resolved while its fsync is held');
  await sleep(50);
  t.same(seen, [1n], 'not handed to the subscriber yet');
  const durable = store.append('order-2', [ev('Submitted')], NO_STREAM);
  releaseAll();
  t.equal((await durable).position, 3n);
  await waitFor(() => seen.length === 3);
  t.same(seen, [1n, 2n, 3n], 'both once on disk, in log order');
});

t.test('an fsync that fails rejects the appends it was to make durable; a later one that succeeds acknowledges again', async (t) => {
  const dir = await dirFor(t);
  let failing = true;
  const fileSync = (_fd: number, done: (error: NodeJS.ErrnoException | null) => void) =>
    setImmediate(() => done(failing ? Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }) : null));
  const store = openSqliteEventStore(dir, { fileSync });
  t.teardown(() => store.close());
  const results = await Promise.all([
    settle(store.append('order-1', [ev('Submitted')], NO_STREAM)),
    settle(store.append('order-2', [ev('Submitted')], NO_STREAM)),
  ]);
  for (const result of results) t.match((result as { error: Error }).error, { code: 'EIO' }, 'not acknowledged');
  failing = false;
  const read = await store.readAll();
  t.equal(read.length, 2, 'what was committed is read once an fsync has succeeded');
  t.equal((await store.append('order-3', [ev('Submitted')], NO_STREAM)).position, 3n);
});

t.test('reopening the directory shows everything, and appends continue from there', async (t) => {
  const dir = await dirFor(t);
  const first = openSqliteEventStore(dir);
  for (let i = 0; i < 30; i++) await first.append(`order-${i % 7}`, [ev('Step', { i }), ev('Note', { i, s: 'ü🚚' })], ANY);
  const before = await first.readAll();
  await first.close();

  const second = openSqliteEventStore(dir);
  t.teardown(() => second.close());
  const after = await second.readAll();
  t.equal(after.length, 60);
  t.strictSame(after.map(snapshot), before.map(snapshot), 'ids, positions, revisions, data and timestamps survive');
  const last = (await second.readStream('order-0')).at(-1)!;
  await t.rejects(second.append('order-0', [ev('Again')], NO_STREAM), WrongExpectedRevision);
  const next = await second.append('order-0', [ev('Next')], exactly(last.revision));
  t.equal(next.nextRevision, last.revision + 1n);
  t.ok(next.position > before.at(-1)!.position, 'positions continue after the old head');
});

t.test('appends issued in one tick are written in one transaction, in call order', async (t) => {
  const store = openSqliteEventStore(await dirFor(t));
  t.teardown(() => store.close());
  const commits = store.stats.commits;
  const appends = [
    ...Array.from({ length: 200 }, (_, i) => store.append(`s-${i}`, [ev('Created', { i })], NO_STREAM)),
    // Same stream three times in one batch: each sees the one before it.
    store.append('same', [ev('A')], NO_STREAM),
    store.append('same', [ev('B'), ev('C')], exactly(0n)),
    store.append('same', [ev('D')], exactly(2n)),
  ];
  const results = await Promise.all(appends);
  t.equal(store.stats.commits - commits, 1, 'one commit for 203 appends');
  const positions = results.map((r) => r.position);
  t.ok(
    positions.every((p, i) => i === 0 || p > positions[i - 1]!),
    'positions follow call order',
  );
  t.strictSame(
    results.slice(200).map((r) => r.nextRevision),
    [0n, 2n, 3n],
  );
  t.strictSame(
    (await store.readStream('same')).map((e) => e.type),
    ['A', 'B', 'C', 'D'],
  );
  t.equal((await store.readAll()).length, 204);
});

t.test('a failed expected-revision check in a batch fails alone', async (t) => {
  const store = openSqliteEventStore(await dirFor(t));
  t.teardown(() => store.close());
  await store.append('existing', [ev('Old')], NO_STREAM);
  const commits = store.stats.commits;
  const [a, b, c, d, e] = await Promise.all([
    settle(store.append('fresh', [ev('A')], NO_STREAM)),
    settle(store.append('existing', [ev('X1'), ev('X2')], NO_STREAM)),
    settle(store.append('missing', [ev('X3')], exactly(7n))),
    settle(store.append('fresh', [ev('X4')], NO_STREAM)), // `fresh` was created earlier in this batch
    settle(store.append('fresh', [ev('E')], exactly(0n))),
  ]);
  t.equal(store.stats.commits - commits, 1, 'all in one commit');
  t.ok(a && 'value' in a && e && 'value' in e, 'the good appends succeed');
  for (const [outcome, actual] of [
    [b, 0n],
    [c, 'no_stream'],
    [d, 0n],
  ] as const) {
    const error = outcome && 'error' in outcome ? outcome.error : undefined;
    t.ok(error instanceof WrongExpectedRevision && error.actual === actual, `fails with actual ${actual}`);
  }
  t.strictSame(
    (await store.readStream('fresh')).map((x) => x.type),
    ['A', 'E'],
  );
  t.strictSame(
    (await store.readStream('existing')).map((x) => x.type),
    ['Old'],
  );
  t.strictSame(await store.readStream('missing'), []);
});

t.test('invalid appends are rejected up front and do not disturb the batch', async (t) => {
  const store = openSqliteEventStore(await dirFor(t));
  t.teardown(() => store.close());
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const results = await Promise.all([
    settle(store.append('ok-1', [ev('A')], NO_STREAM)),
    settle(store.append('empty', [], NO_STREAM)),
    settle(store.append('bigint', [ev('A', { n: 1n })], NO_STREAM)),
    settle(store.append('undefined', [{ type: 'A', data: undefined }], NO_STREAM)),
    settle(store.append('cycle', [ev('A', cyclic)], NO_STREAM)),
    settle(store.append('no-type', [ev('')], NO_STREAM)),
    settle(store.append('', [ev('A')], NO_STREAM)),
    settle(store.append('ok-2', [ev('B')], NO_STREAM)),
  ]);
  t.ok('value' in results[0]! && 'value' in results[7]!, 'valid appends succeed');
  for (const [i, r] of results.slice(1, 7).entries()) {
    const error = 'error' in r ? r.error : undefined;
    t.ok(error instanceof TypeError || error instanceof RangeError, `invalid append ${i + 1} rejects with a TypeError/RangeError`);
  }
  t.equal((await store.readAll()).length, 2, 'nothing of the invalid appends is stored');
});

t.test('close() writes the queued appends, then refuses work', async (t) => {
  const dir = await dirFor(t);
  const store = openSqliteEventStore(dir);
  const pending = store.append('s', [ev('Queued')], NO_STREAM); // not yet flushed
  const closing = store.close();
  t.equal((await pending).nextRevision, 0n, 'the queued append resolves');
  await closing;
  await t.rejects(store.append('s', [ev('Late')], ANY), /closed/);
  await t.rejects(store.readAll(), /closed/);
  t.throws(() => store.subscribe({ handle: () => {} }), /closed/);
  await store.close(); // twice is fine
  const reopened = openSqliteEventStore(dir);
  t.teardown(() => reopened.close());
  t.strictSame(
    (await reopened.readStream('s')).map((e) => e.type),
    ['Queued'],
  );
});

t.test('close() stops subscriptions, waiting for a running handler', async (t) => {
  const store = openSqliteEventStore(await dirFor(t));
  let finished = false;
  let entered = false;
  store.subscribe({
    handle: async () => {
      entered = true;
      await sleep(50);
      finished = true;
    },
  });
  await store.append('s', [ev('A')], NO_STREAM);
  while (!entered) await sleep(1);
  await store.close();
  t.ok(finished, 'the handler finished before close() resolved');
});

t.test('subscriptions pick up appends made through another connection by polling', async (t) => {
  const dir = await dirFor(t);
  const reader = openSqliteEventStore(dir, { pollIntervalMs: 20, pageSize: 50 });
  const writerA = openSqliteEventStore(dir);
  const writerB = openSqliteEventStore(dir);
  t.teardown(async () => {
    await Promise.all([reader.close(), writerA.close(), writerB.close()]);
  });
  const delivered: RecordedEvent[] = [];
  const subscription = reader.subscribe({ handle: (batch) => void delivered.push(...batch) });
  // Two other connections write concurrently to the same file (they contend for the write lock).
  const write = (store: typeof writerA, name: string) =>
    Promise.all(
      Array.from({ length: 10 }, async (_, w) => {
        for (let i = 0; i < 20; i++) await store.append(`${name}-${w}`, [ev('Remote', { name, w, i })], ANY);
      }),
    );
  await Promise.all([write(writerA, 'a'), write(writerB, 'b')]);
  const deadline = Date.now() + 10_000;
  while (delivered.length < 400 && Date.now() < deadline) await sleep(10);
  await subscription.stop();
  t.equal(delivered.length, 400, 'every event once');
  t.equal(new Set(delivered.map((e) => e.id)).size, 400, 'no duplicates');
  t.ok(
    delivered.every((e, i) => i === 0 || e.position > delivered[i - 1]!.position),
    'in log order',
  );
  t.strictSame(
    delivered.map((e) => e.id),
    (await reader.readAll()).map((e) => e.id),
    'the whole log',
  );
});

t.test("a subscription woken by its own store's commits still gets another connection's, before and after them", async (t) => {
  const dir = await dirFor(t);
  const local = openSqliteEventStore(dir, { pollIntervalMs: 30, pageSize: 5 });
  const remote = openSqliteEventStore(dir);
  t.teardown(async () => {
    await Promise.all([local.close(), remote.close()]);
  });
  const delivered: RecordedEvent[] = [];
  const subscription = local.subscribe({ handle: (batch) => void delivered.push(...batch) });
  // The local commits wake the subscription all along; the remote ones come between them and, last, after them.
  for (let i = 0; i < 30; i++) {
    await (i % 4 === 1 ? remote : local).append(`s${i % 3}`, [ev(i % 4 === 1 ? 'Remote' : 'Local', { i })], ANY);
    await sleep(2);
  }
  await remote.append('last', [ev('Remote', { i: 30 })], NO_STREAM);
  const log = await local.readAll();
  const deadline = Date.now() + 5_000;
  while (delivered.length < log.length && Date.now() < deadline) await sleep(5);
  await subscription.stop();
  t.strictSame(delivered.map(snapshot), log.map(snapshot), 'every event once, in log order');
});

t.test('a type-filtered subscription moves past non-matching events', async (t) => {
  const store = openSqliteEventStore(await dirFor(t), { pageSize: 10 });
  t.teardown(() => store.close());
  for (let i = 0; i < 50; i++) await store.append(`s${i}`, [ev(i === 37 ? 'Rare' : 'Common', { i })], NO_STREAM);
  const delivered: RecordedEvent[] = [];
  const subscription = store.subscribe({ types: ['Rare'], handle: (batch) => void delivered.push(...batch) });
  await store.append('later', [ev('Common'), ev('Rare', { i: 99 })], NO_STREAM);
  const deadline = Date.now() + 5_000;
  while (delivered.length < 2 && Date.now() < deadline) await sleep(5);
  await subscription.stop();
  t.strictSame(
    delivered.map((e) => (e.data as { i: number }).i),
    [37, 99],
  );
});

t.test('recordedAt keeps the commit time; all appends of one commit share it', async (t) => {
  const store = openSqliteEventStore(await dirFor(t));
  t.teardown(() => store.close());
  const before = Date.now();
  await Promise.all([store.append('a', [ev('A')], NO_STREAM), store.append('b', [ev('B')], NO_STREAM)]);
  const after = Date.now();
  const [a, b] = await store.readAll();
  t.ok(a && b && a.recordedAt.getTime() === b.recordedAt.getTime(), 'same commit, same timestamp');
  t.ok(a!.recordedAt.getTime() >= before - 1 && a!.recordedAt.getTime() <= after, 'between the call and the resolution');
});
