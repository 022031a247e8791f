// Consolidation (issue 17): `normal` orders of one company group, lane and transportation mode that
// arrive within the lane's window are planned together and share containers when that saves any.
// Everything it decides is an event: the order joins a window (order stream), the window opens,
// closes and is planned (its own stream, consolidation-events.ts), then the parent order and each
// child's OrderPlanned are written from the stored decision. Every step is idempotent, so a replay
// after a crash redoes what is missing and nothing twice. The checkpoint stays before the first
// order of the oldest window not yet written out: a restart reads the log from there, rebuilds the
// open windows and their timers, and a window whose time ran out meanwhile closes once the log has
// been read back to where it stood at the start (its orders may lie pages further on), or no batch
// came for CATCH_UP_IDLE_MS.
// Every replica follows the windows; the planning of a closed window (and of an order left out of
// one) is done by the replica that claims it (src/planning/planning-claims.ts); the others retry
// until its ConsolidationPlanned is in the log, or its holder died and the claim ran out.
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { followLog, type Log } from '../eventstore/follow-log.js';
import { appendDecided } from '../eventstore/append-decided.js';
import { retryWithBackoff } from '../eventstore/retry-with-backoff.js';
import type { OrderSubmitted, RecordedPlan } from '../orders/order-events.js';
import { orderStream } from '../orders/order-events.js';
import { isOrderEvent, readOrderStream, submittedIn, type RecordedOrderEvent } from '../orders/read-order-stream.js';
import { formatMicros, utcTimestamp } from '../orders/clock.js';
import { handleOrderCommand, orderStateOf } from '../orders/handle-order-command.js';
import type { AllocatedOrderId } from '../orders/order-id-allocator.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import { compactPlan, expandPlan } from '../plan-contract/plan-storage.js';
import type { PlanOrderInput, TogetherInput } from '../plan-contract/planner-input.js';
import type { TogetherPlans } from '../planner/plan-together.js';
import { checkpointWriter } from '../checkpoints/checkpoint-writer.js';
import { CompletionMark } from '../planning/completion-mark.js';
import type { PlanningClaims } from '../planning/planning-claims.js';
import type { PlannerRunOutcome } from '../planning/planning-reactor.js';
import { containerSpec } from '../planner/containers.js';
import { plannerInput, togetherInput } from '../planning/planner-input.js';
import {
  consolidationStream, parentReference, type ConsolidationClosed, type ConsolidationEvent, type ConsolidationOpened, type ConsolidationPlanned,
} from './consolidation-events.js';
import { decideConsolidation, evolveConsolidation, initialConsolidationState, type ConsolidationCommand, type ConsolidationState } from './consolidation-decider.js';
import { consolidates, windowKey } from '../orders/consolidation-rule.js';
import { mergedLane, parentOrderCommand } from './parent-order.js';

const CONSUMER = 'consolidation';

/**
 * After a start, the reactor counts as caught up with the log when no batch came for this long (or
 * when it has read an event at or past the head the log had at start): until then no window closes
 * because its time ran out.
 */
const CATCH_UP_IDLE_MS = 250;

/** A window closes early when its orders' cargo takes this share of its containers' volume. */
export const FULL_SHARE = 0.85;

export interface ConsolidationPlanner {
  // `group`: the orders' company group; the planner serves groups in turn
  plan(input: PlanOrderInput, group: string): Promise<OrderPlan>;
  planTogether(input: TogetherInput, group: string): Promise<TogetherPlans>;
}

export interface ConsolidationReactorOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  planner: ConsolidationPlanner;
  claims: PlanningClaims;
  allocateOrderId: () => Promise<AllocatedOrderId>;
  log: Log;
  /** One per planner invocation, as the planning reactor counts them (orders_planner_runs_total). */
  onRun?: (outcome: PlannerRunOutcome) => void;
  /** Epoch ms; tests move it. */
  now?: () => number;
}

export interface ConsolidationReactor {
  stop(): Promise<void>;
}

interface Member {
  stream: string;
  service_ref: string;
  position: bigint;
}

interface Window {
  id: string;
  key: string;
  closesAt: number;
  status: 'open' | 'closed' | 'planned';
  members: Member[];
  /** Cargo volume of the members (mm³) against the containers they asked for. */
  cargo: number;
  room: number;
  timer?: NodeJS.Timeout;
  /** Its steps, one after the other. */
  chain: Promise<void>;
  /** The order streams its closing listed, once known. */
  closedList?: Set<string>;
}

const epochOf = (timestamp: string): number => Date.parse(`${timestamp}Z`);

