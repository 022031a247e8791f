// The consolidation's rules as a workflow (emmett's workflows; the I/O around it is
// consolidation-reactor.ts). `normal` orders of one company group, lane and transportation mode that
// arrive within the lane's window share it; the window closes when its time runs out or when its
// orders fill the containers they asked for, and its closing lists the orders it plans.
//
// Inputs are what the log brings (an order submitted; a window opened, closed, planned), the answers
// of the reactor's own steps (an order's stream read, a window's opening recorded, an order's join
// recorded, an order planned alone, a window written out) and time: a window's time running out
// arrives as the command TimeOutWindow, the end of the catch-up after a start as EndCatchUp.
// Outputs are the reactor's steps (read, append, plan, arm or clear a timer, mark an order done) and
// what the workflow records about its windows (WindowTracked, OrderAdmitted, WindowOverdue). An
// input that asks for nothing says why.
//
// The state is what one replica follows: rebuilt from the log after a restart, from the checkpoint
// on, which stays before the first order of the oldest window not yet written out.
import type { Ignored, Workflow } from '../decider/workflow.js';
import { formatMicros } from '../orders/clock.js';
import { consolidates, windowKey } from '../orders/consolidation-rule.js';
import type { OrderSubmitted } from '../orders/order-events.js';
import type { ConsolidationState } from './consolidation-decider.js';
import {
  consolidationStream,
  type ConsolidationClosed,
  type ConsolidationOpened,
  type ConsolidationPlanned,
} from './consolidation-events.js';
import { cargoVolume, containersVolume, fills } from './window-fill.js';

/** An order's OrderSubmitted as the log brought it. */
export interface SubmittedOrder {
  stream: string;
  position: bigint;
  submitted: OrderSubmitted['data'];
}

export interface WindowMember {
  stream: string;
  service_ref: string;
  /** Its OrderSubmitted's log position; undefined when it was not read since the checkpoint. */
  position: bigint | undefined;
}

export interface FollowedWindow {
  /** Its company group, lane and mode (windowKey). */
  key: string;
  /** Epoch ms. */
  closesAt: number;
  status: 'open' | 'closed' | 'planned';
  members: readonly WindowMember[];
  /** Cargo volume of the members (mm³) against the containers they asked for. */
  cargo: number;
  room: number;
  /** Each member's cargo and room by stream, taken off again when it leaves the open window. */
  shares?: ReadonlyMap<string, { cargo: number; room: number }>;
  /** The order streams its closing listed, once known. */
  listed?: readonly string[];
  /**
   * Its ConsolidationOpened as this replica asked for it, until the window's stream was seen to hold it:
   * an opening whose append failed is asked for again by the next order that joins (the decider records
   * it once), or the window's closing would record nothing and its orders wait for ever.
   */
  unconfirmedOpening?: ConsolidationOpened['data'];
}

export interface ConsolidationWorkflowState {
  windows: ReadonlyMap<string, FollowedWindow>;
  /** The open window of each key. */
  openByKey: ReadonlyMap<string, string>;
  /** Each order waiting for its window's plan: its OrderSubmitted's log position. */
  positions: ReadonlyMap<string, bigint>;
  /** Whether the log has been read back to where it stood at the start. */
  caughtUp: boolean;
  /** Windows whose time ran out before that, in that order. */
  overdue: readonly string[];
}

type JoinedOrder = SubmittedOrder & { consolidation: string };

export type ConsolidationInput =
  | { type: 'OrderSubmitted'; data: SubmittedOrder }
  | ConsolidationOpened
  | ConsolidationClosed
  | ConsolidationPlanned
  /** ReadOrder's answer: whether the order still awaits its plan, and the window its stream names. */
  | { type: 'OrderRead'; data: SubmittedOrder & { awaitsPlan: boolean; consolidation: string | undefined } }
  /** OpenWindow's answer: the window's stream after the command. */
  | { type: 'OpenAnswered'; data: { consolidation: string; window: ConsolidationState } }
  /** JoinWindow's answer: the window the order's stream names now (another replica's, maybe). */
  | { type: 'OrderJoined'; data: JoinedOrder }
  | { type: 'OrderPlannedAlone'; data: { stream: string; position: bigint | undefined } }
  | { type: 'WindowWrittenOut'; data: { consolidation: string } }
  /** From the log: an order amended or cancelled that was in this window (its event names it), at its event's position. */
  | { type: 'OrderLeft'; data: { consolidation: string; stream: string; position: bigint } }
  | { type: 'TimeOutWindow'; data: { consolidation: string } }
  | { type: 'EndCatchUp' };

