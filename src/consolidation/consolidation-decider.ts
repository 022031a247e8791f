// A consolidation window's stream, without I/O: it opens once, closes once (by time or by filling
// up), and is planned once; a second instance or a replay asking again records nothing.
import type { Decider } from '../decider/decider.js';
import type { ConsolidationClosed, ConsolidationEvent, ConsolidationOpened, ConsolidationPlanned } from './consolidation-events.js';

export interface ConsolidationState {
  status: 'none' | 'open' | 'closed' | 'planned';
  closed?: ConsolidationClosed['data'];
}

export type ConsolidationCommand =
  | { type: 'Open'; data: ConsolidationOpened['data'] }
  | { type: 'Close'; data: ConsolidationClosed['data'] }
  | { type: 'RecordPlan'; data: ConsolidationPlanned['data'] };

export function initialConsolidationState(): ConsolidationState {
  return { status: 'none' };
}

export function evolveConsolidation(state: ConsolidationState, event: ConsolidationEvent): ConsolidationState {
  switch (event.type) {
    case 'ConsolidationOpened':
      return { status: 'open' };
    case 'ConsolidationClosed':
      return { status: 'closed', closed: event.data };
    case 'ConsolidationPlanned':
      return { ...state, status: 'planned' };
    default:
      return state;
  }
}

export function decideConsolidation(command: ConsolidationCommand, state: ConsolidationState): ConsolidationEvent[] {
  switch (command.type) {
    case 'Open':
      return state.status === 'none' ? [{ type: 'ConsolidationOpened', data: command.data }] : [];
    case 'Close':
      return state.status === 'open' ? [{ type: 'ConsolidationClosed', data: command.data }] : [];
    case 'RecordPlan':
      return state.status === 'closed' ? [{ type: 'ConsolidationPlanned', data: command.data }] : [];
  }
}

/** The window's rules as one value; it refuses nothing, it only records nothing twice. */
export const consolidationDecider: Decider<ConsolidationCommand, ConsolidationState, ConsolidationEvent> = {
  initialState: initialConsolidationState,
  evolve: evolveConsolidation,
  decide: (command, state) => ({ ok: true, events: decideConsolidation(command, state) }),
};
