// The story of a submit: decide against master data and the order's stream, take an id, append
// the order expecting no stream (which reserves the reference), then answer once the order can be
// read back. A retry of an order already stored (the decider's call) records nothing and answers
// with the stored order's ids. Under load, with an id kept ahead at hand, the stream is not read
// first (below).
import { AppendTooLarge, type EventStore } from '../eventstore/event-store.js';
import type { FieldErrors } from '../validation/field-errors.js';
import type { MasterData } from '../master-data/master-data.js';
import { utcTimestamp } from './clock.js';
import { handleOrderCommand, orderStateOf } from './handle-order-command.js';
import { decideSubmitOrder, type SubmitOrder } from './order-decider.js';
import { orderStream } from './order-events.js';
import type { AllocatedOrderId, OrderIdAllocator } from './order-id-allocator.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';
import { NotVisibleInTime } from '../eventstore/visibility-deadline.js';
import { BodyRejected } from '../validation/json-body.js';

export type SubmitOrderResult =
  | { ok: true; order_id: number; service_ref: string /** True when the order was already stored: nothing was recorded. */; retry: boolean }
  | { ok: false; errors: FieldErrors };

export interface SubmitOrderDependencies {
  store: EventStore;
  masterData: () => MasterData;
  allocateOrderId: OrderIdAllocator;
  /** Resolves once the read models have applied the log up to this position. */
  visible: (position: bigint) => Promise<void>;
  /** Told each new order's id before its append: this process's planning reactor plans it first. */
  submittedHere?: (orderId: number) => void;
}

export async function submitOrder(
  deps: SubmitOrderDependencies,
  companyGroup: string,
  order: SubmitOrderPayload,
): Promise<SubmitOrderResult> {
  const stream = orderStream(companyGroup, order.reference);
  const noId = { order_id: 0, service_ref: '' };
  const command = (id: AllocatedOrderId, submitted_at: string): SubmitOrder => ({
    type: 'SubmitOrder',
    data: { order, company_group: companyGroup, ...id, submitted_at, masterData: deps.masterData() },
  });
  // Decide once before taking an id, so that a rejected order records nothing at all, not even an id.
  // Under load the allocator keeps ids ahead (already in the log) and a new reference is the rule: with
  // one at hand the stream is assumed new instead of read (reading it cost every submit a share of its
  // main-thread time, to learn what the append's expectation checks anyway). A stream that is not new makes the append conflict, and the order is
  // decided again on what it holds; an order refused on a new stream is decided again on the stream as
  // it is, so that a retry is answered whatever master data says now and a taken reference is named
  // beside the other errors. An id no order got is given back.
  let id = deps.allocateOrderId.kept();
  let history = id ? [] : await deps.store.readStream(stream);
  let state = orderStateOf(history);
  let precheck = decideSubmitOrder(command(noId, ''), state);
  if (id && !precheck.ok) {
    deps.allocateOrderId.giveBack(id);
    id = undefined;
    history = await deps.store.readStream(stream);
    state = orderStateOf(history);
    precheck = decideSubmitOrder(command(noId, ''), state);
  }
  if (!precheck.ok) return precheck;
  // A retry answers only once the stored order can be read, as the first submit would have: its first
  // answer may have been lost (a 503, a timeout) before the read models showed it.
  const retried = async (stored: { order_id: number; service_ref: string }, through: bigint | undefined): Promise<SubmitOrderResult> => {
    if (through !== undefined) await visibleOrder(deps, stored, through);
    return { ok: true, order_id: stored.order_id, service_ref: stored.service_ref, retry: true };
  };
  if (precheck.events.length === 0) return retried(state, history.at(-1)?.position);

  id ??= await deps.allocateOrderId();
  deps.submittedHere?.(id.order_id);
  let result: Awaited<ReturnType<typeof handleOrderCommand>>;
  try {
    // Decided on the stream as read (or assumed new) above, not read again: a writer that came in
    // between makes the append conflict, and then it is read anew.
    result = await handleOrderCommand(deps.store, stream, command(id, utcTimestamp()), history);
  } catch (error) {
    // The order with its lane is over the event store's limit: nothing was stored. (After any other
    // error whether it was stored is unknown, so its id stays unused.)
    if (error instanceof AppendTooLarge) {
      deps.allocateOrderId.giveBack(id);
      throw new BodyRejected(413, { detail: `The order is too large to store: ${error.message}.` });
    }
    throw error;
  }
  if (!result.ok) {
    // The reference is taken (by an order stored before, or by a submit that won the race).
    deps.allocateOrderId.giveBack(id);
    return result;
  }
  if (result.position === undefined) {
    // A retry of this order: stored before (the stream assumed new), or won the race since the check (sent twice at once).
    deps.allocateOrderId.giveBack(id);
    return retried(result.state, (await deps.store.readLastEvent(stream))?.position);
  }
  await visibleOrder(deps, id, result.position);
  return { ok: true, ...id, retry: false };
}

/** Read-your-writes: resolves once the read models show the log up to `position`. */
async function visibleOrder(
  deps: SubmitOrderDependencies,
  stored: { order_id: number; service_ref: string },
  position: bigint,
): Promise<void> {
  try {
    await deps.visible(position);
  } catch (error) {
    // The order is stored: the 503 tells the client its id, so that it need not submit again.
    if (error instanceof NotVisibleInTime)
      throw new NotVisibleInTime(`order ${stored.service_ref}`, error.ms, { order_id: stored.order_id, service_ref: stored.service_ref });
    throw error;
  }
}
