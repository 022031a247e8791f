// Orders planned together (issue 17): each order's pallets hold its own units only, the shared
// containers take everything, every placement names its order, and the joint plan passes the
// independent validator as the plan of the orders put together.
import t from 'tap';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { planTogether, sharedContainers } from '../../src/planner/plan-together.js';
import { validatePlan } from '../../src/planner/checks/validate-plan.js';
import { togetherInput } from '../../src/planning/planner-input.js';
import { item, lane, line, order, preBuilt, looseBox } from './fixtures.js';

const wasm = new PlannerWasm();
const theLane = lane([item('SKU-1', 40, 30, 25, 9.5), item('SKU-2', 40, 30, 25, 9.5), item('SKU-3', 60, 40, 30, 14, true)]);
const orders = [
  { service_ref: 'SO-000001', order: order({ order_items: [line('SKU-1', 512)], order_containers: [{ code: '40ft', count: 5 }] }) },
  {
    service_ref: 'SO-000002',
    order: order({
      order_items: [line('SKU-2', 512)],
      pre_builts: [preBuilt('Crate', 120, 80, 100, 300, 2)],
      order_containers: [{ code: '40ft', count: 5 }],
    }),
  },
  {
    service_ref: 'SO-000003',
    order: order({
      order_items: [line('SKU-3', 48)],
      pre_builts: [preBuilt('Crate', 120, 80, 100, 300, 1)],
      loose_boxes: [looseBox('Box', 60, 40, 40, 12, 6)],
      order_containers: [
        { code: '40ft', count: 5 },
        { code: '20ft', count: 2 },
      ],
    }),
  },
];

t.test('three orders of a third of a 40ft each: one container together, three alone', async (t) => {
  const plans = planTogether(wasm, togetherInput(theLane, orders), { timeLimitMs: 30_000, effort: 4000 });
  t.equal(plans.alone.length, 3);
  t.same(
    plans.alone.map((p) => p.containers.length),
    [1, 1, 1],
    'alone: a container each',
  );
  t.equal(plans.together.containers.length, 1, 'together: one');
  t.same(plans.together.unplaced, []);

  // each order's pallets hold only its own SKU, and are the pallets of its plan alone, renumbered
  plans.palletsOf.forEach((pallets, i) => {
    t.equal(pallets.length, plans.alone[i]!.pallets.length, `${orders[i]!.service_ref}: as many pallets as alone`);
    t.ok(
      pallets.every((p) => p.units.every((u) => u.sku === `SKU-${i + 1}`)),
      `${orders[i]!.service_ref}: its own units only`,
    );
  });
  const refs = plans.together.pallets.map((p) => p.pallet_index);
  t.equal(new Set(refs).size, refs.length, 'pallet refs unique across the orders');

  // every placement names its order: pallets by their owner, pre-builts and boxes by their rows
  const ownerOfPallet = new Map(
    plans.palletsOf.flatMap((pallets, i) => pallets.map((p) => [p.pallet_index, orders[i]!.service_ref] as const)),
  );
  const placements = plans.together.containers.flatMap((c) => c.placements);
  t.ok(
    placements.filter((p) => p.kind === 'pallet').every((p) => p.order === ownerOfPallet.get(p.ref)),
    'pallets name their order',
  );
  t.same(
    placements
      .filter((p) => p.kind === 'pre_built')
      .map((p) => `${p.ref} ${p.order}`)
      .sort(),
    ['Crate #1 SO-000002', 'Crate #2 SO-000002', 'Crate #3 SO-000003'],
    'rows sharing a name number on, and keep their owner',
  );
  t.ok(
    placements.filter((p) => p.kind === 'loose_box').every((p) => p.order === 'SO-000003'),
    'boxes name their order',
  );

  // the joint plan is a valid plan of the orders put together
  const merged = order({
    order_items: orders.flatMap((o) => o.order.order_items),
    pre_builts: orders.flatMap((o) => o.order.pre_builts),
    loose_boxes: orders.flatMap((o) => o.order.loose_boxes),
    order_containers: sharedContainers(orders.map((o) => o.order.order_containers)),
  });
  t.same(validatePlan({ lane: theLane, order: merged }, plans.together), [], 'the validator finds no violation');
  plans.alone.forEach((p, i) =>
    t.same(validatePlan({ lane: theLane, order: orders[i]!.order }, p), [], `${orders[i]!.service_ref} alone: valid`),
  );
});

t.test('the shared containers: every type any order asked for, up to the sum of their counts', async (t) => {
  t.same(sharedContainers(orders.map((o) => o.order.order_containers)), [
    { code: '40ft', count: 15 },
    { code: '20ft', count: 2 },
  ]);
});
