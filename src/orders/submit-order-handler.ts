// The story of a submit: decide against master data and the order's stream, take an id, append
// the order expecting no stream (which reserves the reference), then answer once the order can be
// read back.
import { AppendTooLarge, NO_STREAM, WrongExpectedRevision, type EventStore } from '../eventstore/event-store.js';
import type { FieldErrors } from '../http/field-errors.js';
import type { MasterData } from '../master-data/master-data.js';
import { utcTimestamp } from '../clock.js';
import { NotVisibleInTime } from '../read-models/visibility-deadline.js';
import { BodyRejected } from '../http/json-body.js';
import { orderStream } from './order-events.js';
import type { AllocatedOrderId } from './order-id-allocator.js';
import { decideSubmitOrder, REFERENCE_TAKEN_MESSAGE } from './submit-order.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';

export type SubmitOrderResult = { ok: true; order_id: number; service_ref: string } | { ok: false; errors: FieldErrors };

export interface SubmitOrderDependencies {
  store: EventStore;
  masterData: () => MasterData;
  allocateOrderId: () => Promise<AllocatedOrderId>;
  /** Resolves once the read models have applied the log up to this position. */
  visible: (position: bigint) => Promise<void>;
}

export async function submitOrder(deps: SubmitOrderDependencies, companyGroup: string, order: SubmitOrderPayload): Promise<SubmitOrderResult> {
  const stream = orderStream(companyGroup, order.reference);
  const referenceTaken = (await deps.store.readStream(stream)).length > 0;
  const command = { order, company_group: companyGroup, order_id: 0, service_ref: '', submitted_at: '' };
  // Decide once before taking an id, so that a rejected order records nothing at all.
  const precheck = decideSubmitOrder(command, { masterData: deps.masterData(), referenceTaken });
  if (!precheck.ok) return precheck;

  const id = await deps.allocateOrderId();
  const decision = decideSubmitOrder({ ...command, ...id, submitted_at: utcTimestamp() }, { masterData: deps.masterData(), referenceTaken: false });
  if (!decision.ok) return decision;
  try {
    const appended = await deps.store.append(stream, decision.events, NO_STREAM);
    try {
      await deps.visible(appended.position);
    } catch (error) {
      // The order is stored: the 503 tells the client its id, so that it need not submit again.
      if (error instanceof NotVisibleInTime) throw new NotVisibleInTime(`order ${id.service_ref}`, error.ms, { ...id });
      throw error;
    }
    return { ok: true, ...id };
  } catch (error) {
    // Another submit with this reference won the race since the check above; its id stays unused.
    if (error instanceof WrongExpectedRevision) return { ok: false, errors: { reference: [REFERENCE_TAKEN_MESSAGE] } };
    // The order with its lane is over the event store's limit: nothing was stored; its id stays unused.
    if (error instanceof AppendTooLarge) throw new BodyRejected(413, { detail: `The order is too large to store: ${error.message}.` });
    throw error;
  }
}
