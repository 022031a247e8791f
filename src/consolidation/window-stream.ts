// A window's own stream, through the one command handler: each command is decided by the window's
// decider on what the stream holds and appended expecting the revision read.
import { commandHandler } from '../decider/handle-command.js';
import type { EventStore } from '../eventstore/event-store.js';
import { consolidationDecider, type ConsolidationCommand, type ConsolidationState } from './consolidation-decider.js';
import { consolidationEventsIn } from './consolidation-events.js';

const windows = commandHandler(consolidationDecider, consolidationEventsIn);

/** The state a window's stored events fold to. */
export const windowStateOf = windows.stateOf;

/** The window's state after the command, and the position of what it appended (undefined: nothing). */
export async function commandWindow(
  store: EventStore,
  consolidation: string,
  command: ConsolidationCommand,
): Promise<{ state: ConsolidationState; position: bigint | undefined }> {
  const result = await windows.handle(store, consolidation, command);
  if (!result.ok) throw new Error(`consolidation ${consolidation}: ${command.type} refused`); // the window's decider refuses nothing
  return { state: result.events.reduce(consolidationDecider.evolve, result.state), position: result.position };
}
