// Mixed pallets in whole layers (issue 13, point 1): on the demo lane's 6,000-unit order every
// pallet is a stack of layers, each layer one SKU's pattern with at most a strip of a smaller SKU
// in columns exactly as tall as the layer; everything stands wholly on what is below it (the
// validator checks that) and the layers fill the pallets so that the order fits 9 containers.
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { LaneDocument } from '../../src/master-data/master-data-document.js';
import type { PlannedPallet } from '../../src/plan-contract/plan-types.js';
import { item, lane, line, order, GMA } from './fixtures.js';
import { planChecked } from './plan.js';
import type { PalletTypeMm } from '../../src/plan-contract/planner-input.js';
import { layerStacks } from '../../src/planner/whole-layer-pallets.js';
import type { SkuDemand } from '../../src/planner/sku-demand.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { bestSingleSkuPallet } from '../../src/planner/single-sku-pallet.js';

const demo = (
  JSON.parse(readFileSync(new URL('../../../demo/master-data.json', import.meta.url), 'utf8')) as {
    company_groups: { lanes: LaneDocument[] }[];
  }
).company_groups[0]!.lanes[0]!;

/** The pallet cut where no unit crosses: the layers a person builds, bottom first. */
function builtLayers(p: PlannedPallet): PlannedPallet['units'][] {
  const cuts = [...new Set(p.units.map((u) => u.z))].filter((z) => !p.units.some((u) => u.z < z && z < u.z + u.h)).sort((a, b) => a - b);
  return cuts.map((z, i) => p.units.filter((u) => u.z >= z && u.z < (cuts[i + 1] ?? Infinity)));
}

t.test("the demo lane's 6,000 units: mixed pallets of whole layers, 136 pallets in 9 containers", async (t) => {
  const plan = planChecked(t, {
    lane: demo,
    order: order({
      order_items: ['SKU-1001', 'SKU-1002', 'SKU-1003', 'SKU-1004'].map((sku) => line(sku, 1500)),
      order_containers: [
        { code: '40ft-HC', count: 5 },
        { code: '20ft', count: 5 },
      ],
    }),
  });
  t.same(plan.unplaced, [], 'nothing unplaced');
  t.equal(plan.metrics.units_palletized, 6000);
  t.comment(`${plan.pallets.length} pallets, lower bound ${plan.metrics.pallet_lower_bound}, ${plan.containers.length} containers`);
  t.ok(plan.pallets.length <= 136, `at most 136 pallets (${plan.pallets.length}); 144 before layers were stacked`);
  t.ok(plan.containers.length <= 9, `at most 9 containers (${plan.containers.length}); 10 before`);

  const mixed = plan.pallets.filter((p) => new Set(p.units.map((u) => u.sku)).size > 1);
  t.ok(mixed.length > plan.pallets.length / 2, `most pallets mix SKUs (${mixed.length})`);
  for (const p of mixed) {
    const layers = builtLayers(p);
    const bad = layers.find((layer) => {
      const bySku = new Map<string, typeof layer>();
      for (const u of layer) bySku.set(u.sku, [...(bySku.get(u.sku) ?? []), u]);
      const height = Math.max(...layer.map((u) => u.z + u.h)) - Math.min(...layer.map((u) => u.z));
      // one SKU's pattern, plus at most one filler SKU whose columns reach the layer's top exactly
      if (bySku.size > 2) return true;
      const top = Math.min(...layer.map((u) => u.z)) + height;
      return [...bySku.values()].some((units) => {
        const tops = units.filter((u) => !units.some((o) => o.z === u.z + u.h && o.x === u.x && o.y === u.y));
        return tops.some((u) => u.z + u.h !== top);
      });
    });
    if (bad) {
      t.fail(`${p.pallet_index}: a layer that is not one SKU's pattern with a flush strip: ${JSON.stringify(bad.slice(0, 3))}`);
      break;
    }
  }
  t.pass(`${mixed.length} mixed pallets checked layer by layer`);
});

