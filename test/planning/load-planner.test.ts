import t from 'tap';
import { LoadPlanner } from '../../src/planning/load-planner.js';
import { plannerInput } from '../../src/planning/planner-input.js';
import { validatePlan } from '../../src/planner/checks/validate-plan.js';
import { seededOrder } from '../../bench/lib/seeded-orders.js';
import { item, lane, line, order } from '../planner/fixtures.js';
import { planChecked, withoutTiming } from '../planner/plan.js';
import { compactPlan, expandPlan } from '../../src/plan-contract/plan-storage.js';

t.test('LoadPlanner plans in workers: same plan as in this thread, valid, serializable', async (t) => {
  const planner = new LoadPlanner({ threads: 2 });
  t.teardown(() => planner.close());
  const input = {
    lane: lane([item('A', 40, 30, 25, 9.5), item('B', 30, 20, 20, 3, true)]),
    order: order({ order_items: [line('A', 90), line('B', 70)] }),
    seed: 3,
  };
  const [a, b] = await Promise.all([planner.plan(plannerInput(input)), planner.plan(plannerInput(input))]);
  t.same(validatePlan(input, a), []);
  t.same(withoutTiming(a), withoutTiming(b), 'two workers, same plan');
  t.same(withoutTiming(a), withoutTiming(planChecked(t, input)), 'a worker plans as this thread does');
  t.same(JSON.parse(JSON.stringify(a)), a);
});

t.test('planStored answers with the plan as stored, compacted in the worker: the same plan, a fraction of the bytes', async (t) => {
  const planner = new LoadPlanner({ threads: 1 });
  t.teardown(() => planner.close());
  // pallets of many identical units: what compacting shrinks
  const input = {
    lane: lane([item('A', 40, 30, 25, 9.5), item('B', 30, 20, 20, 3)]),
    order: order({ order_items: [line('A', 240), line('B', 300)] }),
    seed: 5,
  };
  const whole = await planner.plan(plannerInput(input));
  const stored = await planner.planStored(plannerInput(input));
  t.same(withoutTiming(expandPlan(stored)), withoutTiming(whole), 'expanded, the stored plan is the whole plan');
  t.same(withoutTiming(expandPlan(stored)), withoutTiming(expandPlan(compactPlan(whole))), 'as compactPlan stores it here');
  t.same(validatePlan(input, expandPlan(stored)), []);
  const bytes = (value: unknown) => JSON.stringify(value).length;
  t.ok(bytes(stored) * 4 < bytes(whole), `stored ${bytes(stored)} bytes against ${bytes(whole)} whole`);
});

t.test('the time limit stops a large plan early with a valid plan', async (t) => {
  // Effort-bound, this plan would run for seconds, far past the limit. The grace is wide so that a machine busy with other
  // work (wall clock slowed tenfold) cannot turn the test into a stopped worker; what is tested is
  // that the searches stop themselves at the limit and a valid plan still comes back.
  const planner = new LoadPlanner({ threads: 1, timeLimitMs: 150, effort: 1_000_000, graceMs: 30_000 });
  t.teardown(() => planner.close());
  const input = seededOrder(11, { skus: 40, units: 4000 });
  await planner.plan(plannerInput(seededOrder(12, { skus: 5, units: 50 }))); // the worker is up
  const t0 = performance.now();
  const plan = await planner.plan(plannerInput(input));
  const ms = performance.now() - t0;
  t.ok(plan.metrics.time_limited, 'the plan says the limit cut it short');
  t.ok(ms < 10_000, `answered in ${ms.toFixed(0)} ms, well short of an effort-bound plan`);
  t.same(validatePlan(input, plan), []);
  t.equal(
    plan.pallets.reduce((s, p) => s + p.units.length, 0),
    plan.metrics.units,
    'still every unit on a pallet',
  );
});

t.test('a closed planner refuses new plans', async (t) => {
  const planner = new LoadPlanner({ threads: 1 });
  await planner.close();
  await t.rejects(planner.plan(plannerInput({ lane: lane([]), order: order({}) })), /closed/);
});