export type ConsolidationOutput =
  | { type: 'ReadOrder'; data: SubmittedOrder }
  | { type: 'OpenWindow'; data: ConsolidationOpened['data'] }
  | { type: 'JoinWindow'; data: JoinedOrder }
  /** The reactor stamps closed_at when it appends. */
  | { type: 'CloseWindow'; data: Omit<ConsolidationClosed['data'], 'closed_at'> }
  | { type: 'PlanWindow'; data: ConsolidationClosed['data'] }
  /** `consolidation`: the window whose steps it follows. */
  | { type: 'PlanAlone'; data: { consolidation: string; stream: string; position: bigint | undefined } }
  | { type: 'WriteOut'; data: { planned: ConsolidationPlanned['data']; members: readonly WindowMember[] } }
  /** TimeOutWindow at `at` (epoch ms), in place of any timer the window had. */
  | { type: 'ArmTimer'; data: { consolidation: string; at: number } }
  | { type: 'ClearTimer'; data: { consolidation: string } }
  /** The consolidation needs nothing more of the order: its position counts as done for the checkpoint. */
  | { type: 'OrderDone'; data: { stream: string; position: bigint | undefined } }
  /**
   * After the window's steps so far: whether an order that left it dissolves its shipment (written out),
   * then the leave's position counts as done.
   */
  | { type: 'ReviseShipment'; data: { consolidation: string; position: bigint } }
  /** The order left the open window: its cargo no longer counts, and its closing will not list it. */
  | { type: 'MemberLeft'; data: { consolidation: string; stream: string } }
  | { type: 'WindowTracked'; data: { consolidation: string; key: string; closesAt: number; opening?: ConsolidationOpened['data'] } }
  | { type: 'OrderAdmitted'; data: { consolidation: string; member: WindowMember; cargo: number; room: number } }
  | { type: 'WindowOverdue'; data: { consolidation: string } };

export type IgnoredReason =
  /** A window this replica does not follow: done before the checkpoint, or written out. */
  | 'not_followed'
  /** The window's stream is open, as this replica took it to be. */
  | 'opened_as_asked'
  /** The order is in the window already (a batch read again). */
  | 'already_in_window'
  /** The window's closing listed the order: it is planned with the window. */
  | 'planned_with_its_window'
  /** The window closed before its time ran out. */
  | 'window_not_open'
  | 'caught_up_already';

type Decision = ConsolidationOutput[] | Ignored<IgnoredReason>;
type State = ConsolidationWorkflowState;

export function initialState(): State {
  return { windows: new Map(), openByKey: new Map(), positions: new Map(), caughtUp: false, overdue: [] };
}

export function decide(input: ConsolidationInput, state: State): Decision {
  switch (input.type) {
    case 'OrderSubmitted':
      // most orders wait for no window: done the moment they are read
      return consolidates(input.data.submitted) ? [{ type: 'ReadOrder', data: input.data }] : [orderDone(input.data)];
    case 'OrderRead':
      return windowToJoin(input.data, state);
    case 'OpenAnswered':
      return openAnswered(input.data.consolidation, input.data.window, state);
    case 'OrderJoined':
      return admit(input.data, state);
    case 'TimeOutWindow':
      return timedOut(input.data.consolidation, state);
    case 'EndCatchUp':
      return endCatchUp(state);
    case 'ConsolidationOpened':
    case 'ConsolidationClosed':
    case 'ConsolidationPlanned':
      return fromTheLog(input, state);
    case 'OrderPlannedAlone':
      return [orderDone(input.data)];
    case 'WindowWrittenOut': {
      const w = state.windows.get(input.data.consolidation);
      return w ? w.members.map(orderDone) : { ignored: 'not_followed' };
    }
    case 'OrderLeft':
      return orderLeft(input.data, state);
  }
}

