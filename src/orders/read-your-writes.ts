// Read-your-writes, for every command a request makes: it answers once the read models show what it
// recorded, or, when it recorded nothing (a submit's retry, an amend to the content the order has, a
// second cancel), what the stream held when it was decided on: the first answer may have been lost (a
// 503, a timeout) before the read models showed it, or another replica recorded it.
import type { EventStore } from '../eventstore/event-store.js';
import { NotVisibleInTime } from '../eventstore/visibility-deadline.js';
import type { AllocatedOrderId } from './order-id-allocator.js';

export interface ReadYourWrites {
  store: EventStore;
  /** Resolves once the read models have applied the log up to this position. */
  visible: (position: bigint) => Promise<void>;
}

/**
 * Resolves once the read models show `stream` through `position` (the last event appended), or through
 * its last event when nothing was. `stored`: the order a 503 (not visible in time) names, so that its
 * client knows the ids and need not submit again.
 */
export async function visibleAfter(
  deps: ReadYourWrites,
  stream: string,
  position: bigint | undefined,
  stored?: AllocatedOrderId,
): Promise<void> {
  const through = position ?? (await deps.store.readLastEvent(stream))?.position;
  if (through === undefined) return;
  try {
    await deps.visible(through);
  } catch (error) {
    if (stored && error instanceof NotVisibleInTime)
      throw new NotVisibleInTime(`order ${stored.service_ref}`, error.ms, { order_id: stored.order_id, service_ref: stored.service_ref });
    throw error;
  }
}
