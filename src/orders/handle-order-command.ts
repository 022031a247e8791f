// The order's command handler: the order decider in the shared command loop (append-decided.ts).
// When another writer got there first, the command is decided again on what the stream holds now
// (a submit then meets a taken reference; a second plan result records nothing).
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { appendDecided } from '../eventstore/append-decided.js';
import type { FieldErrors } from '../validation/field-errors.js';
import { decideOrder, evolveOrder, initialOrderState, type OrderCommand, type OrderState } from './order-decider.js';
import type { OrderEvent } from './order-events.js';
import { orderEventsIn } from './read-order-stream.js';

export type OrderCommandResult =
  | {
    ok: true;
    events: OrderEvent[];
    /** Log position of the last event appended; undefined when nothing was. */
    position: bigint | undefined;
    /** The state the command was decided on. */
    state: OrderState;
  }
  | { ok: false; errors: FieldErrors };

export function orderStateOf(history: readonly RecordedEvent[]): OrderState {
  return orderEventsIn(history).reduce(evolveOrder, initialOrderState());
}

/** `read`: the stream as just read, when the caller has it (appendDecided decides on it first). */
export async function handleOrderCommand(store: EventStore, stream: string, command: OrderCommand, read?: RecordedEvent[]): Promise<OrderCommandResult> {
  const { outcome, position } = await appendDecided(store, stream, (history) => {
    const state = orderStateOf(history);
    const decision = decideOrder(command, state);
    return { events: decision.ok ? decision.events : [], outcome: { decision, state } };
  }, read);
  const { decision, state } = outcome;
  return decision.ok ? { ok: true, events: decision.events, position, state } : decision;
}