// An amended or cancelled order leaves its window. From an open window it goes at once (its cargo no
// longer fills it, its closing does not list it); a closed window is planned without it and a planned
// one planned again (window-planning.ts reads each order again); a shipment written out is dissolved.
// Whatever the window's state as this replica follows it, the revision runs after the window's steps.
function orderLeft(left: Extract<ConsolidationInput, { type: 'OrderLeft' }>['data'], state: State): Decision {
  const { consolidation, stream, position } = left;
  const w = state.windows.get(consolidation);
  const member = w?.status === 'open' ? w.members.find((m) => m.stream === stream) : undefined;
  const leaves: ConsolidationOutput[] = member ? [{ type: 'MemberLeft', data: { consolidation, stream } }, orderDone(member)] : [];
  return [...leaves, { type: 'ReviseShipment', data: { consolidation, position } }];
}

// The window it joined (a replay), else the open window of its group, lane and mode, else a new one
// named after this order.
function windowToJoin(read: Extract<ConsolidationInput, { type: 'OrderRead' }>['data'], state: State): Decision {
  const { awaitsPlan, consolidation, ...order } = read;
  if (!awaitsPlan) return [orderDone(order)]; // planned already (a replay)
  if (consolidation !== undefined) return admit({ ...order, consolidation }, state);
  const open = state.openByKey.get(windowKey(order.submitted));
  const w = open === undefined ? undefined : state.windows.get(open);
  if (open !== undefined && w?.status === 'open') {
    const reopen: ConsolidationOutput[] = w.unconfirmedOpening ? [{ type: 'OpenWindow', data: w.unconfirmedOpening }] : [];
    return [...reopen, { type: 'JoinWindow', data: { ...order, consolidation: open } }];
  }
  const id = consolidationStream(order.submitted.service_ref);
  const opened = opening(id, order.submitted);
  return [
    ...track(id, order.submitted, state, opened),
    { type: 'OpenWindow', data: opened },
    { type: 'JoinWindow', data: { ...order, consolidation: id } },
  ];
}

// Read again after a crash, the window may be past open already: then no new order joins it.
function openAnswered(id: string, window: ConsolidationState, state: State): Decision {
  if (window.status === 'open') return { ignored: 'opened_as_asked' };
  if (!state.windows.has(id)) return { ignored: 'not_followed' };
  return [{ type: 'ClearTimer', data: { consolidation: id } }];
}

function admit(order: JoinedOrder, state: State): Decision {
  const id = order.consolidation;
  const tracked = track(id, order.submitted, state);
  const w = state.windows.get(id) ?? trackedWindow(windowKey(order.submitted), closesAtOf(order.submitted));
  if (w.members.some((m) => m.stream === order.stream)) return { ignored: 'already_in_window' };
  if (w.status !== 'open' && w.listed) {
    // joined a window that closed without it (two replicas raced): planned alone
    if (w.listed.includes(order.stream)) return { ignored: 'planned_with_its_window' };
    return [...tracked, { type: 'PlanAlone', data: { consolidation: id, stream: order.stream, position: order.position } }];
  }
  // a window closed but not yet read back takes it too: its closing event says whether it is in
  const member: WindowMember = { stream: order.stream, service_ref: order.submitted.service_ref, position: order.position };
  const cargo = cargoVolume(order.submitted);
  const room = containersVolume(order.submitted);
  const admitted: ConsolidationOutput = { type: 'OrderAdmitted', data: { consolidation: id, member, cargo, room } };
  const full = w.status === 'open' && fills(w.cargo + cargo, Math.max(w.room, room));
  return full ? [...tracked, admitted, ...closing(id, [...w.members, member], 'containers_full')] : [...tracked, admitted];
}

function timedOut(id: string, state: State): Decision {
  const w = state.windows.get(id);
  if (!w) return { ignored: 'not_followed' };
  if (w.status !== 'open') return { ignored: 'window_not_open' };
  // Until the log is read back to where it stood at the start, the orders that joined the window in
  // time may lie pages further on, and the closing lists the orders it holds when it closes.
  if (!state.caughtUp) return [{ type: 'WindowOverdue', data: { consolidation: id } }];
  return closing(id, w.members, 'window_elapsed');
}

