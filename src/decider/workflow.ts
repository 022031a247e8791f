// A workflow as a value (emmett's workflows): a process that reacts to what it hears (events from
// the log, the answers of its own steps, and time, whose passing arrives as a command) with what to
// do next. Like a decider it is three plain functions: `decide` answers an input with outputs, or
// with the named reason it asks for nothing; `evolve` folds an input or an output into the state;
// `initialState` is where a start begins. What the outputs do (reads, appends, timers) is the
// reactor's, never the workflow's.

/** Why an input asks for nothing; an ignored input changes nothing either. */
export interface Ignored<Reason extends string> {
  ignored: Reason;
}

export interface Workflow<Input, State, Output, Reason extends string> {
  initialState(): State;
  evolve(state: State, message: Input | Output): State;
  decide(input: Input, state: State): Output[] | Ignored<Reason>;
}

export function isIgnored<Output, Reason extends string>(decision: Output[] | Ignored<Reason>): decision is Ignored<Reason> {
  return !Array.isArray(decision);
}

/**
 * One turn of a workflow: the input decided on the state, then the input and the outputs folded
 * into it, as emmett's workflow processor records both.
 */
export function stepWorkflow<Input, State, Output, Reason extends string>(
  workflow: Workflow<Input, State, Output, Reason>,
  state: State,
  input: Input,
): { state: State; decision: Output[] | Ignored<Reason> } {
  const decision = workflow.decide(input, state);
  if (isIgnored(decision)) return { state, decision };
  let next = workflow.evolve(state, input);
  for (const output of decision) next = workflow.evolve(next, output);
  return { state: next, decision };
}
