// Plans an order in this thread and checks it with the independent validator: every planner
// test goes through here, so no plan escapes validation.
import type { Test } from 'tap';
import { DEFAULT_EFFORT, planOrder } from '../../src/planner/plan-order.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';
import { plannerInput, type LaneOrder } from '../../src/planning/planner-input.js';
import { validatePlan } from '../../src/planner/checks/validate-plan.js';

let wasm: PlannerWasm | undefined;

export function planChecked(t: Test, input: LaneOrder, effort = DEFAULT_EFFORT, timeLimitMs = 30_000): OrderPlan {
  wasm ??= new PlannerWasm();
  const plan = planOrder(wasm, plannerInput(input), { timeLimitMs, effort });
  t.same(validatePlan(input, plan), [], 'the validator finds no violation');
  return plan;
}

/**
 * The plan without its timing and what the planner thread's caches saved it (a job answered from
 * a cache runs no search, so counts none), for comparing two runs.
 */
export function withoutTiming(plan: OrderPlan): unknown {
  const { caches: _caches, search_exits: _exits, ...metrics } = plan.metrics;
  return { ...plan, metrics: { ...metrics, planner_ms: 0 } };
}
