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
