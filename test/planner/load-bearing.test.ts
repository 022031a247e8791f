// No unit ever carries more than it may bear (docs/decisions.md, "Load bearing"): everything that rests
// on it, directly or through other units, counts whole. Plans go through the independent validator,
// which works the weight out box by box on its own; these tests also read the plans for what a
// person checks: how high a weak carton's stack is, what stands on a carton nothing may stand on.
import fc from 'fast-check';
import t from 'tap';
import type { ItemDocument } from '../../src/master-data/master-data-document.js';
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';
import { restingWeights } from '../../src/planner/checks/validate-bearing.js';
import { validatePlan } from '../../src/planner/checks/validate-plan.js';
import { bearableLayers } from '../../src/planner/single-sku-pallet.js';
import { EUR, item, lane, line, looseBox, order } from './fixtures.js';
import { planChecked } from './plan.js';

const limited = (sku: string, l: number, w: number, h: number, kg: number, extra: Partial<ItemDocument>): ItemDocument => ({
  ...item(sku, l, w, h, kg, true),
  ...extra,
});

/** The heaviest stack of one SKU's units, one on another, on any pallet. */
function tallestColumn(plan: OrderPlan, sku: string): number {
  let most = 0;
  for (const p of plan.pallets) {
    for (const u of p.units) {
      if (u.sku !== sku) continue;
      let n = 1;
      let top = u;
      for (;;) {
        const next = p.units.find((v) => v.sku === sku && v.z === top.z + top.h && v.x === top.x && v.y === top.y);
        if (!next) break;
        n++;
        top = next;
      }
      most = Math.max(most, n);
    }
  }
  return most;
}

t.test('a carton that bears two of itself stands three high, and pallets of it are built no higher', async (t) => {
  const plan = planChecked(t, {
    lane: lane([limited('FRAG', 40, 30, 25, 5, { max_load_on_top: 10 })]),
    order: order({ order_items: [line('FRAG', 150)] }),
  });
  t.equal(tallestColumn(plan, 'FRAG'), 3);
  t.ok(
    plan.pallets.every((p) => p.height_mm <= 144 + 3 * 250),
    plan.pallets.map((p) => p.height_mm).join(', '),
  );
  t.equal(bearableLayers({ weightG: 5000, maxLoadG: 10_000 }), 3);
  t.equal(bearableLayers({ weightG: 5000, maxLoadG: 9999 }), 2, 'a gram short of two units: one above');
  t.equal(bearableLayers({ weightG: 5000 }), Number.MAX_SAFE_INTEGER, 'no limit');
});

t.test('nothing stands on a carton that is not stackable: it is always at the top', async (t) => {
  const plan = planChecked(t, {
    lane: lane([limited('EGGS', 60, 40, 30, 9, { stackable: false }), item('DET', 40, 30, 30, 16, true)]),
    order: order({ order_items: [line('EGGS', 40), line('DET', 200)] }),
  });
  for (const p of plan.pallets) {
    for (const egg of p.units.filter((u) => u.sku === 'EGGS')) {
      const above = p.units.filter(
        (u) => u.z === egg.z + egg.h && u.x < egg.x + egg.l && egg.x < u.x + u.l && u.y < egg.y + egg.w && egg.y < u.y + u.w,
      );
      t.same(above, [], `${p.pallet_index}: nothing on the eggs at z ${egg.z}`);
    }
  }
});

t.test('heavy cartons under weak ones, never the other way round: a mixed order', async (t) => {
  const plan = planChecked(t, {
    lane: lane([
      item('HEAVY', 40, 30, 25, 20, true),
      limited('FRAG', 40, 30, 25, 5, { max_load_on_top: 10 }),
      limited('GLASS', 30, 20, 20, 4, { stackable: false }),
    ]),
    order: order({ order_items: [line('HEAVY', 100), line('FRAG', 150), line('GLASS', 20)] }),
  });
  t.ok(
    plan.pallets.some((p) => p.units.some((u) => u.sku === 'HEAVY') && p.units.some((u) => u.sku === 'FRAG')),
    'some pallet carries weak cartons on heavy ones',
  );
});

