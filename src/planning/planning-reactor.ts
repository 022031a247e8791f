// Plans every submitted order once: reacts to OrderSubmitted in the log, runs the load planner and
// appends OrderPlanned or OrderPlanningFailed to the order's stream. Every replica follows the whole
// log, but plans only the orders it claims (planning-claims.ts): an order another replica holds is
// looked at again later, and taken over if that replica died. The checkpoint saves work on restart;
// what makes "once" hold after a crash or a lost claim is the order's decider: an order whose stream
// already holds a result is skipped, and a second result records nothing.
import { AppendTooLarge, type EventStore, type RecordedEvent } from '../eventstore/event-store.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { followLog } from '../eventstore/follow-log.js';
import { retryWithBackoff } from '../eventstore/retry-with-backoff.js';
import type { OrderPlanned, OrderPlanningFailed } from '../orders/order-events.js';
import { isOrderEvent, readOrderStream, submittedIn } from '../orders/read-order-stream.js';
import { utcTimestamp } from '../orders/clock.js';
import { handleOrderCommand, orderStateOf } from '../orders/handle-order-command.js';
import { awaitsPlan, type RecordPlanResult } from '../orders/order-decider.js';
import { JobTimeoutError } from '../workers/worker-pool.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import type { PlanOrderInput } from '../plan-contract/planner-input.js';
import { plannerInput } from './planner-input.js';
import { compactPlan } from '../plan-contract/plan-storage.js';
import { FairQueue } from '../workers/fair-queue.js';
import { checkpointWriter } from '../checkpoints/checkpoint-writer.js';
import { CompletionMark } from './completion-mark.js';
import { consolidates } from '../orders/consolidation-rule.js';
import type { PlanningClaims } from './planning-claims.js';

const CONSUMER = 'planning';

export interface OrderPlanner {
  /** `group`: the order's company group; the planner serves groups in turn. */
  plan(input: PlanOrderInput, group: string): Promise<OrderPlan>;
}

/** What became of one planner run: `discarded` when another replica had stored the order's result first. */
export type PlannerRunOutcome = 'stored' | 'failed' | 'discarded';

export interface PlanningReactorOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  claims: PlanningClaims;
  planner: OrderPlanner;
  /** Orders planned at once; the planner's worker pool size is the useful value. */
  concurrency: number;
  log: (message: string, error?: unknown, level?: 'info' | 'warn' | 'error') => void;
  /** Called after each order's result is stored (metrics, tests). */
  onPlanned?: (event: OrderPlanned | OrderPlanningFailed, ms: number) => void;
  /** Called after each planner run, whatever became of its result. */
  onRun?: (outcome: PlannerRunOutcome) => void;
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

interface Waiting {
  position: bigint;
  stream: string;
  group: string;
}