function endCatchUp(state: State): Decision {
  if (state.caughtUp) return { ignored: 'caught_up_already' };
  return state.overdue.flatMap((id): ConsolidationOutput[] => {
    const w = state.windows.get(id);
    return w?.status === 'open' ? [{ type: 'ArmTimer', data: { consolidation: id, at: w.closesAt } }] : [];
  });
}

function fromTheLog(event: ConsolidationOpened | ConsolidationClosed | ConsolidationPlanned, state: State): Decision {
  const id = event.data.consolidation;
  const w = state.windows.get(id);
  if (!w) return { ignored: 'not_followed' };
  switch (event.type) {
    case 'ConsolidationOpened':
      // the time as stored wins over the one this replica worked out
      if (w.status !== 'open') return [{ type: 'ClearTimer', data: { consolidation: id } }];
      return [{ type: 'ArmTimer', data: { consolidation: id, at: epochOf(event.data.closes_at) } }];
    case 'ConsolidationClosed': {
      // what the closing lists is planned together; an order it left out, alone
      const listed = new Set(event.data.orders.map((o) => o.stream));
      const leftOut = w.members.filter((m) => !listed.has(m.stream));
      return [
        { type: 'ClearTimer', data: { consolidation: id } },
        ...leftOut.map(
          (m): ConsolidationOutput => ({ type: 'PlanAlone', data: { consolidation: id, stream: m.stream, position: m.position } }),
        ),
        { type: 'PlanWindow', data: event.data },
      ];
    }
    case 'ConsolidationPlanned':
      return [{ type: 'WriteOut', data: { planned: event.data, members: w.members } }];
  }
}

export function evolve(state: State, message: ConsolidationInput | ConsolidationOutput): State {
  switch (message.type) {
    case 'ReadOrder':
      return { ...state, positions: withEntry(state.positions, message.data.stream, message.data.position) };
    case 'OrderDone':
      return { ...state, positions: withoutEntry(state.positions, message.data.stream) };
    case 'WindowTracked': {
      const { consolidation, key, closesAt, opening } = message.data;
      const tracked = trackedWindow(key, closesAt);
      const windows = withEntry(state.windows, consolidation, opening ? { ...tracked, unconfirmedOpening: opening } : tracked);
      return { ...state, windows, openByKey: withEntry(state.openByKey, key, consolidation) };
    }
    case 'OrderAdmitted': {
      const { member, cargo, room } = message.data;
      const joins = (w: FollowedWindow): FollowedWindow => ({
        ...w,
        members: [...w.members, member],
        cargo: w.cargo + cargo,
        room: Math.max(w.room, room),
        shares: withEntry(w.shares ?? new Map(), member.stream, { cargo, room }),
      });
      return changeWindow(state, message.data.consolidation, joins);
    }
    case 'MemberLeft': {
      const leaves = (w: FollowedWindow): FollowedWindow => {
        const members = w.members.filter((m) => m.stream !== message.data.stream);
        const shares = withoutEntry(w.shares ?? new Map(), message.data.stream);
        const of = [...shares.values()];
        return { ...w, members, shares, cargo: of.reduce((sum, x) => sum + x.cargo, 0), room: Math.max(0, ...of.map((x) => x.room)) };
      };
      return changeWindow(state, message.data.consolidation, leaves);
    }
    case 'CloseWindow':
      return leftOpen(
        changeWindow(state, message.data.consolidation, (w) => ({ ...w, status: 'closed' })),
        message.data.consolidation,
      );
    case 'WindowOverdue':
      return state.overdue.includes(message.data.consolidation)
        ? state
        : { ...state, overdue: [...state.overdue, message.data.consolidation] };
    case 'EndCatchUp':
      return { ...state, caughtUp: true, overdue: [] };
    case 'OpenAnswered': {
      const { consolidation, window } = message.data;
      if (window.status === 'open') return changeWindow(state, consolidation, confirmedOpen);
      const status = window.status === 'planned' ? 'planned' : 'closed';
      const listed = window.closed?.orders.map((o) => o.stream);
      return leftOpen(
        changeWindow(state, consolidation, (w) => ({ ...confirmedOpen(w), status, listed: listed ?? w.listed })),
        consolidation,
      );
    }
    case 'ConsolidationOpened':
      return changeWindow(state, message.data.consolidation, (w) => ({ ...confirmedOpen(w), closesAt: epochOf(message.data.closes_at) }));
    case 'ConsolidationClosed': {
      const { consolidation, orders } = message.data;
      // positions come from the orders read since the checkpoint
      const members = orders.map((o) => ({ ...o, position: state.positions.get(o.stream) }));
      const closes = (w: FollowedWindow): FollowedWindow => ({ ...w, status: 'closed', listed: orders.map((o) => o.stream), members });
      return leftOpen(changeWindow(state, consolidation, closes), consolidation);
    }
    case 'ConsolidationPlanned':
      return changeWindow(state, message.data.consolidation, (w) => ({ ...w, status: 'planned' }));
    case 'WindowWrittenOut': {
      const written = leftOpen(state, message.data.consolidation);
      return { ...written, windows: withoutEntry(written.windows, message.data.consolidation) };
    }
    default:
      return state;
  }
}

