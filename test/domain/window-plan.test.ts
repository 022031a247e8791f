// Which plan a window keeps, what it records, and each child's share of a shared plan.
import t from 'tap';
import { childPlan } from '../../src/consolidation/parent-order.js';
import { plannedAlone, plannedJointly, plansTogether, savesContainers } from '../../src/consolidation/window-plan.js';
import { compactPlan } from '../../src/plan-contract/plan-storage.js';
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';
import { emptyPlan } from '../support/plans.js';

/** A plan in `containers` containers that left `left` units behind; only the counts matter here. */
function plan(containers: number, left = 0): OrderPlan {
  return {
    ...emptyPlan(),
    containers: Array.from({ length: containers }, () => ({ placements: [] }) as never),
    unplaced: left > 0 ? [{ count: left } as never] : [],
  };
}

t.test('a window of one order is planned alone; two or more, together too', async (t) => {
  t.notOk(plansTogether(1));
  t.ok(plansTogether(2));
});

t.test('together only when it takes fewer containers and leaves no more cargo behind', async (t) => {
  t.ok(savesContainers({ alone: [plan(1), plan(1), plan(1)], together: plan(1) }), 'one container for three');
  t.notOk(savesContainers({ alone: [plan(1), plan(1)], together: plan(2) }), 'as many containers: alone');
  t.notOk(savesContainers({ alone: [plan(1), plan(1)], together: plan(1, 5) }), 'fewer containers but cargo left behind: alone');
  t.ok(savesContainers({ alone: [plan(1, 3), plan(1, 2)], together: plan(1, 5) }), 'as much left behind as alone: together');
});

t.test('the recorded decision', async (t) => {
  const alone = plannedAlone('consolidation-SO-000001', [plan(2)], '2026-11-24T10:00:06.000000', [
    { stream: 'order:G:R-1', service_ref: 'SO-000001' },
  ]);
  t.match(alone, { decision: 'alone', containers_together: null, containers_alone: 2, parent: null, together: null, pallet_owners: [] });
  t.same(alone.alone, [compactPlan(plan(2))]);

  // the first order's two pallets and the second's one
  const plans = { alone: [plan(1), plan(1)], together: plan(1), palletsOf: [[{}, {}], [{}]] as never[][] };
  const parent = { order_id: 9, service_ref: 'SO-000009' };
  const two = [
    { stream: 'order:G:R-1', service_ref: 'SO-000001' },
    { stream: 'order:G:R-2', service_ref: 'SO-000002' },
  ];
  t.match(plannedJointly('consolidation-SO-000001', two, plans, parent, '2026-11-24T10:00:06.000000'), {
    decision: 'together',
    containers_together: 1,
    containers_alone: 2,
    parent: { order_id: 9, service_ref: 'SO-000009', reference: 'CONSOLIDATED-SO-000009' },
    pallet_owners: ['SO-000001', 'SO-000001', 'SO-000002'],
    orders: two,
  });
  t.match(
    plannedJointly('consolidation-SO-000001', two, plans, undefined, '2026-11-24T10:00:06.000000'),
    {
      decision: 'alone',
      containers_together: 1,
      containers_alone: 2,
      parent: null,
      together: null,
      pallet_owners: [],
    },
    'no parent: each alone, the joint plan only counted',
  );
});

t.test("a child's share of the shared plan: its own pallets and unplaced cargo, its units as planned alone", async (t) => {
  const together: OrderPlan = {
    ...plan(1),
    pallets: [{ ref: 'AP1' }, { ref: 'AP2' }, { ref: 'AP3' }] as never[],
    unplaced: [
      { order: 'SO-000001', count: 2 },
      { order: 'SO-000002', count: 1 },
    ] as never[],
    metrics: { ...emptyPlan().metrics, pallet_count: 3, units: 90 },
  };
  const owners = ['SO-000001', 'SO-000002', 'SO-000001'];
  const alone = compactPlan({ ...plan(1), metrics: { ...emptyPlan().metrics, units: 60 } });
  const mine = childPlan(together, owners, 'SO-000001', alone);
  t.same(mine.pallets, [{ ref: 'AP1' }, { ref: 'AP3' }]);
  t.same(mine.unplaced, [{ order: 'SO-000001', count: 2 }]);
  t.match(mine.metrics, { pallet_count: 2, units: 60 });
  t.equal(mine.containers, together.containers, 'the shared containers');
  t.equal(childPlan(together, owners, 'SO-000002', undefined).metrics.units, 90, 'no plan alone: the shared count');
});
