// The story of a cancel, as an amend's: decided on the order's stream (once: a second cancel records
// nothing, whatever its If-Match), appended, and answered once the read models show the order as
// cancelled.
import { utcTimestamp } from './clock.js';
import { handleOrderCommand } from './handle-order-command.js';
import type { OrderChangeResult } from './amend-order-handler.js';
import { visibleAfter, type ReadYourWrites } from './read-your-writes.js';

/** `expectedRevision`: only when the client sent If-Match with a revision. */
export async function cancelOrder(
  deps: ReadYourWrites,
  stream: string,
  reason: string | null,
  expectedRevision: number | undefined,
): Promise<OrderChangeResult> {
  const decided = await handleOrderCommand(deps.store, stream, {
    type: 'CancelOrder',
    data: { reason, cancelled_at: utcTimestamp(), ...(expectedRevision === undefined ? {} : { expected_revision: expectedRevision }) },
  });
  if (!decided.ok) return decided;
  await visibleAfter(deps, stream, decided.position);
  return { ok: true };
}
