// Order ids come from the `order-ids` stream: each id is an event appended at exactly the next
// revision, so two processes on one log can never hand out the same id. The revision is cached;
// a conflict means another process moved on, and the append says where to. The first id of a
// process reads only the stream's last event, so start-up costs the same with 10 or 10 million orders.
//
// Within a process, the ids asked for while an append is in flight are appended together by the next
// append, one event each: one append in flight at a time. Two appends in flight at once would race
// each other for the stream's next revision, and a conflict's "actual" revision would move the cache
// back under the other's feet: concurrent submits would conflict for nearly every id.
//
// Under load the allocator also keeps ids ahead: as many as the last stretch's demand would ask for
// in AHEAD_WINDOW_MS, at most MAX_AHEAD, in the same appends. A submit then gets its id at once
// instead of waiting for a commit of its own before the order's, a wait that was a large part of a
// submit under load (docs/benchmarks.md). Ids kept ahead and never handed out (the process stopped) are gaps,
// as docs/decisions.md allows. Below AHEAD_FROM_PER_MS nothing is kept ahead, so ids stay consecutive
// for a client sending one order at a time: each of its submits waits for an fsync, so it stays far below.
import { exactly, NO_STREAM, WrongExpectedRevision, type EventStore } from '../eventstore/event-store.js';
import { ORDER_IDS_STREAM, serviceRefFor, type OrderIdAllocated } from './order-events.js';

export interface AllocatedOrderId {
  order_id: number;
  service_ref: string;
}

/** Ids are kept ahead for the demand of this long (at the rate measured between appends). */
const AHEAD_WINDOW_MS = 20;
/** At most this many ids are kept ahead: the most a stopped process leaves unused. */
export const MAX_AHEAD = 64;
/** Ids are kept ahead only from this demand on (ids per millisecond): 500 submits a second. */
const AHEAD_FROM_PER_MS = 0.5;

export interface OrderIdAllocatorOptions {
  /** A monotonic clock in milliseconds (tests set it). */
  now?: () => number;
}

/** Hands out the next order id; `kept` hands out one kept ahead, if one is at hand; `giveBack` returns one that no order got. */
export interface OrderIdAllocator {
  (): Promise<AllocatedOrderId>;
  /** An id kept ahead, handed out at once; undefined when none is (below AHEAD_FROM_PER_MS, or all handed out). */
  kept(): AllocatedOrderId | undefined;
  /**
   * An id handed out for an order whose append was refused (its reference was taken, or it was a retry of
   * an order already stored): no order has it, so it is handed out again before the ids kept ahead.
   */
  giveBack(id: AllocatedOrderId): void;
}

interface Waiting {
  resolve(id: AllocatedOrderId): void;
  reject(error: unknown): void;
}

