// An order id brought in for one use case, and given back on every way out on which no order was
// stored under it: a refusal, a retry, a conflict, an append refused as too large. The allocator hands
// an id given back out first, so refusals leave no gaps. The one way out that keeps the id is an append
// that failed without saying whether it was stored (a lost connection): an order may hold the id, so it
// stays unused (docs/decisions.md: ids can have gaps, never repeats).
import { AppendTooLarge, WrongExpectedRevision } from '../eventstore/event-store.js';
import type { AllocatedOrderId, OrderIdAllocator } from './order-id-allocator.js';

export interface OrderIdHold {
  /** The id held, else one kept ahead, handed out now (no wait); undefined when none is at hand. */
  atHand(): AllocatedOrderId | undefined;
  /**
   * Runs `append` under the id held, asking the allocator for one first when none is (an append to order-ids). Once
   * `append` resolves the id is the order's; a conflict or an append too large leaves it to be given back.
   */
  appendUnder<T>(append: (id: AllocatedOrderId) => Promise<T>): Promise<T>;
}

export async function withOrderId<T>(allocator: OrderIdAllocator, use: (orderId: OrderIdHold) => Promise<T>): Promise<T> {
  let held: AllocatedOrderId | undefined;
  let outcome: 'unused' | 'stored' | 'unknown' = 'unused';
  try {
    return await use({
      atHand: () => (held ??= allocator.kept()),
      async appendUnder(append) {
        held ??= await allocator();
        try {
          const appended = await append(held);
          outcome = 'stored';
          return appended;
        } catch (error) {
          if (!(error instanceof WrongExpectedRevision || error instanceof AppendTooLarge)) outcome = 'unknown';
          throw error;
        }
      },
    });
  } finally {
    if (held && outcome === 'unused') allocator.giveBack(held);
  }
}
