// The id allocator on a real log: its first id reads only the last event of `order-ids`, never the
// whole stream (whose length is the number of orders ever taken), and ids go on without a repeat.
import t from 'tap';
import { exactly, NO_STREAM, type EventStore } from '../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { ORDER_IDS_STREAM, serviceRefFor } from '../../src/orders/order-events.js';
import { orderIdAllocator } from '../../src/orders/order-id-allocator.js';
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
    const events = Array.from({ length: 1000 }, (_, i) => ({ type: 'OrderIdAllocated', data: { order_id: start + i, service_ref: serviceRefFor(start + i) } }));
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
  await store.append(ORDER_IDS_STREAM, [{ type: 'OrderIdAllocated', data: { order_id: taken + 2, service_ref: serviceRefFor(taken + 2) } }], exactly(BigInt(taken)));
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
  await Promise.all(Array.from({ length: 16 }, async () => {
    for (let i = 0; i < 25; i++) ids.push((await allocate()).order_id);
  }));
  t.strictSame([...ids].sort((a, b) => a - b), Array.from({ length: 400 }, (_, i) => i + 1), 'ids 1 to 400, each once');
  t.equal(counts.conflicts, 0, 'no conflict');
  t.ok(counts.appends < 400 / 4, `ids asked for together go in one append (${counts.appends} appends for 400 ids)`);
  t.equal((await store.readStream(ORDER_IDS_STREAM)).length, 400, 'the stream holds one event per id');
});

t.test('two processes racing on one log: no id twice, none skipped', async (t) => {
  const dir = tempDataDir();
  const stores = [openSqliteEventStore(dir), openSqliteEventStore(dir)];
  t.teardown(async () => {
    for (const store of stores) await store.close();
    removeDataDir(dir);
  });
  const racers = stores.map((store) => counted(store));
  const allocators = racers.map(({ store }) => orderIdAllocator(store));
  const ids: number[] = [];
  await Promise.all(Array.from({ length: 16 }, async (_, writer) => {
    for (let i = 0; i < 20; i++) ids.push((await allocators[writer % 2]!()).order_id);
  }));
  t.strictSame([...ids].sort((a, b) => a - b), Array.from({ length: 320 }, (_, i) => i + 1), 'ids 1 to 320, each once');
  const conflicts = racers.reduce((sum, { counts }) => sum + counts.conflicts, 0);
  const appends = racers.reduce((sum, { counts }) => sum + counts.appends, 0);
  t.ok(conflicts < appends, `a lost race costs one append, not a storm (${conflicts} conflicts in ${appends} appends)`);
});
