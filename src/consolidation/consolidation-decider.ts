// A consolidation window's stream, without I/O: it opens once, closes once (by time or by filling
// up), and is planned once; a second instance or a replay asking again records nothing. It is planned
// again (Replan) only without orders that left it before its plan was written out, and only with fewer
// orders than the plan it replaces, so a replay of the same replan records nothing either.
import type { Decider } from '../decider/decider.js';
import type { ConsolidationClosed, ConsolidationEvent, ConsolidationOpened, ConsolidationPlanned } from './consolidation-events.js';

export interface ConsolidationState {
  status: 'none' | 'open' | 'closed' | 'planned';
  closed?: ConsolidationClosed['data'];
  /** The newest plan recorded. */
  planned?: ConsolidationPlanned['data'];
}

export type ConsolidationCommand =
  | { type: 'Open'; data: ConsolidationOpened['data'] }
  | { type: 'Close'; data: ConsolidationClosed['data'] }
  | { type: 'RecordPlan'; data: ConsolidationPlanned['data'] }
  | { type: 'Replan'; data: ConsolidationPlanned['data'] };

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
      return { ...state, status: 'planned', planned: event.data };
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
    case 'Replan': {
      if (state.status !== 'planned') return [];
      const before = new Set(plannedOrders(state).map((o) => o.stream));
      const after = command.data.orders ?? [];
      return after.length < before.size && after.every((o) => before.has(o.stream))
        ? [{ type: 'ConsolidationPlanned', data: command.data }]
        : [];
    }
  }
}

/** The orders of the window's newest plan (events written before plans listed them: the closing's). */
export function plannedOrders(state: ConsolidationState): { stream: string; service_ref: string }[] {
  return state.planned?.orders ?? state.closed?.orders ?? [];
}

/** The window's rules as one value; it refuses nothing, it only records nothing twice. */
export const consolidationDecider: Decider<ConsolidationCommand, ConsolidationState, ConsolidationEvent> = {
  initialState: initialConsolidationState,
  evolve: evolveConsolidation,
  decide: (command, state) => ({ ok: true, events: decideConsolidation(command, state) }),
};
