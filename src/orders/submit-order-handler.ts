// The story of a submit, one decision per attempt: the order is decided on its stream (its reference's),
// an id is brought in for an order the decision records, the order is appended expecting the stream as
// it was decided on, and the answer waits until the order can be read back. A refusal, or a retry of an
// order already stored (the decider's call), records nothing, not even an id: the id is asked for only
// once the decision records an order, and given back on every way out that did not store one
// (with-order-id.ts). When another writer got there first, the stream is read and decided on again.
import { AppendTooLarge, exactly, NO_STREAM, WrongExpectedRevision, type RecordedEvent } from '../eventstore/event-store.js';
import type { FieldErrors } from '../validation/field-errors.js';
import type { MasterData } from '../master-data/master-data.js';
import { BodyRejected } from '../validation/json-body.js';
import { utcTimestamp } from './clock.js';
import { orderStateOf } from './handle-order-command.js';
import { decideSubmitOrder, type SubmitOrder } from './order-decider.js';
import { orderStream, type OrderSubmitted } from './order-events.js';
import type { AllocatedOrderId, OrderIdAllocator } from './order-id-allocator.js';
import { visibleAfter, type ReadYourWrites } from './read-your-writes.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';
import { withOrderId, type OrderIdHold } from './with-order-id.js';

export type SubmitOrderResult =
  | { ok: true; order_id: number; service_ref: string /** True when the order was already stored: nothing was recorded. */; retry: boolean }
  | { ok: false; errors: FieldErrors };

export interface SubmitOrderDependencies extends ReadYourWrites {
  masterData: () => MasterData;
  allocateOrderId: OrderIdAllocator;
  /** Told each new order's id before its append: this process's planning reactor plans it first. */
  submittedHere?: (orderId: number) => void;
}

/**
 * Under load the allocator keeps ids ahead and a new reference is the rule: with an id at hand the
 * stream is assumed new instead of read (the read was a good share of a submit's main-thread time, to
 * learn what the append's expectation checks anyway). A stream that is not new makes the append
 * conflict; an order refused on the assumed stream is decided again on the stream as it is, so that a
 * retry is answered whatever master data says now, and a taken reference is named beside the other errors.
 */
const ASSUMED_NEW: readonly RecordedEvent[] = [];

// An attempt after a conflict reads a stream that holds an order, which a submit never appends to, so
// the second attempt ends the story (a third only when master data changed in between); past this many
// the store is not answering as a log does.
const MAX_ATTEMPTS = 4;

export async function submitOrder(
  deps: SubmitOrderDependencies,
  companyGroup: string,
  order: SubmitOrderPayload,
): Promise<SubmitOrderResult> {
  const stream = orderStream(companyGroup, order.reference);
  return withOrderId(deps.allocateOrderId, async (orderId) => {
    let history = orderId.atHand() ? ASSUMED_NEW : await deps.store.readStream(stream);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const state = orderStateOf(history);
      const decision = decideSubmitOrder(submitCommand(deps, companyGroup, order, orderId.atHand()), state);
      if (!decision.ok && history === ASSUMED_NEW) {
        history = await deps.store.readStream(stream);
        continue;
      }
      if (!decision.ok) return decision;
      if (decision.events.length === 0) {
        await visibleAfter(deps, stream, history.at(-1)?.position, state);
        return { ok: true, order_id: state.order_id, service_ref: state.service_ref, retry: true };
      }
      const stored = await appendSubmitted(deps, stream, orderId, decision.events, history);
      if (stored) {
        await visibleAfter(deps, stream, stored.position, stored.id);
        return { ok: true, ...stored.id, retry: false };
      }
      history = await deps.store.readStream(stream);
    }
    throw new Error(`submit of ${stream}: the stream conflicted ${MAX_ATTEMPTS} times`);
  });
}

/** The command as decided: with the id at hand, else none yet (the decision does not depend on it: the order is numbered once one is brought in). */
function submitCommand(
  deps: SubmitOrderDependencies,
  companyGroup: string,
  order: SubmitOrderPayload,
  id: AllocatedOrderId | undefined,
): SubmitOrder {
  return {
    type: 'SubmitOrder',
    data: { order, company_group: companyGroup, ...(id ?? UNNUMBERED), submitted_at: utcTimestamp(), masterData: deps.masterData() },
  };
}

const UNNUMBERED: AllocatedOrderId = { order_id: 0, service_ref: '' };

function numbered(events: OrderSubmitted[], id: AllocatedOrderId): OrderSubmitted[] {
  return events.map((event) => ({ ...event, data: { ...event.data, order_id: id.order_id, service_ref: id.service_ref } }));
}

/**
 * The order appended under the id brought in, expecting the stream as decided on; undefined when another
 * writer got there first. An order over the event store's limit with its lane is a 413: nothing was stored.
 */
async function appendSubmitted(
  deps: SubmitOrderDependencies,
  stream: string,
  orderId: OrderIdHold,
  events: OrderSubmitted[],
  decidedOn: readonly RecordedEvent[],
): Promise<{ id: AllocatedOrderId; position: bigint } | undefined> {
  const last = decidedOn.at(-1);
  try {
    return await orderId.appendUnder(async (id) => {
      deps.submittedHere?.(id.order_id);
      const appended = await deps.store.append(stream, numbered(events, id), last ? exactly(last.revision) : NO_STREAM);
      return { id, position: appended.position };
    });
  } catch (error) {
    if (error instanceof WrongExpectedRevision) return undefined;
    if (error instanceof AppendTooLarge) throw new BodyRejected(413, { detail: `The order is too large to store: ${error.message}.` });
    throw error;
  }
}