export const consolidationWorkflow: Workflow<ConsolidationInput, State, ConsolidationOutput, IgnoredReason> = {
  initialState,
  evolve,
  decide,
};

/** Whether a window still waits for its plan: closed, and its ConsolidationPlanned not yet read. */
export function awaitsWindowPlan(state: State, id: string): boolean {
  return state.windows.get(id)?.status === 'closed';
}

/** A timestamp of the log (UTC, no zone) in epoch ms. */
export function epochOf(timestamp: string): number {
  return Date.parse(`${timestamp}Z`);
}

function closesAtOf(submitted: OrderSubmitted['data']): number {
  return epochOf(submitted.submitted_at) + submitted.lane.consolidation_window_seconds! * 1000;
}

function confirmedOpen(w: FollowedWindow): FollowedWindow {
  if (!w.unconfirmedOpening) return w;
  const { unconfirmedOpening: _, ...confirmed } = w;
  return confirmed;
}

function trackedWindow(key: string, closesAt: number): FollowedWindow {
  return { key, closesAt, status: 'open', members: [], cargo: 0, room: 0 };
}

/**
 * A window followed from now on, with its timer: one this replica opens (`opening`), or one named by an
 * order it has not seen open it.
 */
function track(id: string, submitted: OrderSubmitted['data'], state: State, opening?: ConsolidationOpened['data']): ConsolidationOutput[] {
  if (state.windows.has(id)) return [];
  const closesAt = closesAtOf(submitted);
  return [
    { type: 'WindowTracked', data: { consolidation: id, key: windowKey(submitted), closesAt, ...(opening ? { opening } : {}) } },
    { type: 'ArmTimer', data: { consolidation: id, at: closesAt } },
  ];
}

function opening(id: string, submitted: OrderSubmitted['data']): ConsolidationOpened['data'] {
  return {
    consolidation: id,
    company_group: submitted.company_group,
    lane_id: submitted.lane.id,
    transportation_mode: submitted.order.transportation_mode,
    window_seconds: submitted.lane.consolidation_window_seconds!,
    opened_at: submitted.submitted_at,
    closes_at: formatMicros(closesAtOf(submitted) * 1000),
  };
}

// From now on an order of this key opens a new window; one that raced in is planned alone.
function closing(id: string, members: readonly WindowMember[], reason: ConsolidationClosed['data']['reason']): ConsolidationOutput[] {
  return [
    { type: 'ClearTimer', data: { consolidation: id } },
    {
      type: 'CloseWindow',
      data: { consolidation: id, reason, orders: members.map(({ stream, service_ref }) => ({ stream, service_ref })) },
    },
  ];
}

function orderDone(order: { stream: string; position: bigint | undefined }): ConsolidationOutput {
  return { type: 'OrderDone', data: { stream: order.stream, position: order.position } };
}

function changeWindow(state: State, id: string, change: (w: FollowedWindow) => FollowedWindow): State {
  const w = state.windows.get(id);
  return w ? { ...state, windows: withEntry(state.windows, id, change(w)) } : state;
}

/** The window is no longer its key's open window. */
function leftOpen(state: State, id: string): State {
  const key = state.windows.get(id)?.key;
  return key !== undefined && state.openByKey.get(key) === id ? { ...state, openByKey: withoutEntry(state.openByKey, key) } : state;
}

function withEntry<K, V>(map: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> {
  return new Map(map).set(key, value);
}

function withoutEntry<K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}