export async function startConsolidationReactor(options: ConsolidationReactorOptions): Promise<ConsolidationReactor> {
  const { store, checkpoints, planner, log } = options;
  const now = options.now ?? Date.now;
  let stopping = false;
  const stopped = new AbortController();
  const windows = new Map<string, Window>();
  const openByKey = new Map<string, string>();
  const marks = new CompletionMark();
  const positionsOf = new Map<string, bigint>(); // order stream -> its OrderSubmitted position
  const work = new Set<Promise<void>>();
  let lastHandled: bigint | undefined;
  // While a batch is handled, windows' timers wait for its end: a window rebuilt after a restart
  // whose time ran out meanwhile would otherwise close at once, before the orders that joined it in
  // time, further on in the same batch, were read back (its closing list would leave them out).
  let handling = false;
  const armAfterBatch = new Set<Window>();
  // Until the log is read back to where it stood at the start, a window whose time has run out waits
  // here rather than closing: the orders that joined it in time may lie pages further on (a replay
  // spanning several batches), and the closing lists the orders it holds when it closes.
  let caughtUp = false;
  const overdue = new Set<Window>();
  let idleTimer: NodeJS.Timeout | undefined;
  // Unknown when the log cannot be asked now: then only the idle rule ends the catch-up.
  const startHead = await store.headPosition().then((head) => head ?? 0n, () => undefined);
  const markCaughtUp = (): void => {
    if (caughtUp) return;
    caughtUp = true;
    clearTimeout(idleTimer);
    for (const w of overdue) schedule(w);
    overdue.clear();
  };
  // Armed when a batch ends (and at start); a batch that begins disarms it.
  const awaitIdle = (): void => {
    if (caughtUp || stopping || handling) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(markCaughtUp, CATCH_UP_IDLE_MS);
    idleTimer.unref();
  };
  let lastTaken: bigint | undefined;
  // Most orders are finished the moment they are read (no window on their lane): a first start on a
  // long log would otherwise write the checkpoint once per order.
  const checkpoint = checkpointWriter(checkpoints, CONSUMER, (error) => log('consolidation: saving the checkpoint failed', error, 'warn'));
  const finish = (position: bigint): void => {
    const mark = marks.finish(position);
    if (mark === undefined || stopping) return;
    checkpoint.save(mark);
  };

  /** Runs a step off the log's handler, after the window's earlier steps; a failure is logged and retried. */
  const background = (w: Window, step: () => Promise<void>): void => {
    if (stopping) return;
    const run = w.chain.then(async () => {
      await retryWithBackoff(step, {
        firstDelayMs: 1000,
        signal: stopped.signal,
        // a pending retry alone does not keep the process alive
        unref: true,
        onFailure: (error, _failures, delay) => log(`consolidation ${w.id}: a step failed; trying again in ${delay} ms`, error),
      });
    });
    w.chain = run;
    work.add(run);
    void run.finally(() => work.delete(run));
  };

  /** Decides on the window's stream and appends; answers the window's state after it. */
  async function command(stream: string, cmd: ConsolidationCommand): Promise<ConsolidationState> {
    return (await decided(stream, cmd)).outcome;
  }

  /** The command's resulting state, and the position of what it appended (undefined: nothing). */
  function decided(stream: string, cmd: ConsolidationCommand): Promise<{ outcome: ConsolidationState; position: bigint | undefined }> {
    return appendDecided(store, stream, (history) => {
      const state = history.reduce((s, e) => evolveConsolidation(s, e as unknown as ConsolidationEvent), initialConsolidationState());
      const events = decideConsolidation(cmd, state);
      return { events, outcome: events.reduce(evolveConsolidation, state) };
    });
  }

  /** Runs the planner `runs` times through `plan`, counting each run by what became of its result. */
  async function counted<T>(runs: number, plan: () => Promise<T>, keep: (result: T) => Promise<boolean>): Promise<void> {
    let result: T;
    try {
      result = await plan();
    } catch (error) {
      for (let i = 0; i < runs; i++) options.onRun?.('failed');
      throw error;
    }
    const stored = await keep(result);
    for (let i = 0; i < runs; i++) options.onRun?.(stored ? 'stored' : 'discarded');
  }

  function windowFor(id: string, submitted: OrderSubmitted['data']): Window {
    let w = windows.get(id);
    if (!w) {
      const closesAt = epochOf(submitted.submitted_at) + submitted.lane.consolidation_window_seconds! * 1000;
      w = { id, key: windowKey(submitted), closesAt, status: 'open', members: [], cargo: 0, room: 0, chain: Promise.resolve() };
      windows.set(id, w);
      openByKey.set(w.key, id);
      schedule(w);
    }
    return w;
  }

  function schedule(w: Window): void {
    clearTimeout(w.timer);
    if (w.status !== 'open' || stopping) return;
    if (handling) {
      armAfterBatch.add(w);
      return;
    }
    w.timer = setTimeout(() => elapsed(w), Math.max(0, w.closesAt - now()));
    w.timer.unref();
  }

  function elapsed(w: Window): void {
    if (caughtUp) close(w, 'window_elapsed');
    else overdue.add(w);
  }

  function close(w: Window, reason: ConsolidationClosed['data']['reason']): void {
    if (w.status !== 'open') return;
    // from now on an order of this key opens a new window; one that raced in is planned alone
    w.status = 'closed';
    if (openByKey.get(w.key) === w.id) openByKey.delete(w.key);
    const orders = w.members.map(({ stream, service_ref }) => ({ stream, service_ref }));
    background(w, async () => { await command(w.id, { type: 'Close', data: { consolidation: w.id, reason, closed_at: utcTimestamp(), orders } }); });
  }

  async function onSubmitted(event: RecordedOrderEvent<'OrderSubmitted'>): Promise<void> {
    const submitted = event.data;
    if (lastTaken === undefined || event.position > lastTaken) {
      marks.take(event.position);
      lastTaken = event.position;
    }
    if (!consolidates(submitted)) {
      finish(event.position);
      return;
    }
    positionsOf.set(event.stream, event.position);
    const before = orderStateOf(await readOrderStream(store, event.stream));
    if (before.status !== 'submitted') {
      finish(event.position); // planned already (a replay)
      positionsOf.delete(event.stream);
      return;
    }
    // the window it joined (a replay), else the open window of its group, lane and mode, else a new
    // one named after this order
    let id = before.consolidation;
    if (id === undefined) {
      id = openByKey.get(windowKey(submitted));
      if (id === undefined || windows.get(id)?.status !== 'open') {
        id = consolidationStream(submitted.service_ref);
        const opened: ConsolidationOpened['data'] = {
          consolidation: id, company_group: submitted.company_group, lane_id: submitted.lane.id,
          transportation_mode: submitted.order.transportation_mode, window_seconds: submitted.lane.consolidation_window_seconds!,
          opened_at: submitted.submitted_at, closes_at: formatMicros((epochOf(submitted.submitted_at) + submitted.lane.consolidation_window_seconds! * 1000) * 1000),
        };
        const opening = windowFor(id, submitted);
        // read again after a crash, the window may be past open already: then no new order joins it
        const state = await command(id, { type: 'Open', data: opened });
        if (state.status !== 'open') {
          opening.status = state.status === 'planned' ? 'planned' : 'closed';
          if (state.closed) opening.closedList = new Set(state.closed.orders.map((o) => o.stream));
          clearTimeout(opening.timer);
          if (openByKey.get(opening.key) === opening.id) openByKey.delete(opening.key);
        }
      }
      const joined = await handleOrderCommand(store, event.stream, { type: 'JoinConsolidation', data: { consolidation: id, joined_at: utcTimestamp() } });
      if (!joined.ok) throw new Error(`consolidation: ${event.stream}: ${JSON.stringify(joined.errors)}`);
      // another instance may have put it elsewhere meanwhile: the order's stream says where
      const first = joined.events[0];
      id = (first?.type === 'OrderJoinedConsolidation' ? first.data.consolidation : joined.state.consolidation) ?? id;
    }
    const w = windows.get(id) ?? windowFor(id, submitted);
    if (w.members.some((m) => m.stream === event.stream)) return;
    if (w.status !== 'open' && w.closedList) {
      // joined a window that closed without it (two instances raced): planned alone; one in the list
      // is planned with the window
      if (!w.closedList.has(event.stream)) background(w, () => planAlone(event.stream, event.position));
      return;
    }
    // (a window closed but not yet read back takes it too: its closing event says whether it is in)
    w.members.push({ stream: event.stream, service_ref: submitted.service_ref, position: event.position });
    w.cargo += cargoVolume(submitted);
    w.room = Math.max(w.room, containersVolume(submitted));
    if (w.cargo >= FULL_SHARE * w.room) close(w, 'containers_full');
  }

  function onConsolidationEvent(event: RecordedEvent): void {
    const e = event as unknown as ConsolidationEvent;
    const w = windows.get(e.data.consolidation);
    if (!w) return; // before the checkpoint and done
    if (e.type === 'ConsolidationOpened') {
      w.closesAt = epochOf(e.data.closes_at);
      schedule(w);
    } else if (e.type === 'ConsolidationClosed') {
      w.status = 'closed';
      clearTimeout(w.timer);
      if (openByKey.get(w.key) === w.id) openByKey.delete(w.key);
      // the closed list is what is planned; positions come from the orders read since the checkpoint
      const listed = new Set(e.data.orders.map((o) => o.stream));
      w.closedList = listed;
      for (const m of w.members) {
        if (!listed.has(m.stream)) background(w, () => planAlone(m.stream, m.position));
      }
      w.members = e.data.orders.map((o) => ({ ...o, position: positionsOf.get(o.stream) ?? -1n }));
      background(w, () => planWindow(w, e.data));
    } else if (e.type === 'ConsolidationPlanned') {
      w.status = 'planned';
      background(w, () => writeOut(w, e.data));
    }
  }

  async function submittedOf(stream: string): Promise<OrderSubmitted['data']> {
    const submitted = submittedIn(await readOrderStream(store, stream));
    if (!submitted) throw new Error(`consolidation: ${stream} holds no OrderSubmitted`);
    return submitted;
  }

  /** Runs a planning step while holding `key`; while another replica holds it, fails, to be retried. */
  async function claimed(key: string, step: () => Promise<void>): Promise<void> {
    const held = await options.claims.whileHeld(key, step);
    if (!held.held) throw new Error(`${key} is being planned by another replica; looking again later`);
  }

  async function planWindow(w: Window, closed: ConsolidationClosed['data']): Promise<void> {
    // planned by another replica meanwhile: its ConsolidationPlanned brings the write-out
    if (w.status === 'planned') return;
    await claimed(w.id, async () => {
      const history = await store.readStream(w.id);
      const state = history.reduce((s, e) => evolveConsolidation(s, e as unknown as ConsolidationEvent), initialConsolidationState());
      if (state.status !== 'planned') await planWindowHeld(w, closed);
    });
  }

  async function planWindowHeld(w: Window, closed: ConsolidationClosed['data']): Promise<void> {
    const orders = await Promise.all(closed.orders.map((o) => submittedOf(o.stream)));
    const planned_at = utcTimestamp();
    // Alone, one planner run per order; together, one run for the window.
    await counted(orders.length < 2 ? orders.length : 1, async (): Promise<ConsolidationPlanned['data']> => {
      if (orders.length < 2) {
        const alone = await Promise.all(orders.map((o) => planner.plan(plannerInput(o), o.company_group)));
        return { consolidation: w.id, decision: 'alone', containers_together: null, containers_alone: alone.reduce((s, p) => s + p.containers.length, 0), planned_at, parent: null, alone: alone.map(compactPlan), together: null, pallet_owners: [] };
      }
      const plans = await planner.planTogether(togetherInput(mergedLane(orders), orders), orders[0]!.company_group);
      const aloneContainers = plans.alone.reduce((s, p) => s + p.containers.length, 0);
      const left = (p: OrderPlan): number => p.unplaced.reduce((s, u) => s + u.count, 0);
      const saves = plans.together.containers.length < aloneContainers && left(plans.together) <= plans.alone.reduce((s, p) => s + left(p), 0);
      const parent = saves ? await options.allocateOrderId() : undefined;
      return {
        consolidation: w.id, decision: saves ? 'together' : 'alone', containers_together: plans.together.containers.length, containers_alone: aloneContainers, planned_at,
        parent: parent ? { ...parent, reference: parentReference(parent.service_ref) } : null,
        alone: plans.alone.map(compactPlan), together: saves ? compactPlan(plans.together) : null,
        pallet_owners: saves ? plans.palletsOf.flatMap((pallets, i) => pallets.map(() => orders[i]!.service_ref)) : [],
      };
    }, async (data) => {
      log(`consolidation ${w.id}: ${closed.orders.length} order(s) ${data.decision === 'together' ? `planned together in ${data.containers_together} container(s) (${data.containers_alone} alone), parent ${data.parent!.service_ref}` : `planned alone (${data.containers_alone} container(s); together ${data.containers_together ?? '-'})`}`);
      return (await decided(w.id, { type: 'RecordPlan', data })).position !== undefined;
    });
  }

  async function writeOut(w: Window, planned: ConsolidationPlanned['data']): Promise<void> {
    const closedOrders = w.members;
    const children = await Promise.all(closedOrders.map((m) => submittedOf(m.stream)));
    if (planned.decision === 'together' && planned.together && planned.parent) {
      const together = expandPlan(planned.together);
      const parentStream = orderStream(children[0]!.company_group, planned.parent.reference);
      // on a replay after a crash the parent is stored already, and the decider records nothing
      const parent = await handleOrderCommand(store, parentStream, parentOrderCommand(planned.parent, children, together, planned.planned_at));
      if (!parent.ok) throw new Error(`consolidation: the parent order ${planned.parent.service_ref} in ${parentStream}: ${JSON.stringify(parent.errors)}`);
      for (const [i, child] of children.entries()) {
        const own = together.pallets.filter((_, k) => planned.pallet_owners[k] === child.service_ref);
        const plan: OrderPlan = {
          ...together,
          pallets: own,
          unplaced: together.unplaced.filter((u) => u.order === child.service_ref),
          metrics: { ...together.metrics, pallet_count: own.length, units: planned.alone[i]?.metrics.units ?? together.metrics.units },
        };
        await record(closedOrders[i]!.stream, { plan: compactPlan(plan), planned_at: planned.planned_at, consolidated_into: planned.parent.service_ref });
      }
    } else {
      for (const [i, m] of closedOrders.entries()) await record(m.stream, { plan: planned.alone[i]!, planned_at: planned.planned_at });
    }
    for (const m of closedOrders) {
      if (m.position >= 0n) finish(m.position);
      positionsOf.delete(m.stream);
    }
    windows.delete(w.id);
  }

  /** Records the order's plan; false when it had one already (another replica's), and nothing was written. */
  async function record(stream: string, data: { plan: RecordedPlan; planned_at: string; consolidated_into?: string }): Promise<boolean> {
    const result = await handleOrderCommand(store, stream, { type: 'RecordPlanResult', data });
    if (!result.ok) throw new Error(`consolidation: recording the plan of ${stream}: ${JSON.stringify(result.errors)}`);
    return result.events.length > 0;
  }

  async function planAlone(stream: string, position: bigint): Promise<void> {
    await claimed(stream, async () => {
      const history = await readOrderStream(store, stream);
      const submitted = submittedIn(history);
      if (!submitted) throw new Error(`consolidation: ${stream} holds no OrderSubmitted`);
      if (orderStateOf(history).status !== 'submitted') return; // planned by another replica
      await counted(1, () => planner.plan(plannerInput(submitted), submitted.company_group), (plan) => record(stream, { plan: compactPlan(plan), planned_at: utcTimestamp() }));
    });
    finish(position);
    positionsOf.delete(stream);
  }

  const follower = await followLog({
    store,
    name: 'consolidation reactor',
    loadCheckpoint: () => checkpoints.load(CONSUMER),
    retryDelayMs: 1000,
    types: ['OrderSubmitted', 'ConsolidationOpened', 'ConsolidationClosed', 'ConsolidationPlanned'],
    async handle(events) {
      handling = true;
      clearTimeout(idleTimer);
      try {
        for (const event of events) {
          if (stopping) return;
          // a batch comes again after a failure (or a resubscription): what was handled stays handled
          if (lastHandled !== undefined && event.position <= lastHandled) continue;
          if (isOrderEvent(event, 'OrderSubmitted')) await onSubmitted(event);
          else onConsolidationEvent(event);
          lastHandled = event.position;
        }
      } finally {
        handling = false;
        for (const w of armAfterBatch) schedule(w);
        armAfterBatch.clear();
        if (lastHandled !== undefined && startHead !== undefined && lastHandled >= startHead) markCaughtUp();
        else awaitIdle();
      }
    },
    log,
  });
  // A log with nothing to read back since the checkpoint brings no batch: caught up once it stays quiet.
  awaitIdle();

  return {
    async stop() {
      stopping = true;
      stopped.abort();
      for (const w of windows.values()) clearTimeout(w.timer);
      clearTimeout(idleTimer);
      await follower.stop();
      await Promise.allSettled([...work]);
      await checkpoint.settled();
    },
  };
}

/** The order's cargo volume in mm³: units, pre-built pallets and loose boxes, as the planner sees them. */
function cargoVolume(submitted: OrderSubmitted['data']): number {
  const input = plannerInput(submitted);
  const items = new Map(input.items.map((i) => [i.sku, i]));
  let volume = 0;
  for (const line of input.lines) {
    const item = items.get(line.sku);
    if (item) volume += line.units * item.l * item.w * item.h;
  }
  for (const b of [...input.preBuilts, ...input.looseBoxes]) volume += b.count * b.l * b.w * b.h;
  return volume;
}

/** The volume of the largest container type the order asked for, times the count it asked for. */
function containersVolume(submitted: OrderSubmitted['data']): number {
  let best = 0;
  for (const c of submitted.order.order_containers) {
    const spec = containerSpec(c.code);
    if (spec) best = Math.max(best, spec.inner_mm.l * spec.inner_mm.w * spec.inner_mm.h * c.count);
  }
  return best;
}
