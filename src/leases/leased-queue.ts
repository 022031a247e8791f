// Which due item of a queue a replica handles next, and its lease on it while it does (the webhook
// deliveries: webhook-delivery.ts). The queue says what is due; who handles it is a lease, as for all
// other shared work, one key per item: replicas handle different items at the same moment, and a holder
// that dies holds up only the items it held until their leases run out. An item's id names it for its
// whole life in the queue, so that a key never comes back for another item.
// The queue keeps only when an item is due. A due one still listed may be held by another replica (it
// is tried and passed over) or may just have been handled and let go by one: so it is read again once
// its lease is held, and handed out only if still due.
import type { LeaseStore } from './lease-store.js';

/** Due items read at a time: more than the ones held by the replicas' attempts in flight, as a rule. */
const PAGE = 16;

/** What the queue says: the items due at `now`, in the order to try them, and one item as it stands. */
export interface DueQueue<Listed extends { id: number }, Item> {
  /** Up to `limit` items due at `now`, after `after` in the queue's order when given (held ones among them). */
  due(now: number, limit: number, after?: Listed): Promise<Listed[]>;
  /** The item as it stands, if it is still due at `now`. */
  dueNow(id: number, now: number): Promise<Item | undefined>;
}

export interface LeasedQueue<Item> {
  /**
   * Acquires the lease of the first due item that no one holds (nor `passOver` names), until `leaseUntil`:
   * no replica handles it again before then, and if this one dies mid-attempt its lease runs out and
   * another handles it. Undefined when none can be acquired now.
   */
  acquireNextDue(now: number, leaseUntil: number, passOver: (id: number) => boolean): Promise<Item | undefined>;
  /** Lets go of an item whose attempt is recorded: a retry is due when the queue says, not when the lease runs out. */
  release(id: number): Promise<void>;
  /** Lets go of every item this holder holds: a replica that stops leaves them to the others at once. */
  releaseAll(): Promise<void>;
}

export function leasedQueue<Listed extends { id: number }, Item>(
  queue: DueQueue<Listed, Item>,
  leases: LeaseStore,
  holder: string,
): LeasedQueue<Item> {
  return {
    async acquireNextDue(now, leaseUntil, passOver) {
      let after: Listed | undefined;
      for (;;) {
        const page = await queue.due(now, PAGE, after);
        for (const candidate of page) {
          if (passOver(candidate.id)) continue;
          const key = String(candidate.id);
          if (!(await leases.acquire(key, holder, now, leaseUntil))) continue;
          const item = await queue.dueNow(candidate.id, now);
          if (item) return item;
          await leases.release(key, holder);
        }
        if (page.length < PAGE) return undefined;
        after = page.at(-1);
      }
    },
    release: (id) => leases.release(String(id), holder),
    releaseAll: () => leases.releaseAll(holder),
  };
}
