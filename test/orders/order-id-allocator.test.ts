// The id allocator on a real log: its first id reads only the last event of `order-ids`, never the
// whole stream (whose length is the number of orders ever taken), ids go on without a repeat, and
// under load ids are kept ahead (at most MAX_AHEAD) so that a caller need not wait for an append.
import t from 'tap';
import { exactly, NO_STREAM, type EventStore } from '../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { ORDER_IDS_STREAM, serviceRefFor } from '../../src/orders/order-events.js';
import { MAX_AHEAD, orderIdAllocator } from '../../src/orders/order-id-allocator.js';
import { removeDataDir, tempDataDir } from '../support/service.js';

t.test('the first id after a start reads the last id only, however many were taken', async (t) => {
  const dir = tempDataDir();
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    removeDataDir(dir);
  });
  const taken = 5000;
  for (let start = 1; start <= taken; start += 1000) {
    const events = Array.from({ length: 1000 }, (_, i) => ({
      type: 'OrderIdAllocated',
      data: { order_id: start + i, service_ref: serviceRefFor(start + i) },
    }));
    await store.append(ORDER_IDS_STREAM, events, start === 1 ? NO_STREAM : exactly(BigInt(start - 2)));
  }

  const streamsRead: string[] = [];
  const counting: EventStore = Object.assign(Object.create(store) as EventStore, {
    readStream: (stream: string) => {
      streamsRead.push(stream);
      return store.readStream(stream);
    },
    append: store.append.bind(store),
    readLastEvent: store.readLastEvent.bind(store),
  });
  const allocate = orderIdAllocator(counting);
  t.strictSame(await allocate(), { order_id: taken + 1, service_ref: serviceRefFor(taken + 1) });
  t.strictSame(streamsRead, [], 'the order-ids stream is never read whole');

  // Another process took the next id meanwhile: the conflict says where to go on from.
  await store.append(
    ORDER_IDS_STREAM,
    [{ type: 'OrderIdAllocated', data: { order_id: taken + 2, service_ref: serviceRefFor(taken + 2) } }],
    exactly(BigInt(taken)),
  );
  t.equal((await allocate()).order_id, taken + 3, 'no id twice');
  t.strictSame(streamsRead, []);
});

/** The store with its appends to `order-ids` counted, and those rejected by a conflict. */
function counted(store: EventStore) {
  const counts = { appends: 0, conflicts: 0 };
  const wrapped = {
    readLastEvent: (stream: string) => store.readLastEvent(stream),
    append: async (...args: Parameters<EventStore['append']>) => {
      counts.appends++;
      try {
        return await store.append(...args);
      } catch (error) {
        counts.conflicts++;
        throw error;
      }
    },
  } as Pick<EventStore, 'append' | 'readLastEvent'> as EventStore; // the allocator uses these two only
  return { store: wrapped, counts };
}

t.test('concurrent ids in one process: each once, taken together, with no conflict among themselves', async (t) => {
  const dir = tempDataDir();
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    removeDataDir(dir);
  });
  const { store: counting, counts } = counted(store);
  const allocate = orderIdAllocator(counting);
  const ids: number[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = 0; i < 25; i++) ids.push((await allocate()).order_id);
    }),
  );
  t.equal(new Set(ids).size, 400, '400 ids, each once');
  t.equal(counts.conflicts, 0, 'no conflict');
  t.ok(counts.appends < 400 / 4, `ids asked for together go in one append (${counts.appends} appends for 400 ids)`);
  const stored = (await store.readStream(ORDER_IDS_STREAM)).map((event) => (event.data as { order_id: number }).order_id);
  t.strictSame(
    stored,
    Array.from({ length: stored.length }, (_, i) => i + 1),
    'the stream holds ids 1, 2, 3, ...',
  );
  t.ok(
    ids.every((id) => id <= stored.length),
    'every id handed out is in the stream',
  );
  t.ok(stored.length - ids.length <= MAX_AHEAD, `at most ${MAX_AHEAD} ids kept ahead (${stored.length - ids.length})`);
});

t.test('one caller at a time keeps nothing ahead: consecutive ids, one append each', async (t) => {
  const dir = tempDataDir();
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    removeDataDir(dir);
  });
  let clock = 0;
  const { store: counting, counts } = counted(store);
  const allocate = orderIdAllocator(counting, { now: () => clock });
  const ids: number[] = [];
  for (let i = 0; i < 20; i++) {
    clock += 2.5; // 400 a second: more than one client waiting for each answer can send (each waits for an fsync)
    ids.push((await allocate()).order_id);
  }
  t.strictSame(
    ids,
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  t.equal(counts.appends, 20);
  t.equal((await store.readStream(ORDER_IDS_STREAM)).length, 20, 'no id taken that was not handed out');
});

t.test('a burst is served from ids kept ahead, in the order asked; once it ends, no more are kept', async (t) => {
  const dir = tempDataDir();
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    removeDataDir(dir);
  });
  let clock = 0; // the burst comes all within one millisecond
  const { store: counting, counts } = counted(store);
  const allocate = orderIdAllocator(counting, { now: () => clock });
  const burst = await Promise.all(Array.from({ length: 300 }, () => allocate()));
  t.strictSame(
    burst.map((id) => id.order_id),
    Array.from({ length: 300 }, (_, i) => i + 1),
    'ids 1 to 300 in the order asked',
  );
  t.ok(counts.appends <= 300 / 10, `most callers served without an append of their own (${counts.appends} appends)`);
  const afterBurst = (await store.readStream(ORDER_IDS_STREAM)).length;
  t.ok(afterBurst > 300 && afterBurst - 300 <= MAX_AHEAD, `ids kept ahead, at most ${MAX_AHEAD} (${afterBurst - 300})`);

  // Then one a second: the ids kept go out first, and none are taken ahead any more.
  const trickle: number[] = [];
  for (let i = 0; i < MAX_AHEAD + 10; i++) {
    clock += 1000;
    trickle.push((await allocate()).order_id);
  }
  t.strictSame(
    trickle,
    Array.from({ length: MAX_AHEAD + 10 }, (_, i) => 301 + i),
    'the trickle goes on from 301',
  );
  const stored = (await store.readStream(ORDER_IDS_STREAM)).length;
  t.equal(stored, trickle.at(-1), 'the stream ends at the last id handed out: nothing kept ahead');
});

t.test('two processes racing on one log: no id twice, gaps only where ids were kept ahead', async (t) => {
  const dir = tempDataDir();
  const stores = [openSqliteEventStore(dir), openSqliteEventStore(dir)];
  t.teardown(async () => {
    for (const store of stores) await store.close();
    removeDataDir(dir);
  });
  const racers = stores.map((store) => counted(store));
  const allocators = racers.map(({ store }) => orderIdAllocator(store));
  const ids: number[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async (_, writer) => {
      for (let i = 0; i < 20; i++) ids.push((await allocators[writer % 2]!()).order_id);
    }),
  );
  t.equal(new Set(ids).size, 320, '320 ids, each once');
  const stored = (await stores[0]!.readStream(ORDER_IDS_STREAM)).length;
  t.ok(Math.max(...ids) <= stored && stored - 320 <= 2 * MAX_AHEAD, `at most ${MAX_AHEAD} kept ahead per process (${stored - 320} in all)`);
  const conflicts = racers.reduce((sum, { counts }) => sum + counts.conflicts, 0);
  const appends = racers.reduce((sum, { counts }) => sum + counts.appends, 0);
  t.ok(conflicts < appends, `a lost race costs one append, not a storm (${conflicts} conflicts in ${appends} appends)`);
});