t.test('the validator counts everything resting on a box, through others, once each', async (t) => {
  const box = (x: number, z: number, l = 10) => ({ x, y: 0, z, l, w: 10, h: 10 });
  // a brick pattern: two bottom boxes, one across them, one on that: each bottom box carries both
  const boxes = [box(0, 0), box(10, 0), box(5, 10), box(5, 20)];
  t.same(restingWeights(boxes, [1, 2, 4, 8]), [12, 12, 8, 0]);
  // a box resting on two that rest on one: the one counts it once, not twice
  const diamond = [box(0, 0, 20), box(0, 10), box(10, 10), box(5, 20)];
  t.same(restingWeights(diamond, [1, 2, 4, 8]), [14, 8, 8, 0]);
});

t.test('the validator finds a carton carrying more than it may', async (t) => {
  const input = { lane: lane([limited('FRAG', 40, 30, 25, 5, { max_load_on_top: 10 })]), order: order({ order_items: [line('FRAG', 4)] }) };
  const plan = planChecked(t, input);
  // four cartons in one column: the bottom one carries three (15 kg)
  const tampered = structuredClone(plan);
  tampered.pallets = [tampered.pallets[0]!];
  const units = tampered.pallets[0]!.units;
  units.forEach((u, k) => Object.assign(u, { x: 0, y: 0, z: k * 250 }));
  tampered.pallets[0]!.height_mm = 144 + 4 * 250;
  tampered.pallets[0]!.layers = units.map((u, k) => ({ z: u.z, height: 250, unit_indexes: [k] }));
  t.match(validatePlan(input, tampered).join('\n'), /AP1 unit 0 \(FRAG at 0,0,0\): carries 15000 g, its limit is 10000 g/);
});

t.test('a loose box carries no box double-stacked on it heavier than it bears', async (t) => {
  const reel = (name: string, kg: number, count: number, bears?: number) =>
    looseBox(name, 100, 100, 110, kg, count, {
      rotation_x: true,
      rotation_y: false,
      rotation_z: false,
      double_stacked_bottom: true,
      double_stacked_top: true,
      ...(bears === undefined ? {} : { max_load_on_top: bears.toFixed(6) }),
    });
  // light reels bear 500 kg: the 800 kg reels never go on them, the light ones may
  const plan = planChecked(t, {
    lane: { ...lane([]), container_codes: ['40ft'] },
    order: order({ loose_boxes: [reel('Light', 400, 30, 500), reel('Heavy', 800, 20)], order_containers: [{ code: '40ft', count: 3 }] }),
  });
  const placements = plan.containers.flatMap((c) => c.placements);
  for (const top of placements.filter((p) => p.z > 0)) {
    const bottom = placements.find((b) => b.z === 0 && b.x <= top.x && top.x < b.x + b.l && b.y <= top.y && top.y < b.y + b.w);
    if (bottom?.ref.startsWith('Light')) t.ok(top.weight_g <= 500_000, `${top.ref} on ${bottom.ref}`);
  }
  t.ok(
    placements.some((p) => p.z > 0),
    'stacking still happens where the bottom bears the top',
  );
});

t.test('random orders with weak and strong cartons: no plan breaks a limit (the validator)', async (t) => {
  const runs = Number(process.env.PLANNER_PROPERTY_RUNS ?? 12);
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          l: fc.integer({ min: 15, max: 60 }),
          w: fc.integer({ min: 15, max: 50 }),
          h: fc.integer({ min: 10, max: 50 }),
          kg: fc.integer({ min: 1, max: 25 }),
          bears: fc.option(fc.integer({ min: 0, max: 80 }), { nil: undefined }),
          stackable: fc.boolean(),
          units: fc.integer({ min: 1, max: 120 }),
        }),
        { minLength: 1, maxLength: 5 },
      ),
      (skus) => {
        const items = skus.map((s, i) => ({
          ...item(`S${i}`, s.l, s.w, s.h, s.kg, i % 2 === 0),
          ...(s.bears === undefined ? {} : { max_load_on_top: s.bears }),
          ...(s.stackable ? {} : { stackable: false }),
        }));
        const input = { lane: lane(items, [EUR]), order: order({ order_items: skus.map((s, i) => line(`S${i}`, s.units)) }) };
        planChecked(t, input, 1500, 20_000);
      },
    ),
    { numRuns: runs, seed: Number(process.env.PLANNER_PROPERTY_SEED ?? 57) },
  );
});
