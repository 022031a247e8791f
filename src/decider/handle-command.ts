// The one command handler, for every decider: the stream's events folded with the decider's evolve,
// the command decided on that state, and the events appended expecting the revision that was read
// (the shared command loop, append-decided.ts, which decides again on what the stream holds when
// another writer got there first).
import { appendDecided } from '../eventstore/append-decided.js';
import type { EventStore, NewEvent, RecordedEvent } from '../eventstore/event-store.js';
import type { Decider } from './decider.js';

export type CommandResult<State, Event, Errors> =
  | {
      ok: true;
      events: Event[];
      /** Log position of the last event appended; undefined when nothing was. */
      position: bigint | undefined;
      /** The state the command was decided on. */
      state: State;
    }
  | { ok: false; errors: Errors };

export interface CommandHandler<Command, State, Event, Errors> {
  /** The state a stream's stored events fold to. */
  stateOf(history: readonly RecordedEvent[]): State;
  /** `read`: the stream as just read, when the caller has it (it is decided on first). */
  handle(store: EventStore, stream: string, command: Command, read?: RecordedEvent[]): Promise<CommandResult<State, Event, Errors>>;
}

/**
 * `eventsIn` says which stored events are the decider's own: the store gives back any type with any
 * data, and each kind of stream narrows them in one place rather than casting.
 */
export function commandHandler<Command, State, Event extends NewEvent, Errors>(
  decider: Decider<Command, State, Event, Errors>,
  eventsIn: (history: readonly RecordedEvent[]) => readonly Event[],
): CommandHandler<Command, State, Event, Errors> {
  const stateOf = (history: readonly RecordedEvent[]): State => eventsIn(history).reduce(decider.evolve, decider.initialState());
  return {
    stateOf,
    async handle(store, stream, command, read) {
      const { outcome, position } = await appendDecided(
        store,
        stream,
        (history) => {
          const state = stateOf(history);
          const decision = decider.decide(command, state);
          return { events: decision.ok ? decision.events : [], outcome: { decision, state } };
        },
        read,
      );
      const { decision, state } = outcome;
      return decision.ok ? { ok: true, events: decision.events, position, state } : decision;
    },
  };
}
