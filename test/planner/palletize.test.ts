import t from 'tap';
import { seededOrder } from '../../bench/lib/seeded-orders.js';
import { EUR, GMA, item, lane, line, order } from './fixtures.js';
import { planChecked, withoutTiming } from './plan.js';
import { clearPlannerCaches } from '../../src/planner/planner-caches.js';

const boxes = lane([item('A', 40, 30, 25, 9.5), item('B', 60, 40, 30, 14, true), item('C', 33, 22, 18, 4)], [EUR, GMA]);

t.test('a SKU with several pallets worth gets whole single-SKU pallets in layers', async (t) => {
  const plan = planChecked(t, { lane: boxes, order: order({ order_items: [line('A', 200)] }) });
  t.same(
    plan.pallets.map((p) => p.pallet_index),
    plan.pallets.map((_, k) => `AP${k + 1}`),
  );
  const full = plan.pallets.filter((p) => p.units.length === plan.pallets[0]!.units.length);
  t.ok(full.length >= 2, 'at least two identical full pallets');
  for (const p of plan.pallets)
    t.same(
      p.contents.map((c) => c.sku),
      ['A'],
      `${p.pallet_index} holds one SKU`,
    );
  const first = plan.pallets[0]!;
  t.ok(first.layers.length >= 5, 'units stand in layers');
  const base = first.layers[0]!;
  t.equal(base.z, 0);
  const baseArea = base.unit_indexes.reduce((s, i) => s + first.units[i]!.l * first.units[i]!.w, 0);
  t.ok(baseArea >= 0.85 * 1200 * 800, `the bottom layer covers ${baseArea} of the deck`);
  t.equal(plan.metrics.pallet_count, plan.pallets.length);
  t.ok(
    plan.pallets.length <= plan.metrics.pallet_lower_bound + 1,
    `${plan.pallets.length} pallets, lower bound ${plan.metrics.pallet_lower_bound}`,
  );
});

t.test('contents group by SKU, purchase order and line item with summed quantities', async (t) => {
  const plan = planChecked(t, {
    lane: boxes,
    order: order({ order_items: [line('C', 30, 'PO-1', '1'), line('C', 25, 'PO-2', '1'), line('A', 12, 'PO-1', '2')] }),
  });
  const totals = new Map<string, number>();
  for (const p of plan.pallets)
    for (const c of p.contents)
      totals.set(
        `${c.sku}/${c.purchase_order}/${c.line_item_number}`,
        (totals.get(`${c.sku}/${c.purchase_order}/${c.line_item_number}`) ?? 0) + c.quantity,
      );
  t.same(Object.fromEntries(totals), { 'C/PO-1/1': 30, 'C/PO-2/1': 25, 'A/PO-1/2': 12 });
  t.equal(plan.pallets.length, 1, 'a small order makes one mixed pallet');
});

t.test('a fractional quantity ships as the next whole unit', async (t) => {
  const plan = planChecked(t, { lane: boxes, order: order({ order_items: [line('A', '12.250000')] }) });
  t.equal(
    plan.pallets.reduce((s, p) => s + p.units.length, 0),
    13,
  );
  t.equal(plan.metrics.units, 13);
});

t.test('upright units keep their height vertical', async (t) => {
  const plan = planChecked(t, { lane: boxes, order: order({ order_items: [line('B', 90)] }) });
  for (const p of plan.pallets) for (const u of p.units) t.equal(u.h, 300, 'this side up');
});

t.test('free units may turn onto their side', async (t) => {
  const plan = planChecked(t, { lane: lane([item('F', 70, 25, 12, 3)]), order: order({ order_items: [line('F', 400)] }) });
  const heights = new Set(plan.pallets.flatMap((p) => p.units.map((u) => u.h)));
  t.ok([...heights].every((h) => [700, 250, 120].includes(h)));
});

t.test('heavy units go low on a mixed pallet', async (t) => {
  const plan = planChecked(t, {
    lane: lane([item('HEAVY', 40, 30, 25, 30), item('LIGHT', 40, 30, 25, 1)]),
    order: order({ order_items: [line('LIGHT', 24), line('HEAVY', 24)] }),
  });
  t.equal(plan.pallets.length, 1);
  const units = plan.pallets[0]!.units;
  const meanZ = (sku: string): number => {
    const us = units.filter((u) => u.sku === sku);
    return us.reduce((s, u) => s + u.z, 0) / us.length;
  };
  t.ok(meanZ('HEAVY') < meanZ('LIGHT'), `heavy mean height ${meanZ('HEAVY')}, light ${meanZ('LIGHT')}`);
});

