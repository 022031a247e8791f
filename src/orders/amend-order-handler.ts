// The story of an amend, told as a submit's: the client's new version of the order (a submit body,
// validated as one) is decided on the order's stream, against master data and the revision the client
// read (If-Match); the amend is appended expecting the stream as decided on, and the answer waits until
// the read models show it. The same content again records nothing and answers once the order as it
// stands can be read. No id is brought in: the order keeps its own.
import type { MasterData } from '../master-data/master-data.js';
import type { FieldErrors } from '../validation/field-errors.js';
import { utcTimestamp } from './clock.js';
import { handleOrderCommand } from './handle-order-command.js';
import { visibleAfter, type ReadYourWrites } from './read-your-writes.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';

export type OrderChangeResult = { ok: true } | { ok: false; errors: FieldErrors };

export interface AmendOrderDependencies extends ReadYourWrites {
  masterData: () => MasterData;
}

/** `expectedRevision` 'any': If-Match: *, whatever the order holds now. */
export async function amendOrder(
  deps: AmendOrderDependencies,
  stream: string,
  order: SubmitOrderPayload,
  expectedRevision: number | 'any',
): Promise<OrderChangeResult> {
  const decided = await handleOrderCommand(deps.store, stream, {
    type: 'AmendOrder',
    data: { order, expected_revision: expectedRevision, amended_at: utcTimestamp(), masterData: deps.masterData() },
  });
  if (!decided.ok) return decided;
  await visibleAfter(deps, stream, decided.position);
  return { ok: true };
}