export async function startPlanningReactor(options: PlanningReactorOptions): Promise<PlanningReactor> {
  const { store, checkpoints, claims, log } = options;
  let stopping = false;
  // Fair across company groups: one line per group, served in turn (fair-queue.ts). The checkpoint
  // is the last position below which every order has its result, so a crash redoes only orders
  // without one, and the order decider records nothing for an order that has one already.
  const waiting = new FairQueue<Waiting>();
  const marks = new CompletionMark();
  let lastTaken: bigint | undefined;
  let planning = 0;
  const idleWorkers: (() => void)[] = [];
  const wakeWorkers = (): void => { for (const wake of idleWorkers.splice(0)) wake(); };
  let wakeReader: (() => void) | undefined;
  // a checkpoint that fails to save costs only a re-read of orders that have their result
  const checkpoint = checkpointWriter(checkpoints, CONSUMER, (error) => log('planning reactor: saving the checkpoint failed', error, 'warn'));
  const stopped = new AbortController();
  // orders another replica holds, to be looked at again
  const lookAgain = new Set<NodeJS.Timeout>();

  const follower = await followLog({
    store,
    name: 'planning reactor',
    loadCheckpoint: () => checkpoints.load(CONSUMER),
    retryDelayMs: 1000,
    types: ['OrderSubmitted'],
    async handle(events) {
      for (const event of events) {
        // after a resubscription the log comes again from the checkpoint: orders already taken stay as they are
        if (!isOrderEvent(event, 'OrderSubmitted') || (lastTaken !== undefined && event.position <= lastTaken)) continue;
        while (waiting.length + planning >= MAX_WAITING_ORDERS && !stopping) await new Promise<void>((resolve) => { wakeReader = resolve; });
        if (stopping) return;
        const { company_group } = event.data;
        waiting.push(company_group, { position: event.position, stream: event.stream, group: company_group });
        marks.take(event.position);
        lastTaken = event.position;
      }
      wakeWorkers();
    },
    log,
  });

  async function work(): Promise<void> {
    while (!stopping) {
      const next = waiting.shift();
      if (!next) {
        await new Promise<void>((resolve) => idleWorkers.push(resolve));
        continue;
      }
      planning += 1;
      const planned = await planWithRetry(next);
      planning -= 1;
      wakeReader?.();
      if (planned === undefined) return; // stopping: the order is planned again on the next start
      if (planned === 'held elsewhere') {
        if (stopping) return;
        // by half a lease from now its holder has stored the result, or renewed, or died and let it run out
        const timer = setTimeout(() => {
          lookAgain.delete(timer);
          // before its group's later orders: it would otherwise wait behind the whole group's backlog
          waiting.pushFront(next.group, next);
          wakeWorkers();
        }, claims.leaseMs / 2);
        lookAgain.add(timer);
        continue;
      }
      const mark = marks.finish(next.position);
      if (mark !== undefined) checkpoint.save(mark);
    }
  }

  /** Undefined when stopping cut it short. */
  async function planWithRetry(order: Waiting): Promise<'done' | 'held elsewhere' | undefined> {
    const planned = await retryWithBackoff(() => planOnce(order), {
      firstDelayMs: 1000,
      signal: stopped.signal,
      onFailure(error, failures, delay) {
        log(`planning reactor: planning the order at position ${order.position} failed (${failures} time(s)); trying again in ${delay} ms`, error);
      },
    });
    return planned?.value;
  }

  async function planOnce(order: Waiting): Promise<'done' | 'held elsewhere'> {
    // Without a claim first: an order already planned (looked at again, or a replay) costs one read.
    const before = await readOrderStream(store, order.stream);
    const submitted = submittedIn(before);
    if (!submitted || !awaitsPlan(orderStateOf(before))) return 'done';
    // a normal order of a lane with a consolidation window is planned by its window (src/consolidation)
    if (consolidates(submitted)) return 'done';
    const held = await claims.whileHeld(order.stream, () => planHeld(order));
    return held.held ? 'done' : 'held elsewhere';
  }

  /** Plans the order, claimed: read again, as the holder before may have stored its result and let go. */
  async function planHeld(order: Waiting): Promise<void> {
    const history = await readOrderStream(store, order.stream);
    const submitted = submittedIn(history);
    if (!submitted || !awaitsPlan(orderStateOf(history))) return;
    const started = performance.now();
    let result: RecordPlanResult['data'];
    try {
      // stored compact: identical units as blocks, identical pallets once (src/plan-contract/plan-storage.ts)
      const plan = compactPlan(await options.planner.plan(plannerInput(submitted), submitted.company_group));
      result = { plan, planned_at: utcTimestamp() };
    } catch (error) {
      if (stopping) throw error;
      result = { reason: failureReason(error), failed_at: utcTimestamp() };
      if (!(error instanceof JobTimeoutError)) log(`planning ${submitted.service_ref} failed`, error);
    }
    // Another instance may have stored its result meanwhile (its lease ran out while this one planned):
    // the append, expecting the stream as read under the claim, then fails, and the decider, on the
    // stream read again, records nothing. Not read again first: while the claim holds, nothing is added.
    let recorded;
    try {
      recorded = await handleOrderCommand(store, order.stream, { type: 'RecordPlanResult', data: result }, history);
    } catch (error) {
      // A plan too large for the store would be retried for ever and hold up every later order: the
      // order fails instead, with the reason, and planning goes on.
      if (!(error instanceof AppendTooLarge) || !('plan' in result)) throw error;
      recorded = await handleOrderCommand(store, order.stream, { type: 'RecordPlanResult', data: { reason: `the plan is too large to store (${error.message})`, failed_at: utcTimestamp() } });
    }
    if (!recorded.ok) throw new Error(`planning ${order.stream}: ${JSON.stringify(recorded.errors)}`);
    const [outcome] = recorded.events as (OrderPlanned | OrderPlanningFailed)[];
    options.onRun?.(!outcome ? 'discarded' : outcome.type === 'OrderPlanned' ? 'stored' : 'failed');
    if (!outcome) return;
    const ms = Math.round(performance.now() - started);
    if (outcome.type === 'OrderPlanned') log(`plan stored for ${submitted.service_ref} (order ${submitted.order_id}) in ${ms} ms`);
    else log(`planning ${submitted.service_ref} (order ${submitted.order_id}) failed after ${ms} ms: ${outcome.data.reason}`, undefined, 'warn');
    options.onPlanned?.(outcome, performance.now() - started);
  }

  const workers = Array.from({ length: Math.max(1, options.concurrency) }, () => work());

  return {
    backlog: () => ({ orders: waiting.length + planning + lookAgain.size, groups: waiting.depths().size }),
    async stop() {
      stopping = true;
      stopped.abort();
      for (const timer of lookAgain) clearTimeout(timer);
      wakeReader?.();
      await follower.stop();
      // idle workers wake and see `stopping`; a worker that is planning finishes its order first
      wakeWorkers();
      await Promise.all(workers);
      await checkpoint.settled();
      // after the workers: a plan in progress let go of its own claim when it ended
      await claims.releaseAll().catch((error: unknown) => log('planning reactor: releasing the claims failed', error, 'warn'));
    },
  };
}

// The reason is shown to the client (pallet contents, the order's history): it says what happened
// in the client's terms, and an internal error's own text ("Invalid array length") stays in the log.
function failureReason(error: unknown): string {
  if (error instanceof JobTimeoutError) {
    return `The load planner could not finish this order within its time limit (${error.limitMs} ms); split it into smaller orders.`;
  }
  // The planner's own refusal (too many units for one plan) is written for the client already.
  const message = error instanceof Error ? error.message : '';
  if (/^the order has \d+ units; the load planner takes at most \d+ in one plan$/.test(message)) return message;
  return 'The load planner failed on this order because of an internal error; the operator has it in the log.';
}
