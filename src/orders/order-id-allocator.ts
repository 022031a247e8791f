// Order ids come from the `order-ids` stream: each id is an event appended at exactly the next
// revision, so two processes on one log can never hand out the same id. The revision is cached;
// a conflict means another process moved on, and the append says where to. The first id of a
// process reads only the stream's last event, so start-up costs the same with 10 or 10 million orders.
//
// Under load the ids are taken a few at a time: a submit that had to wait for its own id append
// (a commit of its own, before the order's) cost a whole group-commit round. The allocator takes as
// many ids in one append as were asked for since its last append began, and at least as many as its
// last block when that one was used up (at most MAX_BLOCK): one submit at a time takes one id as
// before, and a stream of submits takes them in blocks and most submits find an id waiting. Ids left over are dropped after KEEP_MS: an id is then never far
// older than its order, so ids across replicas stay close to submit order (the list is newest id
// first); a dropped id is a gap, as an id taken by a refused submit always was.
import { exactly, NO_STREAM, WrongExpectedRevision, type EventStore } from '../eventstore/event-store.js';
import { ORDER_IDS_STREAM, serviceRefFor, type OrderIdAllocated } from './order-events.js';

export interface AllocatedOrderId {
  order_id: number;
  service_ref: string;
}

export const MAX_BLOCK = 64;
export const KEEP_MS = 1000;

export function orderIdAllocator(store: EventStore, now: () => number = Date.now): () => Promise<AllocatedOrderId> {
  let lastRevision: bigint | 'unknown' | 'no_stream' = 'unknown';
  let spare: AllocatedOrderId[] = [];
  let spareUntil = 0;
  // Calls since the last append began: how many ids the next one takes.
  let asked = 0;
  // The last block's size, while its ids were all used before they grew old; else 1.
  let usedUp = 1;
  let taking: Promise<void> | undefined;

  async function take(): Promise<void> {
    const count = Math.min(MAX_BLOCK, Math.max(usedUp, asked));
    asked = 0;
    for (;;) {
      if (lastRevision === 'unknown') {
        lastRevision = (await store.readLastEvent(ORDER_IDS_STREAM))?.revision ?? 'no_stream';
      }
      const expectedRevision: bigint | 'no_stream' = lastRevision;
      // Revision r holds id r + 1: ids start at 1 and have no gaps in the stream.
      const first = expectedRevision === 'no_stream' ? 1 : Number(expectedRevision) + 2;
      const events: OrderIdAllocated[] = Array.from({ length: count }, (_, i) => ({
        type: 'OrderIdAllocated', data: { order_id: first + i, service_ref: serviceRefFor(first + i) },
      }));
      lastRevision = BigInt(first + count - 2);
      try {
        await store.append(ORDER_IDS_STREAM, events, expectedRevision === 'no_stream' ? NO_STREAM : exactly(expectedRevision));
        spare = events.map((event) => event.data);
        spareUntil = now() + KEEP_MS;
        usedUp = count;
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        lastRevision = error.actual;
      }
    }
  }

  return async function allocate() {
    asked += 1;
    for (;;) {
      if (spare.length > 0 && now() <= spareUntil) return spare.shift()!;
      if (spare.length > 0) usedUp = 1; // ids left over: demand was less than the block
      spare = [];
      taking ??= take().finally(() => (taking = undefined));
      await taking;
    }
  };
}

/** The last id handed out, 0 when none: what the start-up check holds derived data against. */
export async function lastAllocatedOrderId(store: EventStore): Promise<number> {
  const last = await store.readLastEvent(ORDER_IDS_STREAM);
  return last ? (last.data as OrderIdAllocated['data']).order_id : 0;
}