t.test('pallet weight limit: heavy units spread over enough pallets', async (t) => {
  const plan = planChecked(t, { lane: lane([item('IRON', 30, 20, 15, 48)]), order: order({ order_items: [line('IRON', 100)] }) });
  t.ok(plan.pallets.length >= Math.ceil((100 * 48) / (1500 - 25)));
  for (const p of plan.pallets) t.ok(p.weight_g <= 1_500_000);
});

t.test('the pallet code option picks the lane pallet type', async (t) => {
  const plan = planChecked(t, { lane: boxes, order: order({ order_items: [line('A', 40)] }), palletCode: 'GMA' });
  t.same(new Set(plan.pallets.map((p) => [p.pallet_code, p.length_mm, p.width_mm].join())), new Set(['GMA,1219,1016']));
});

t.test('lanes in inches and pounds', async (t) => {
  const inches = lane(
    [item('IN', 16, 12, 10, 20)],
    [{ code: 'GMA', length: 48, width: 40, height: 6, weight: 45, max_height: 80, max_weight: 2800 }],
    { length: 'in', weight: 'lb' },
  );
  const plan = planChecked(t, { lane: inches, order: order({ order_items: [line('IN', 60)] }) });
  t.equal(plan.pallets[0]!.length_mm, 1219);
  t.ok(plan.pallets.every((p) => p.height_mm <= 2032));
});

t.test('units that cannot be palletized are reported, not dropped', async (t) => {
  const plan = planChecked(t, {
    lane: lane([item('BIG', 130, 90, 50, 10, true), item('HEAVY', 50, 50, 50, 1600), item('OK', 40, 30, 25, 5)]),
    order: order({ order_items: [line('BIG', 2), line('HEAVY', 1), line('GHOST', 3), line('OK', 4)] }),
  });
  t.same(
    plan.unplaced
      .filter((u) => u.kind === 'unit')
      .map((u) => [u.ref, u.count, u.reason])
      .sort(),
    [
      ['BIG', 2, 'too_large_for_pallet'],
      ['GHOST', 3, 'no_item_master_data'],
      ['HEAVY', 1, 'over_pallet_max_weight'],
    ],
  );
  t.equal(
    plan.pallets.reduce((s, p) => s + p.units.length, 0),
    4,
  );
});

t.test('a large order of many SKUs: every unit on a pallet, near the lower bound', async (t) => {
  const input = seededOrder(4242, { skus: 60, units: 5000 });
  const plan = planChecked(t, input);
  t.equal(plan.metrics.units_palletized, plan.metrics.units);
  t.same(plan.unplaced, []);
  t.ok(
    plan.pallets.length <= Math.ceil(plan.metrics.pallet_lower_bound * 1.2),
    `${plan.pallets.length} pallets, lower bound ${plan.metrics.pallet_lower_bound}`,
  );
});

t.test('same input and seed, same plan', async (t) => {
  const input = { lane: boxes, order: order({ order_items: [line('A', 130), line('B', 45), line('C', 170)] }), seed: 7 };
  clearPlannerCaches();
  const first = planChecked(t, input);
  // searched again, not answered from the caches of the first
  clearPlannerCaches();
  t.same(withoutTiming(planChecked(t, input)), withoutTiming(first));
});

t.test('cartons too small to list layer by layer still go on pallets, by the block search', async (t) => {
  const plan = planChecked(t, {
    lane: lane([item('TINY', 0.5, 0.5, 0.5, 0.001), item('A', 40, 30, 25, 9.5)]),
    order: order({ order_items: [line('TINY', 300), line('A', 10)] }),
  });
  t.equal(plan.metrics.units_palletized, 310);
  t.same(plan.unplaced, []);
});

t.test('an order of more units than one plan takes fails with the reason', async (t) => {
  const input = { lane: boxes, order: order({ order_items: [line('A', 600_000), line('C', 400_001)] }) };
  t.throws(() => planChecked(t, input), /1000001 units; the load planner takes at most 1000000/);
});
