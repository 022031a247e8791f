// The one reader of an order's stream: what the store holds comes back as order events, narrowed by
// type; a stored event of a type this version does not know (or no order event at all) is left out.
import t from 'tap';
import type { EventStore, RecordedEvent } from '../../src/eventstore/event-store.js';
import { isOrderEvent, orderEventsIn, readOrderStream, submittedIn } from '../../src/orders/read-order-stream.js';

function recorded(revision: number, type: string, data: unknown): RecordedEvent {
  return {
    id: `e${revision}`,
    stream: 'order:Acme:PO-1',
    type,
    data,
    revision: BigInt(revision),
    position: BigInt(100 + revision),
    recordedAt: new Date(0),
  };
}

const submittedData = { order_id: 1, service_ref: 'SO-000001', company_group: 'Acme', submitted_at: '2026-11-20T09:15:02.000001' };
const stream = [
  recorded(0, 'OrderSubmitted', submittedData),
  recorded(1, 'OrderJoinedConsolidation', {
    order_id: 1,
    service_ref: 'SO-000001',
    consolidation: 'consolidation:SO-000001',
    joined_at: 'x',
  }),
  recorded(2, 'SomethingFromANewerVersion', { order_id: 1 }),
  recorded(3, 'OrderPlanned', { order_id: 1, service_ref: 'SO-000001', plan: {}, planned_at: 'y' }),
  recorded(4, 'OrderIdAllocated', { order_id: 1, service_ref: 'SO-000001' }),
  recorded(5, 'PackingInstructionsDownloaded', { order_id: 1, downloaded_at: 'z' }),
  recorded(6, 'OrderPlanningFailed', { order_id: 1, service_ref: 'SO-000001', reason: 'r', failed_at: 'w' }),
];

t.test('every order event type is one, other types are not', async (t) => {
  t.strictSame(
    stream.map((event) => isOrderEvent(event)),
    [true, true, false, true, false, true, true],
  );
  t.ok(isOrderEvent(stream[0]!, 'OrderSubmitted'));
  t.notOk(isOrderEvent(stream[3]!, 'OrderSubmitted'), 'asked for one type: another order event is not it');
  t.notOk(isOrderEvent(recorded(7, 'toString', {})), 'not fooled by names every object has');
});

t.test('the order events of a stream, in order, the rest left out', async (t) => {
  t.strictSame(
    orderEventsIn(stream).map((event) => event.revision),
    [0n, 1n, 3n, 5n, 6n],
  );
});

t.test('read from the store: the same narrowing, and an empty stream reads as none', async (t) => {
  const store = { readStream: async (name: string) => (name === 'order:Acme:PO-1' ? stream : []) } as unknown as EventStore;
  t.strictSame(
    (await readOrderStream(store, 'order:Acme:PO-1')).map((event) => event.type),
    ['OrderSubmitted', 'OrderJoinedConsolidation', 'OrderPlanned', 'PackingInstructionsDownloaded', 'OrderPlanningFailed'],
  );
  t.strictSame(await readOrderStream(store, 'order:Acme:PO-2'), []);
});

t.test('the order as submitted, wherever it stands, or none', async (t) => {
  t.equal(submittedIn(orderEventsIn(stream)), submittedData);
  t.equal(submittedIn(orderEventsIn([...stream].reverse())), submittedData);
  t.equal(submittedIn(orderEventsIn(stream.slice(1))), undefined);
});
