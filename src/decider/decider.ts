// A decider as a value (oskardudycz's samples/decider, emmett's deciders): three plain functions and
// nothing else know how a stream's state changes. `decide` answers a command with the events to
// record, or with the errors that refuse it; `evolve` folds one event into the state; `initialState`
// is the state of a stream that holds nothing yet. The one handler that runs any decider against the
// event store is handle-command.ts.

/** The events a command records (none: nothing to record), or why it is refused. */
export type Decision<Event, Errors> = { ok: true; events: Event[] } | { ok: false; errors: Errors };

export interface Decider<Command, State, Event, Errors = never> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Decision<Event, Errors>;
}