export function orderIdAllocator(store: EventStore, options: OrderIdAllocatorOptions = {}): OrderIdAllocator {
  const now = options.now ?? (() => performance.now());
  const ids = new OrderIdStream(store);
  const demand = new Demand(now);
  let waiting: Waiting[] = [];
  let appending = false;
  /** Ids appended and not yet handed out, lowest first. */
  const spare: AllocatedOrderId[] = [];
  /** How many ids to keep in `spare`, from the demand measured at the last append. */
  let ahead = 0;

  /**
   * Appends one id per waiting caller, plus what tops `spare` up to `ahead`, at the stream's next
   * revision, until none is waiting and `spare` holds more than half of `ahead`.
   */
  async function drain(): Promise<void> {
    appending = true;
    for (;;) {
      // Callers who came while the last append ran get its spare ids first: ids go out in the order asked.
      const served = Math.min(waiting.length, spare.length);
      waiting.slice(0, served).forEach((caller, i) => caller.resolve(spare[i]!));
      spare.splice(0, served);
      const batch = waiting.slice(served);
      waiting = [];
      ahead = demand.ahead();
      const count = batch.length + Math.max(0, ahead - spare.length);
      if (count === 0) break;
      try {
        const appended = await ids.append(count);
        batch.forEach((caller, i) => caller.resolve(appended[i]!));
        spare.push(...appended.slice(batch.length));
      } catch (error) {
        for (const caller of batch) caller.reject(error);
        // A top-up alone that failed is tried again by the next caller, not in a loop here.
        if (waiting.length === 0) break;
      }
      if (waiting.length === 0 && spare.length > ahead / 2) break;
    }
    appending = false;
  }

  function kept(): AllocatedOrderId | undefined {
    const id = spare.shift();
    if (id) {
      demand.asked();
      if (!appending && spare.length <= ahead / 2) void drain();
    }
    return id;
  }

  function allocate(): Promise<AllocatedOrderId> {
    const id = kept();
    if (id) return Promise.resolve(id);
    demand.asked();
    return new Promise<AllocatedOrderId>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (!appending) void drain();
    });
  }

  function giveBack(id: AllocatedOrderId): void {
    const waiter = waiting.shift();
    if (waiter) return waiter.resolve(id);
    // Lowest first, as the ids kept ahead are.
    const at = spare.findIndex((kept) => kept.order_id > id.order_id);
    spare.splice(at < 0 ? spare.length : at, 0, id);
  }

  return Object.assign(allocate, { kept, giveBack });
}

/** The demand for ids, measured between appends. */
class Demand {
  /** Ids asked for since `measuredAt`; the first measure finds no rate, so a first caller alone keeps nothing ahead. */
  #asked = 0;
  #measuredAt = -Infinity;

  constructor(private readonly now: () => number) {}

  asked(): void {
    this.#asked += 1;
  }

  /** The ids the demand since the last measure would ask for in AHEAD_WINDOW_MS; none below AHEAD_FROM_PER_MS. */
  ahead(): number {
    const at = this.now();
    const rate = this.#asked / Math.max(at - this.#measuredAt, 1);
    this.#asked = 0;
    this.#measuredAt = at;
    return rate < AHEAD_FROM_PER_MS ? 0 : Math.min(MAX_AHEAD, Math.floor(rate * AHEAD_WINDOW_MS));
  }
}

/** The `order-ids` stream, its last revision cached: ids appended at exactly the next revision. */
class OrderIdStream {
  #lastRevision: bigint | 'unknown' | 'no_stream' = 'unknown';

  constructor(private readonly store: EventStore) {}

  async append(count: number): Promise<AllocatedOrderId[]> {
    for (;;) {
      if (this.#lastRevision === 'unknown') {
        this.#lastRevision = (await this.store.readLastEvent(ORDER_IDS_STREAM))?.revision ?? 'no_stream';
      }
      const expected = this.#lastRevision;
      // Revision r holds id r + 1: ids start at 1 and have no gaps in the stream.
      const first = expected === 'no_stream' ? 1 : Number(expected) + 2;
      const events: OrderIdAllocated[] = Array.from({ length: count }, (_, i) => ({
        type: 'OrderIdAllocated',
        data: { order_id: first + i, service_ref: serviceRefFor(first + i) },
      }));
      try {
        // Settled at commit, not on disk: an id matters only through the order appended after it, whose
        // durable acknowledgement carries it (the log is made durable in order). One fsync wait per submit, not two.
        await this.store.append(ORDER_IDS_STREAM, events, expected === 'no_stream' ? NO_STREAM : exactly(expected), {
          settle: 'committed',
        });
        this.#lastRevision = BigInt(first + count - 2);
        return events.map((event) => event.data);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) {
          this.#lastRevision = 'unknown'; // whether it was written is unknown: read the stream's end again
          throw error;
        }
        this.#lastRevision = error.actual;
      }
    }
  }
}

/** The last id appended (handed out or kept ahead), 0 when none: what the start-up check holds derived data against. */
export async function lastAllocatedOrderId(store: EventStore): Promise<number> {
  const last = await store.readLastEvent(ORDER_IDS_STREAM);
  return last ? (last.data as OrderIdAllocated['data']).order_id : 0;
}
