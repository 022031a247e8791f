// Plans every version of every order once: reacts to OrderSubmitted (and to OrderAmended and
// OrderPlanWithdrawn, each a new version) in the log, runs the load planner and appends OrderPlanned or
// OrderPlanningFailed for that version to the order's stream; a cancelled order is planned no more. Every replica follows the whole
// log, but plans only the orders it leases (leases/planning-leases.ts): an order another replica holds is
// looked at again later, and taken over if that replica died, unless its result reaches this replica
// first (the reactor follows the results too, so the losers of a lease never read the order). The
// checkpoint saves work on restart; what makes "once" hold after a crash or a lost lease is the
// order's decider: an order whose stream already holds a result is skipped, and a second result
// records nothing.
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { followLog } from '../eventstore/follow-log.js';
import { retryWithBackoff } from '../storage/retry-with-backoff.js';
import type { OrderPlanned, OrderPlanningFailed } from '../orders/order-events.js';
import { isOrderEvent, type RecordedOrderEvent } from '../orders/read-order-stream.js';
import { checkpointWriter, type CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import type { PlanningLeases } from '../leases/planning-leases.js';
import { planOrderOnce, type OrderPlanner, type PlannerRunOutcome } from './plan-one-order.js';
import { PlanningBacklog, type WaitingOrder } from './planning-backlog.js';
import { consolidates } from '../orders/consolidation-rule.js';
import type { SubmittedHere } from './submitted-here.js';

const CONSUMER = 'planning';

/** The events that give an order a version to plan. */
const NEEDS_PLAN = ['OrderSubmitted', 'OrderAmended', 'OrderPlanWithdrawn'];

/** The version a result settles (a cancel: every version). */
function resolvedVersion(event: RecordedOrderEvent<'OrderPlanned' | 'OrderPlanningFailed' | 'OrderCancelled'>): number {
  return event.type === 'OrderCancelled' ? Number.POSITIVE_INFINITY : (event.data.version ?? 0);
}

/** Per order, the highest version a page settles: a result for it, or a cancel (every version). */
function settledIn(events: readonly RecordedEvent[]): Map<number, number> {
  const settled = new Map<number, number>();
  for (const event of events) {
    if (isOrderEvent(event, 'OrderPlanned') || isOrderEvent(event, 'OrderPlanningFailed') || isOrderEvent(event, 'OrderCancelled')) {
      const version = resolvedVersion(event);
      settled.set(event.data.order_id, Math.max(version, settled.get(event.data.order_id) ?? -1));
    }
  }
  return settled;
}

export type { OrderPlanner, PlannerRunOutcome } from './plan-one-order.js';

export interface PlanningReactorOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  leases: PlanningLeases;
  planner: OrderPlanner;
  /** Orders planned at once; the planner's worker pool size is the useful value. */
  concurrency: number;
  log: (message: string, error?: unknown, level?: 'info' | 'warn' | 'error') => void;
  /** Called after each order's result is stored (metrics, tests). */
  onPlanned?: (event: OrderPlanned | OrderPlanningFailed, ms: number) => void;
  /** Called after each planner run, whatever became of its result. */
  onRun?: (outcome: PlannerRunOutcome) => void;
  /**
   * The orders whose submit this process took. Given, another replica's new order is left to it for
   * OTHERS_FIRST_MS before this one tries its lease; without it every order is tried at once.
   */
  submittedHere?: SubmittedHere;
  /** OTHERS_FIRST_MS unless given (tests). */
  othersFirstMs?: number;
}

export interface PlanningReactor {
  /** Orders read from the log and not yet planned (here or, as far as this replica knows, by another), and the company groups waiting here. */
  backlog(): { orders: number; groups: number };
  stop(): Promise<void>;
}

/**
 * Orders read ahead of the planner at most. Each waiting order is a few dozen bytes (its position,
 * stream and group: the order itself is read again when its turn comes), so this is a few MiB.
 * Past it the reactor stops reading the log until the planner catches up; only a group whose
 * orders lie beyond this window can then wait behind another group's.
 */
export const MAX_WAITING_ORDERS = 20_000;

/**
 * How long a new order whose submit another replica took is left to that replica. It plans its own
 * orders first, and usually stores the result within this (most plans take a fraction of it), so the
 * others never try the lease: each try is a statement on the work lease store, and with every replica
 * trying every order they were most of what a replica that does not project spent (docs/scaling.md).
 * Past it, or for an order older than it (a catch-up, a restart), any replica with a free planner
 * takes it, as before: a submitting replica that is busy or gone costs its orders this much at most.
 */
export const OTHERS_FIRST_MS = 250;

