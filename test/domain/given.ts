// given(events).when(command).then(events | errors): one helper for every decider's specifications.
// The state is folded from the given events with the decider's own evolve, so a specification
// speaks only in events and commands, never in the state's shape.
import type { Test } from 'tap';
import { decideApplyMasterData } from '../../src/master-data/apply-master-data.js';
import type { MasterDataDocument } from '../../src/master-data/master-data-document.js';
import { evolveMasterData, initialMasterData, type MasterData, type MasterDataEvent } from '../../src/master-data/master-data.js';
import { decideOrder, evolveOrder, initialOrderState } from '../../src/orders/order-decider.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';

export interface Decider<Command, State, Event, Errors> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): { ok: true; events: Event[] } | { ok: false; errors: Errors };
}

export const orderDecider = { initialState: initialOrderState, evolve: evolveOrder, decide: decideOrder };
export const masterDataDecider = { initialState: initialMasterData, evolve: evolveMasterData, decide: decideApplyMasterData };

/** `spec(t, decider).given(...events).when(command).then([...events])` or `.then({ errors })`. */
export function spec<Command, State, Event, Errors>(t: Test, decider: Decider<Command, State, Event, Errors>) {
  return {
    given(...events: Event[]) {
      return {
        when(command: Command) {
          const decision = decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
          return {
            decision,
            /** Exactly these events recorded, or refused with exactly these errors. */
            then(expected: Event[] | { errors: Errors }): void {
              t.same(decision, Array.isArray(expected) ? { ok: true, events: expected } : { ok: false, errors: expected.errors });
            },
            /** Like then, where the expectation is a tap pattern (regular expressions for messages, fields left out). */
            thenMatch(pattern: { events: unknown[] } | { errors: unknown }): void {
              t.match(decision, 'events' in pattern ? { ok: true, events: pattern.events } : { ok: false, errors: pattern.errors });
              if ('events' in pattern && decision.ok) t.equal(decision.events.length, pattern.events.length, 'as many events as expected');
            },
          };
        },
      };
    },
  };
}

export function masterDataFrom(events: readonly MasterDataEvent[]): MasterData {
  return events.reduce(evolveMasterData, initialMasterData());
}

export function eventsFor(document: MasterDataDocument): MasterDataEvent[] {
  const decision = decideApplyMasterData(document, initialMasterData());
  if (!decision.ok) throw new Error(`seed rejected: ${JSON.stringify(decision.errors)}`);
  return decision.events;
}

let position = 0n;
export function recorded<T extends { type: string; data: unknown }>(event: T, stream = 'test-stream'): RecordedEvent {
  position += 1n;
  return { id: `event-${position}`, stream, type: event.type, data: event.data, revision: 0n, position, recordedAt: new Date() };
}
