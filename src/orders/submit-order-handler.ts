// The story of a submit: decide against master data and the order's stream, take an id, append
// the order expecting no stream (which reserves the reference), then answer once the order can be
// read back. A retry of an order already stored (the decider's call) records nothing and answers
// with the stored order's ids.
import { AppendTooLarge, type EventStore } from '../eventstore/event-store.js';
import type { FieldErrors } from '../validation/field-errors.js';
import type { MasterData } from '../master-data/master-data.js';
import { utcTimestamp } from './clock.js';
import { handleOrderCommand, orderStateOf } from './handle-order-command.js';
import { decideSubmitOrder, type SubmitOrder } from './order-decider.js';
import { orderStream } from './order-events.js';
import type { AllocatedOrderId } from './order-id-allocator.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';
import { NotVisibleInTime } from '../eventstore/visibility-deadline.js';
import { BodyRejected } from '../validation/json-body.js';

export type SubmitOrderResult =
  | { ok: true; order_id: number; service_ref: string; /** True when the order was already stored: nothing was recorded. */ retry: boolean }
  | { ok: false; errors: FieldErrors };

export interface SubmitOrderDependencies {
  store: EventStore;
  masterData: () => MasterData;
  allocateOrderId: () => Promise<AllocatedOrderId>;
  /** Resolves once the read models have applied the log up to this position. */
  visible: (position: bigint) => Promise<void>;
}

export async function submitOrder(deps: SubmitOrderDependencies, companyGroup: string, order: SubmitOrderPayload): Promise<SubmitOrderResult> {
  const stream = orderStream(companyGroup, order.reference);
  const command = (id: AllocatedOrderId, submitted_at: string): SubmitOrder => (
    { type: 'SubmitOrder', data: { order, company_group: companyGroup, ...id, submitted_at, masterData: deps.masterData() } });
  // Decide once before taking an id, so that a rejected order records nothing at all.
  const history = await deps.store.readStream(stream);
  const state = orderStateOf(history);
  const precheck = decideSubmitOrder(command({ order_id: 0, service_ref: '' }, ''), state);
  if (!precheck.ok) return precheck;
  if (precheck.events.length === 0) return { ok: true, order_id: state.order_id, service_ref: state.service_ref, retry: true };

  const id = await deps.allocateOrderId();
  // When another submit with this reference wins the race since the check above, this one is
  // decided again on the stream it wrote and refused; its id stays unused.
  let result;
  try {
    // Decided on the stream as read above, not read again: a writer that came in between makes the
    // append conflict, and then it is read anew.
    result = await handleOrderCommand(deps.store, stream, command(id, utcTimestamp()), history);
  } catch (error) {
    // The order with its lane is over the event store's limit: nothing was stored; its id stays unused.
    if (error instanceof AppendTooLarge) throw new BodyRejected(413, { detail: `The order is too large to store: ${error.message}.` });
    throw error;
  }
  if (!result.ok) return result;
  if (result.position === undefined) {
    // A retry of this order won the race since the check above (sent twice at once): its id stands.
    return { ok: true, order_id: result.state.order_id, service_ref: result.state.service_ref, retry: true };
  }
  try {
    await deps.visible(result.position);
  } catch (error) {
    // The order is stored: the 503 tells the client its id, so that it need not submit again.
    if (error instanceof NotVisibleInTime) throw new NotVisibleInTime(`order ${id.service_ref}`, error.ms, { ...id });
    throw error;
  }
  return { ok: true, ...id, retry: false };
}