export async function startPlanningReactor(options: PlanningReactorOptions): Promise<PlanningReactor> {
  const { store, checkpoints, leases, log } = options;
  const backlog = new PlanningBacklog(MAX_WAITING_ORDERS);
  // a checkpoint that fails to save costs only a re-read of orders that have their result
  const checkpoint = checkpointWriter(checkpoints, CONSUMER, (error) =>
    log('planning reactor: saving the checkpoint failed', error, 'warn'),
  );
  const stopped = new AbortController();

  const follower = await followLog({
    store,
    name: 'planning reactor',
    loadCheckpoint: () => checkpoints.load(CONSUMER),
    retryDelayMs: 1000,
    // The results and cancels too: an order another replica planned, or one called off, is then finished here without reading its stream.
    types: [...NEEDS_PLAN, 'OrderPlanned', 'OrderPlanningFailed', 'OrderCancelled'],
    // A result only saves a look again, due half a lease later: it can wait for the next order's commit or the poll.
    wakeOn: NEEDS_PLAN,
    handle: (events) => admitPage(events, backlog, checkpoint, options),
    log,
  });

  async function work(): Promise<void> {
    for (let next = await backlog.next(); next; next = await backlog.next()) {
      const planned = next.resolved ? 'done' : await planWithRetry(next, options, backlog, stopped.signal);
      backlog.release();
      if (planned === undefined) return; // stopping: the order is planned again on the next start
      if (planned === 'held elsewhere') {
        if (backlog.stopping) return;
        // by half a lease from now its holder has stored the result, or renewed, or died and let it run out
        backlog.lookAgainIn(next, leases.leaseMs / 2);
        continue;
      }
      const mark = backlog.finished(next);
      if (mark !== undefined) checkpoint.save(mark);
    }
  }

  const workers = Array.from({ length: Math.max(1, options.concurrency) }, () => work());

  return {
    backlog: () => backlog.counts(),
    async stop() {
      backlog.stop();
      stopped.abort();
      await follower.stop();
      // idle workers wake and see it stopping; a worker that is planning finishes its order first
      backlog.wakeWorkers();
      await Promise.all(workers);
      await checkpoint.settled();
      // after the workers: a plan in progress let go of its own lease when it ended
      await leases.releaseAll().catch((error: unknown) => log('planning reactor: releasing its leases failed', error, 'warn'));
    },
  };
}

/** Plans one order, again after each failure; undefined when stopping cut it short. */
async function planWithRetry(
  order: WaitingOrder,
  options: PlanningReactorOptions,
  backlog: PlanningBacklog,
  signal: AbortSignal,
): Promise<'done' | 'held elsewhere' | undefined> {
  const planned = await retryWithBackoff(() => planOrderOnce(order.stream, { ...options, stopping: () => backlog.stopping }), {
    firstDelayMs: 1000,
    signal,
    onFailure(error, failures, delay) {
      options.log(
        `planning reactor: planning the order at position ${order.position} failed (${failures} time(s)); trying again in ${delay} ms`,
        error,
      );
    },
  });
  return planned?.value;
}

/**
 * One page of the log: each version of an order to plan admitted to the backlog (unless the page settles
 * it already), each result or cancel finishing what waits for it. Returns early when the backlog stops.
 */
async function admitPage(
  events: RecordedEvent[],
  backlog: PlanningBacklog,
  checkpoint: CheckpointWriter,
  options: Pick<PlanningReactorOptions, 'submittedHere' | 'othersFirstMs'>,
): Promise<void> {
  // A result in the same page (a replay, or a consolidated shipment recorded with its plan) means no work at all.
  const settled = settledIn(events);
  for (const event of events) {
    if (isOrderEvent(event, 'OrderSubmitted')) {
      const { company_group, order_id } = event.data;
      // asked of every order, so that none stays remembered
      const here = options.submittedHere?.checkOff(order_id) ?? true;
      // planned by its consolidation window (src/consolidation), or planned already
      if (consolidates(event.data) || (settled.get(order_id) ?? -1) >= 0) continue;
      const order = { position: event.position, stream: event.stream, group: company_group, orderId: order_id, version: 0 };
      const afterMs = here ? 0 : leftToItsReplicaMs(event.recordedAt, options.othersFirstMs ?? OTHERS_FIRST_MS);
      if (!(await backlog.admit(order, afterMs))) return;
    } else if (isOrderEvent(event, 'OrderAmended') || isOrderEvent(event, 'OrderPlanWithdrawn')) {
      // a new version of the order, planned alone (it left any window), by whichever replica leases it first
      const { order_id, version, company_group } = event.data;
      if ((settled.get(order_id) ?? -1) >= version) continue;
      const order = { position: event.position, stream: event.stream, group: company_group, orderId: order_id, version };
      if (!(await backlog.admit(order))) return;
    } else if (isOrderEvent(event, 'OrderPlanned') || isOrderEvent(event, 'OrderPlanningFailed') || isOrderEvent(event, 'OrderCancelled')) {
      const mark = backlog.resolve(event.data.order_id, resolvedVersion(event));
      if (mark !== undefined) checkpoint.save(mark);
    }
  }
  backlog.wakeWorkers();
}

/** How long to leave an order another replica took the submit of to that replica: 0 once it is not new. */
function leftToItsReplicaMs(recordedAt: Date, pause: number): number {
  // recorded by the log's clock; a replica's clock off by more than the pause only shortens or caps it
  return Math.min(pause, Math.max(0, pause - (Date.now() - recordedAt.getTime())));
}
