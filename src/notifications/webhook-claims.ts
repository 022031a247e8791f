// Which due webhook delivery a replica sends next, and its hold on it while it does. The queue says what
// is due (WebhookQueue); who sends it is a lease (LeaseStore), as for every other claim, one key per
// delivery: replicas send different deliveries at the same moment, a holder that dies holds up only the
// deliveries it held until their leases run out, and a delivery's id names it for its whole life in the
// store (deliveries are never deleted, so a key never comes back for another one).
// The delivery's record keeps only when it is due. A due one still listed may be held by another
// replica (it is tried and passed over) or may just have been sent and let go by one: so it is read
// again once its lease is held, and sent only if still pending and due.
import type { LeaseStore } from '../leases/lease-store.js';
import type { DueDelivery, StoredWebhookDelivery, WebhookQueue } from './delivery-store.js';

/** Due deliveries read at a time: more than the ones held by the replicas' attempts in flight, as a rule. */
const PAGE = 16;

export interface WebhookClaims {
  /**
   * Takes the pending delivery due longest that no one holds (nor `passOver` names), and holds it until
   * `leaseUntil`: no replica sends it again before then, and if this one dies mid-attempt its lease runs
   * out and another sends it. Undefined when none can be taken now.
   */
  takeDue(now: number, leaseUntil: number, passOver: (id: number) => boolean): Promise<StoredWebhookDelivery | undefined>;
  /** Lets go of a delivery whose attempt is recorded: a retry is due when the record says, not when the lease runs out. */
  release(id: number): Promise<void>;
  /** Lets go of every delivery this holder holds: a replica that stops leaves them to the others at once. */
  releaseAll(): Promise<void>;
}

export function webhookClaims(queue: Pick<WebhookQueue, 'due' | 'dueNow'>, leases: LeaseStore, holder: string): WebhookClaims {
  return {
    async takeDue(now, leaseUntil, passOver) {
      let after: DueDelivery | undefined;
      for (;;) {
        const page = await queue.due(now, PAGE, after);
        for (const candidate of page) {
          if (passOver(candidate.id)) continue;
          const key = String(candidate.id);
          if (!(await leases.acquire(key, holder, now, leaseUntil))) continue;
          const delivery = await queue.dueNow(candidate.id, now);
          if (delivery) return delivery;
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
