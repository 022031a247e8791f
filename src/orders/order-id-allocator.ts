// Order ids come from the `order-ids` stream: each id is an event appended at exactly the next
// revision, so two processes on one log can never hand out the same id. The revision is cached;
// a conflict means another process moved on, and the append says where to. The first id of a
// process reads only the stream's last event, so start-up costs the same with 10 or 10 million orders.
//
// Within a process, the ids asked for while an append is in flight are taken together by the next
// append, one event each: one append in flight at a time. Two appends in flight at once would race
// each other for the stream's next revision, and a conflict's "actual" revision would move the cache
// back under the other's feet: with 16 concurrent submits that cost 15 conflicts per id.
import { exactly, NO_STREAM, WrongExpectedRevision, type EventStore } from '../eventstore/event-store.js';
import { ORDER_IDS_STREAM, serviceRefFor, type OrderIdAllocated } from './order-events.js';

export interface AllocatedOrderId {
  order_id: number;
  service_ref: string;
}

interface Waiting {
  resolve(id: AllocatedOrderId): void;
  reject(error: unknown): void;
}

export function orderIdAllocator(store: EventStore): () => Promise<AllocatedOrderId> {
  let lastRevision: bigint | 'unknown' | 'no_stream' = 'unknown';
  let waiting: Waiting[] = [];
  let appending = false;

  /** Appends one id per waiting caller, at the stream's next revision, until none is waiting. */
  async function drain(): Promise<void> {
    appending = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        const ids = await appendIds(batch.length);
        batch.forEach((caller, i) => caller.resolve(ids[i]!));
      } catch (error) {
        for (const caller of batch) caller.reject(error);
      }
    }
    appending = false;
  }

  async function appendIds(count: number): Promise<AllocatedOrderId[]> {
    for (;;) {
      if (lastRevision === 'unknown') {
        lastRevision = (await store.readLastEvent(ORDER_IDS_STREAM))?.revision ?? 'no_stream';
      }
      const expected = lastRevision;
      // Revision r holds id r + 1: ids start at 1 and have no gaps in the stream.
      const first = expected === 'no_stream' ? 1 : Number(expected) + 2;
      const events: OrderIdAllocated[] = Array.from({ length: count }, (_, i) => ({
        type: 'OrderIdAllocated',
        data: { order_id: first + i, service_ref: serviceRefFor(first + i) },
      }));
      try {
        // Settled at commit, not on disk: an id matters only through the order appended after it, whose
        // durable acknowledgement carries it (the log is made durable in order). One fsync wait per submit, not two.
        await store.append(ORDER_IDS_STREAM, events, expected === 'no_stream' ? NO_STREAM : exactly(expected), { settle: 'committed' });
        lastRevision = BigInt(first + count - 2);
        return events.map((event) => event.data);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) {
          lastRevision = 'unknown'; // whether it was written is unknown: read the stream's end again
          throw error;
        }
        lastRevision = error.actual;
      }
    }
  }

  return function allocate() {
    return new Promise<AllocatedOrderId>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (!appending) void drain();
    });
  };
}

/** The last id handed out, 0 when none: what the start-up check holds derived data against. */
export async function lastAllocatedOrderId(store: EventStore): Promise<number> {
  const last = await store.readLastEvent(ORDER_IDS_STREAM);
  return last ? (last.data as OrderIdAllocated['data']).order_id : 0;
}
