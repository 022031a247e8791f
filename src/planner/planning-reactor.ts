// Plans every submitted order once: reacts to OrderSubmitted in the log, runs the load planner and
// appends OrderPlanned or OrderPlanningFailed to the order's stream. The checkpoint saves work on
// restart; what makes "once" hold after a crash is the order's decider: an order whose stream
// already holds a result is skipped, and a second result records nothing.
import { AppendTooLarge, type EventStore, type RecordedEvent } from '../eventstore/event-store.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { followLog } from '../eventstore/follow-log.js';
import type { LaneDocument } from '../master-data/master-data-document.js';
import type { OrderPlanned, OrderPlanningFailed, OrderSubmitted } from '../orders/order-events.js';
import type { SubmitOrderPayload } from '../orders/submit-order-payload.js';
import { utcTimestamp } from '../orders/clock.js';
import { handleOrderCommand, orderStateOf } from '../orders/handle-order-command.js';
import { awaitsPlan, type RecordPlanResult } from '../orders/order-decider.js';
import { JobTimeoutError } from '../workers/worker-pool.js';
import type { OrderPlan } from './plan-types.js';
import { compactPlan } from './plan-storage.js';

const CONSUMER = 'planning';

export interface OrderPlanner {
  plan(input: { lane: LaneDocument; order: SubmitOrderPayload }): Promise<OrderPlan>;
}

export interface PlanningReactorOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  planner: OrderPlanner;
  /** Orders planned at once; the planner's worker pool size is the useful value. */
  concurrency: number;
  log: (message: string, error?: unknown, level?: 'info' | 'warn' | 'error') => void;
  /** Called after each order's result is stored (metrics, tests). */
  onPlanned?: (event: OrderPlanned | OrderPlanningFailed, ms: number) => void;
}

export interface PlanningReactor {
  stop(): Promise<void>;
}

export async function startPlanningReactor(options: PlanningReactorOptions): Promise<PlanningReactor> {
  const { store, checkpoints, log } = options;
  let stopping = false;

  const follower = await followLog({
    store,
    name: 'planning reactor',
    loadCheckpoint: () => checkpoints.load(CONSUMER),
    retryDelayMs: 1000,
    types: ['OrderSubmitted'],
    async handle(events) {
      await forEachConcurrently(events, options.concurrency, (event) => planOnce(event));
      if (stopping) return; // a plan cut short by shutdown is redone on the next start
      await checkpoints.save(CONSUMER, events[events.length - 1]!.position);
    },
    log,
  });

  async function planOnce(event: RecordedEvent): Promise<void> {
    const submitted = event.data as OrderSubmitted['data'];
    if (!awaitsPlan(orderStateOf(await store.readStream(event.stream)))) return;
    const started = performance.now();
    let result: RecordPlanResult['data'];
    try {
      // stored compact: identical units as blocks, identical pallets once (plan-storage.ts)
      const plan = compactPlan(await options.planner.plan({ lane: submitted.lane, order: submitted.order }));
      result = { plan, planned_at: utcTimestamp() };
    } catch (error) {
      if (stopping) throw error;
      result = { reason: failureReason(error), failed_at: utcTimestamp() };
      if (!(error instanceof JobTimeoutError)) log(`planning ${submitted.service_ref} failed`, error);
    }
    // Another instance may have stored its result meanwhile: then the decider records nothing.
    let recorded;
    try {
      recorded = await handleOrderCommand(store, event.stream, { type: 'RecordPlanResult', data: result });
    } catch (error) {
      // A plan too large for the store would be retried for ever and hold up every later order: the
      // order fails instead, with the reason, and planning goes on.
      if (!(error instanceof AppendTooLarge) || !('plan' in result)) throw error;
      recorded = await handleOrderCommand(store, event.stream, { type: 'RecordPlanResult', data: { reason: `the plan is too large to store (${error.message})`, failed_at: utcTimestamp() } });
    }
    if (!recorded.ok) throw new Error(`planning ${event.stream}: ${JSON.stringify(recorded.errors)}`);
    const [outcome] = recorded.events as (OrderPlanned | OrderPlanningFailed)[];
    if (!outcome) return;
    const ms = Math.round(performance.now() - started);
    if (outcome.type === 'OrderPlanned') log(`plan stored for ${submitted.service_ref} (order ${submitted.order_id}) in ${ms} ms`);
    else log(`planning ${submitted.service_ref} (order ${submitted.order_id}) failed after ${ms} ms: ${outcome.data.reason}`, undefined, 'warn');
    options.onPlanned?.(outcome, performance.now() - started);
  }

  return {
    async stop() {
      stopping = true;
      await follower.stop();
    },
  };
}

async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
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
