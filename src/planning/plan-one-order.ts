// One order's planning, from its stream read to its result stored: the steps a planning reactor's
// worker takes for each order it is handed. "Once" holds whatever the replicas do: an order whose
// stream holds a result is skipped, the planner runs only under the order's lease, and the order's
// decider records nothing for an order that has its result already.
import { AppendTooLarge, type EventStore } from '../eventstore/event-store.js';
import type { OrderPlanned, OrderPlanningFailed } from '../orders/order-events.js';
import { currentOrderIn, readOrderStream } from '../orders/read-order-stream.js';
import { utcTimestamp } from '../orders/clock.js';
import { handleOrderCommand, orderStateOf } from '../orders/handle-order-command.js';
import { awaitsPlan, type RecordPlanResult } from '../orders/order-decider.js';
import { JobTimeoutError } from '../workers/worker-pool.js';
import { plannerInput } from './planner-input.js';
import type { StoredPlan } from '../plan-contract/plan-storage.js';
import { awaitsItsWindow } from '../orders/consolidation-rule.js';
import type { PlanOrderInput } from '../plan-contract/planner-input.js';
import type { PlanningLeases } from '../leases/planning-leases.js';

export interface OrderPlanner {
  /** The plan as stored (compactPlan); `group`: the order's company group; the planner serves groups in turn. */
  planStored(input: PlanOrderInput, group: string): Promise<StoredPlan>;
}

/**
 * What became of one planner run: `discarded` when another replica had stored the order's result first;
 * `superseded` when the order was amended or cancelled while it planned (no replica plans a version twice,
 * but a change can land after a run began: its result is not the order's any more).
 */
export type PlannerRunOutcome = 'stored' | 'failed' | 'discarded' | 'superseded';

export interface OrderPlanningSteps {
  store: EventStore;
  leases: PlanningLeases;
  planner: OrderPlanner;
  log: (message: string, error?: unknown, level?: 'info' | 'warn' | 'error') => void;
  onPlanned?: ((event: OrderPlanned | OrderPlanningFailed, ms: number) => void) | undefined;
  onRun?: ((outcome: PlannerRunOutcome) => void) | undefined;
  /** Whether the reactor is stopping: a planner run it cut short is not the order's failure. */
  stopping(): boolean;
}

/**
 * 'held elsewhere': another replica holds the order's lease, and this one should look again later.
 * The lease comes first and the stream is read under it: of the replicas that race for a new order,
 * only the one that wins reads it. (An order planned already is seldom handed out: the reactor drops
 * orders whose result it has read from the log.)
 */
export async function planOrderOnce(stream: string, steps: OrderPlanningSteps): Promise<'done' | 'held elsewhere'> {
  const held = await steps.leases.whileHeld(stream, () => planHeld(stream, steps));
  return held.held ? 'done' : 'held elsewhere';
}

/** Plans the order, leased: read under the lease, as a holder before may have stored its result and let go. */
async function planHeld(stream: string, steps: OrderPlanningSteps): Promise<void> {
  const { store, log } = steps;
  const history = await readOrderStream(store, stream);
  // the order as it stands: as submitted, or as last amended (its version goes with the result)
  const submitted = currentOrderIn(history);
  // a normal order of a lane with a consolidation window is planned by its window (src/consolidation)
  if (!submitted || !awaitsPlan(orderStateOf(history)) || awaitsItsWindow(submitted)) return;
  const started = performance.now();
  let result: RecordPlanResult['data'];
  try {
    // stored compact: identical units as blocks, identical pallets once (src/plan-contract/plan-storage.ts)
    const plan = await steps.planner.planStored(plannerInput(submitted), submitted.company_group);
    result = { plan, planned_at: utcTimestamp(), version: submitted.version };
  } catch (error) {
    if (steps.stopping()) throw error;
    result = { reason: failureReason(error), failed_at: utcTimestamp(), version: submitted.version };
    if (!(error instanceof JobTimeoutError)) log(`planning ${submitted.service_ref} failed`, error);
  }
  // Another instance may have stored its result meanwhile (its lease ran out while this one planned), or
  // the client amended or cancelled the order (which takes no lease): the append, expecting the stream as
  // read under the lease, then fails, and the decider, on the stream read again, records nothing (a
  // result is kept only for the version it was planned for). Not read again first: an append that
  // finds the stream as read needs no second look.
  let recorded: Awaited<ReturnType<typeof handleOrderCommand>>;
  try {
    recorded = await handleOrderCommand(store, stream, { type: 'RecordPlanResult', data: result }, history);
  } catch (error) {
    // A plan too large for the store would be retried for ever and hold up every later order: the
    // order fails instead, with the reason, and planning goes on.
    if (!(error instanceof AppendTooLarge) || !('plan' in result)) throw error;
    recorded = await handleOrderCommand(store, stream, {
      type: 'RecordPlanResult',
      data: { reason: `the plan is too large to store (${error.message})`, failed_at: utcTimestamp(), version: submitted.version },
    });
  }
  if (!recorded.ok) throw new Error(`planning ${stream}: ${JSON.stringify(recorded.errors)}`);
  const [outcome] = recorded.events as (OrderPlanned | OrderPlanningFailed)[];
  if (!outcome) {
    steps.onRun?.((await changedSince(store, stream, submitted.version)) ? 'superseded' : 'discarded');
    return;
  }
  steps.onRun?.(outcome.type === 'OrderPlanned' ? 'stored' : 'failed');
  const ms = Math.round(performance.now() - started);
  if (outcome.type === 'OrderPlanned') log(`plan stored for ${submitted.service_ref} (order ${submitted.order_id}) in ${ms} ms`);
  else
    log(`planning ${submitted.service_ref} (order ${submitted.order_id}) failed after ${ms} ms: ${outcome.data.reason}`, undefined, 'warn');
  steps.onPlanned?.(outcome, performance.now() - started);
}

/** The order was cancelled, or is at another version than the one planned (read only when a result was not kept). */
async function changedSince(store: EventStore, stream: string, version: number): Promise<boolean> {
  const state = orderStateOf(await readOrderStream(store, stream));
  return state.status === 'cancelled' || state.version !== version;
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
