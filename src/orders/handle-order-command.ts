// The command handler of emmett's shape: read the order's stream and fold it with evolve, decide,
// append expecting the revision that was read. When another writer got there first, the stream
// is read and the command decided again on what it holds now (a submit then meets a taken
// reference; a second plan result records nothing).
import { exactly, NO_STREAM, WrongExpectedRevision, type EventStore, type RecordedEvent } from '../eventstore/event-store.js';
import type { FieldErrors } from '../validation/field-errors.js';
import { decideOrder, evolveOrder, initialOrderState, type OrderCommand, type OrderState } from './order-decider.js';
import type { OrderEvent } from './order-events.js';

// A stream's writers are one submit, one plan result and the downloads: a handful of conflicts at
// most. Past this many something is wrong, and the caller hears of it rather than spinning.
const MAX_ATTEMPTS = 10;

export type OrderCommandResult =
  | { ok: true; events: OrderEvent[]; /** Log position of the last event appended; undefined when nothing was. */ position: bigint | undefined }
  | { ok: false; errors: FieldErrors };

export function orderStateOf(history: readonly RecordedEvent[]): OrderState {
  return history.reduce((state, event) => evolveOrder(state, event as unknown as OrderEvent), initialOrderState());
}

export async function handleOrderCommand(store: EventStore, stream: string, command: OrderCommand): Promise<OrderCommandResult> {
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(stream);
    const decision = decideOrder(command, orderStateOf(history));
    if (!decision.ok) return decision;
    if (decision.events.length === 0) return { ok: true, events: [], position: undefined };
    const last = history.at(-1);
    try {
      const appended = await store.append(stream, decision.events, last ? exactly(last.revision) : NO_STREAM);
      return { ok: true, events: decision.events, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
