// given(events).when(command).then(events | errors): one helper for every decider's specifications,
// and given(messages).when(input).then(outputs | ignored) for the workflow's. The state is folded
// from what is given with the decider's (or workflow's) own evolve, so a specification speaks only
// in events, commands and outputs, never in the state's shape.
import type { Test } from 'tap';
import type { Decider } from '../../src/decider/decider.js';
import type { Workflow } from '../../src/decider/workflow.js';
import { decideApplyMasterData } from '../../src/master-data/apply-master-data.js';
import type { MasterDataDocument } from '../../src/master-data/master-data-document.js';
import { evolveMasterData, initialMasterData, type MasterData, type MasterDataEvent } from '../../src/master-data/master-data.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';

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

/** `workflowSpec(t, workflow).given(...messages).when(input).then([...outputs])` or `.thenIgnored(reason)`. */
export function workflowSpec<Input, State, Output, Reason extends string>(t: Test, workflow: Workflow<Input, State, Output, Reason>) {
  return {
    /** Inputs and outputs as they happened, folded with the workflow's evolve. */
    given(...messages: (Input | Output)[]) {
      return {
        when(input: Input) {
          const decision = workflow.decide(input, messages.reduce(workflow.evolve, workflow.initialState()));
          return {
            decision,
            /** Exactly these outputs, in this order. */
            then(expected: Output[]): void {
              t.same(decision, expected);
            },
            /** Nothing to do, for this reason. */
            thenIgnored(reason: Reason): void {
              t.same(decision, { ignored: reason });
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
