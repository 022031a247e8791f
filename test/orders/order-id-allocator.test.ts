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

t.test('ids asked for together are taken in one append; one at a time, one each; left-overs are dropped after a while', async (t) => {
  const dir = tempDataDir();
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    removeDataDir(dir);
  });
  const appends: number[] = [];
  const counting: EventStore = Object.assign(Object.create(store) as EventStore, {
    append: (stream: string, events: Parameters<EventStore['append']>[1], expected: Parameters<EventStore['append']>[2]) => {
      appends.push(events.length);
      return store.append(stream, events, expected);
    },
    readLastEvent: store.readLastEvent.bind(store),
  });
  let clock = 0;
  const allocate = orderIdAllocator(counting, () => clock);

  t.equal((await allocate()).order_id, 1);
  t.equal((await allocate()).order_id, 2);
  t.strictSame(appends, [1, 1], 'one submit at a time takes one id a time: no gaps');

  // Eight submits at once, then eight more: a block for those behind the first, and the next block as large.
  const eight = await Promise.all(Array.from({ length: 8 }, () => allocate()));
  t.strictSame(eight.map((id) => id.order_id), [3, 4, 5, 6, 7, 8, 9, 10]);
  t.strictSame(appends, [1, 1, 1, 7], 'eight ids in two appends');
  const more = await Promise.all(Array.from({ length: 8 }, () => allocate()));
  t.strictSame(more.map((id) => id.order_id), [11, 12, 13, 14, 15, 16, 17, 18]);
  t.strictSame(appends, [1, 1, 1, 7, 7, 7], 'the next eight in two appends of the size used up before');
  const events = await store.readStream(ORDER_IDS_STREAM);
  t.strictSame(events.map((event) => (event.data as { order_id: number }).order_id), Array.from({ length: 24 }, (_, i) => i + 1), 'every id in the stream, once, in order (six of them not handed out yet)');

  // The six left over are dropped once they are a second old, so an id is never far older than its order.
  t.equal((await allocate()).order_id, 19, 'a young left-over is handed out');
  clock += 1001;
  t.equal((await allocate()).order_id, 25, 'an old one is not: the next id comes after them');
  t.strictSame(appends, [1, 1, 1, 7, 7, 7, 2], 'and the block after unused left-overs is as large as what was asked since the last append, not the last block');
});