t.test('two SKUs whose layer heights add up share pallets: 3 x 40 cm + 2 x 30 cm on a 200 cm load height', async (t) => {
  // GMA fixture: 200 - 15 = 185 cm of load height. A: 60 x 40 x 40 cm (upright), B: 60 x 40 x 30 (upright).
  // Alone: A 4 layers (160 cm), B 6 layers (180 cm). Together: 3 A + 2 B = 180 cm, or 4 A + ... no;
  // 1 A + 4 B = 160, 2 A + 3 B = 170, 3 A + 2 B = 180, 0 A + 6 B = 180.
  const input = {
    lane: lane([item('A', 60, 40, 40, 10, true), item('B', 60, 40, 30, 8, true)], [GMA]),
    order: order({ order_items: [line('A', 5 * 12), line('B', 5 * 8)], order_containers: [{ code: '40ft', count: 1 }] }),
  };
  const plan = planChecked(t, input);
  const perLayer = 5;
  t.same(plan.unplaced, []);
  // 12 layers of A and 8 of B: 4 pallets of 3 A + 2 B fill 180 of 185 cm each; alone they would be
  // 3 pallets of A (4 layers) and 2 of B (6 layers, the second short): 5
  t.equal(plan.pallets.length, 4, `${plan.pallets.length} pallets`);
  for (const p of plan.pallets) {
    const layers = builtLayers(p);
    t.equal(layers.length, 5, `${p.pallet_index}: five layers`);
    t.ok(
      layers.every((l) => l.length === perLayer && new Set(l.map((u) => u.sku)).size === 1),
      `${p.pallet_index}: whole single-SKU layers`,
    );
  }
});

t.test('a pallet whose layers would not stand wholly on the one below is not built', async (t) => {
  // Given a 1,200 x 800 mm deck, 2,000 mm of load height, and two upright SKUs: A (500 x 380 x 300 mm)
  // lays 2 x 2 per layer (1,000 x 760 mm of the deck), B (550 x 550 x 200 mm) 2 x 1 (1,100 x 550 mm).
  const wasm = new PlannerWasm();
  const type: PalletTypeMm = { code: 'EUR', l: 1200, w: 800, h: 144, weightG: 25_000, loadHeight: 2000, loadWeightG: 1_500_000 };
  const sku = (name: string, l: number, w: number, h: number, units: number): SkuDemand => ({
    sku: name,
    l,
    w,
    h,
    weightG: 5_000,
    upright: true,
    lines: [{ purchase_order: 'PO-1', line_item_number: name, units }],
    units,
  });
  const stacked = (skus: SkuDemand[]) =>
    layerStacks(
      wasm,
      skus,
      type,
      skus.map((d) => bestSingleSkuPallet(d, type, d.units)),
    );
  // When 30 layers of A and 10 of B are stacked: the fullest pallet is six of A (the more of what is
  // left) and one of B on top, 2,000 mm. B's second carton reaches 100 mm past A's cartons, over
  // nothing: that pallet would not stand, so the choice (the only one: both upright) builds nothing.
  t.equal(stacked([sku('A', 500, 380, 300, 120), sku('B', 550, 550, 200, 20)]), undefined, 'no pallet of B on A');
  // Then with B the size of A's cartons (500 x 380 x 200 mm), its layer stands on A's.
  const built = stacked([sku('A', 500, 380, 300, 120), sku('B', 500, 380, 200, 40)]);
  t.ok(built && built.pallets.length > 0, 'pallets of both built');
  const first = built?.pallets[0]?.boxes ?? [];
  t.same([...new Set(first.map((b) => b.d.sku))].sort(), ['A', 'B'], 'the first pallet holds both SKUs');
  t.equal(Math.max(...first.map((b) => b.box.z + b.box.h)), 2000, 'its layers fill the load height');
});

t.test("a carton too small to list beside a layer's cartons is left to the block search, not put in columns", async (t) => {
  // Given whole layers of a 500 x 380 x 300 mm carton, whose pattern leaves strips of the 1,200 x 800
  // deck free, and a 1 mm cube: its columns in those strips would be 300 cubes tall and 200,000 wide.
  const wasm = new PlannerWasm();
  const type: PalletTypeMm = { code: 'EUR', l: 1200, w: 800, h: 144, weightG: 25_000, loadHeight: 2000, loadWeightG: 1_500_000 };
  const big: SkuDemand = { sku: 'BIG', l: 500, w: 380, h: 300, weightG: 5_000, upright: true, lines: [], units: 120 };
  const tiny: SkuDemand = { sku: 'TINY', l: 1, w: 1, h: 1, weightG: 1, upright: false, lines: [], units: 10 };
  // When the layers are stacked
  const built = layerStacks(wasm, [big, tiny], type, [bestSingleSkuPallet(big, type, big.units), undefined]);
  // Then BIG's layers make pallets, the cubes are left for the block search, and the planner's memory
  // stayed small (listing the columns took it past a gigabyte, and JavaScript out of memory before)
  t.ok(built && built.pallets.length > 0, 'pallets of whole layers');
  t.equal(built?.rest.get(tiny), 10, 'the cubes left for the block search');
  t.ok(wasm.memoryBytes <= 64 * 2 ** 20, `the planner's memory ${(wasm.memoryBytes / 2 ** 20).toFixed(0)} MiB`);
});
