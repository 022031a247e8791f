// Order ids come from the `order-ids` stream: each id is an event appended at exactly the next
// revision, so two processes on one log can never hand out the same id. The revision is cached;
// a conflict means another process moved on, and the append says where to. The first id of a
// process reads only the stream's last event, so start-up costs the same with 10 or 10 million orders.
import { exactly, NO_STREAM, WrongExpectedRevision, type EventStore } from '../eventstore/event-store.js';
import { ORDER_IDS_STREAM, serviceRefFor, type OrderIdAllocated } from './order-events.js';

export interface AllocatedOrderId {
  order_id: number;
  service_ref: string;
}

export function orderIdAllocator(store: EventStore): () => Promise<AllocatedOrderId> {
  let lastRevision: bigint | 'unknown' | 'no_stream' = 'unknown';

  return async function allocate() {
    for (;;) {
      if (lastRevision === 'unknown') {
        lastRevision = (await store.readLastEvent(ORDER_IDS_STREAM))?.revision ?? 'no_stream';
      }
      const expectedRevision: bigint | 'no_stream' = lastRevision;
      // Revision r holds id r + 1: ids start at 1 and have no gaps in the stream.
      const order_id = expectedRevision === 'no_stream' ? 1 : Number(expectedRevision) + 2;
      lastRevision = expectedRevision === 'no_stream' ? 0n : expectedRevision + 1n;
      const event: OrderIdAllocated = { type: 'OrderIdAllocated', data: { order_id, service_ref: serviceRefFor(order_id) } };
      try {
        await store.append(ORDER_IDS_STREAM, [event], expectedRevision === 'no_stream' ? NO_STREAM : exactly(expectedRevision));
        return event.data;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        lastRevision = error.actual;
      }
    }
  };
}

/** The last id handed out, 0 when none: what the start-up check holds derived data against. */
export async function lastAllocatedOrderId(store: EventStore): Promise<number> {
  const last = await store.readLastEvent(ORDER_IDS_STREAM);
  return last ? (last.data as OrderIdAllocated['data']).order_id : 0;
}
