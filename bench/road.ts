// npm run bench:road -- [--orders N] [--seed S] [--verbose]
// Realistic TruckFTL orders on each road preset (EU, EU-44, US): dense cargo (beverages on pallets,
// steel coils, paper reels double-stacked on their own strength), fragile cartons beside heavy ones,
// pre-builts and loose boxes. Per family and preset: containers used against the lower bound the road
// leaves (every kilo and litre as a share of the strongest and roomiest container the road allows),
// violations (the independent validator: road, axles, load bearing and every rule before), the
// planner's time. Each order is also planned as if it sailed (no road rule): where that plan was
// legal on the road already, the road plan must cost no more containers.
import type { ItemDocument, LaneDocument } from '../src/master-data/master-data-document.js';
import type { LooseBox, OrderItem, PreBuilt, SubmitOrderPayload } from '../src/orders/submit-order-payload.js';
import type { OrderPlan } from '../src/plan-contract/plan-types.js';
import { ROAD_PRESET_NAMES, type RoadPresetName } from '../src/plan-contract/road-profile.js';
import { validatePlan } from '../src/planner/checks/validate-plan.js';
import { containerLowerBound } from '../src/planner/container-lower-bound.js';
import { containerSpec } from '../src/planner/containers.js';
import { DEFAULT_EFFORT, planOrder } from '../src/planner/plan-order.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import { axleLoads, cargoMoment, containerRoadSpec, withinRoadLimits } from '../src/planner/road-loads.js';
import { type LaneOrder, plannerInput } from '../src/planning/planner-input.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { PlanDigest } from './lib/plan-digest.js';
import { EUR, prng } from './lib/seeded-orders.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const verbose = process.argv.includes('--verbose');
const perFamily = arg('--orders', 6);
const rnd = prng(arg('--seed', 11));
const int = (a: number, b: number): number => a + Math.floor(rnd() * (b - a + 1));

const item = (sku: string, l: number, w: number, h: number, kg: number, extra: Partial<ItemDocument> = {}): ItemDocument => ({
  sku,
  length: l,
  width: w,
  height: h,
  weight: kg,
  upright: true,
  ...extra,
});

// A food and drinks distributor's catalogue: cases of bottles and cans (heavy, strong), snacks and
// glassware (light, weak: what one carton bears is a few of itself), paper and detergent.
const ITEMS: ItemDocument[] = [
  item('WATER-6x1.5L', 34, 23, 33, 9.6),
  item('BEER-24x0.5L', 40, 27, 25, 13.2),
  item('JUICE-12x1L', 36, 28, 26, 12.8, { max_load_on_top: 120 }),
  item('CANS-24x0.33L', 40, 27, 12.5, 8.4),
  item('CHIPS-12', 40, 30, 40, 2.2, { max_load_on_top: 8 }),
  item('GLASSWARE', 50, 40, 30, 7.5, { max_load_on_top: 15 }),
  item('EGGS', 60, 40, 30, 9, { stackable: false }),
  item('PAPER-A4', 30, 21, 26, 12.5),
  item('DETERGENT', 40, 30, 30, 16),
];

function lane(profile: RoadPresetName): LaneDocument {
  return {
    id: 1,
    supplier: 'Road Supplier',
    consignee: 'Road Consignee',
    transportation_modes: ['OceanFCL', 'TruckFTL'],
    units: { length: 'cm', weight: 'kg' },
    pallet_types: [EUR],
    container_codes: ['20ft', '40ft', '40ft-HC', '45ft-HC'],
    items: ITEMS,
    road_profile: profile,
  };
}

const line = (sku: string, units: number): OrderItem => ({
  item: sku,
  quantity: String(units),
  purchase_order: 'PO-R',
  line_item_number: sku,
  notes: '',
});
const preBuilt = (name: string, cm: [number, number, number], kg: number, count: number, stack = false): PreBuilt => ({
  name,
  length: String(cm[0]),
  width: String(cm[1]),
  height: String(cm[2]),
  weight: String(kg),
  count,
  prebuiltitem_set: [],
  double_stacked_bottom: stack,
  double_stacked_top: stack,
  rotation_x: true,
});
const looseBox = (name: string, cm: [number, number, number], kg: number, count: number, extra: Partial<LooseBox> = {}): LooseBox => ({
  name,
  length: String(cm[0]),
  width: String(cm[1]),
  height: String(cm[2]),
  weight: String(kg),
  count,
  purchase_order: '',
  line_item_number: '',
  product_quantity: null,
  product_packages: null,
  double_stacked_bottom: false,
  double_stacked_top: false,
  rotation_x: true,
  rotation_y: false,
  rotation_z: false,
  ...extra,
});

function order(
  reference: string,
  cargo: Partial<SubmitOrderPayload>,
  containers: SubmitOrderPayload['order_containers'],
): SubmitOrderPayload {
  return {
    supplier_name: 'Road Supplier',
    consignee_name: 'Road Consignee',
    reference,
    transportation_mode: 'TruckFTL',
    shipment_type: 'normal',
    order_items: [],
    pre_builts: [],
    loose_boxes: [],
    order_containers: containers,
    customer_notes: null,
    send_email: false,
    extra_recipients: [],
    extra_cc_recipients: [],
    ...cargo,
  };
}

const offered = (...codes: SubmitOrderPayload['order_containers'][number]['code'][]) => codes.map((code) => ({ code, count: 5 }));

/** The order families, each a function of its index in the family. */
const FAMILIES: Record<string, (k: number) => SubmitOrderPayload> = {
  // drinks: cases on pallets of 700-1,000 kg, the road's gross binds long before the floor
  beverages: (k) =>
    order(
      `BEV-${k}`,
      { order_items: [line('WATER-6x1.5L', int(600, 2400)), line('BEER-24x0.5L', int(400, 2000)), line('CANS-24x0.33L', int(0, 1500))] },
      offered('40ft', '20ft'),
    ),
  // steel coils and bundles as pre-builts: 1.3 to 6 t on a small footprint, heavy for one axle group
  steel: (k) =>
    order(
      `STEEL-${k}`,
      {
        pre_builts: [
          preBuilt('Coil', [120, 120, 90], int(2500, 6000), int(2, 8)),
          preBuilt('Bundle', [300, 60, 50], int(1300, 2500), int(2, 10)),
        ],
      },
      offered('20ft', '40ft'),
    ),
  // paper reels as loose boxes, double-stacked where the lower reel bears the upper one
  paper: (k) =>
    order(
      `REELS-${k}`,
      {
        loose_boxes: [
          looseBox('Reel 100', [100, 100, 120], int(650, 900), int(10, 40), {
            double_stacked_bottom: true,
            double_stacked_top: true,
            max_load_on_top: String(int(500, 1000)),
          }),
          looseBox('Reel 70', [70, 70, 120], int(350, 500), int(0, 20), { double_stacked_bottom: true, double_stacked_top: true }),
        ],
      },
      offered('40ft', '20ft'),
    ),
  // fragile cartons beside heavy ones: what a carton bears decides the pallets
  'fragile+heavy': (k) =>
    order(
      `MIX-${k}`,
      {
        order_items: [
          line('DETERGENT', int(200, 900)),
          line('PAPER-A4', int(200, 900)),
          line('JUICE-12x1L', int(100, 600)),
          line('CHIPS-12', int(100, 500)),
          line('GLASSWARE', int(50, 300)),
          line('EGGS', int(20, 120)),
        ],
      },
      offered('40ft-HC', '40ft', '20ft'),
    ),
  // pre-builts and loose boxes together; every third order has a 25 t press, within a 40ft's payload but over what most roads leave it
  'pre-builts+boxes': (k) =>
    order(
      `PBL-${k}`,
      {
        pre_builts: [
          preBuilt('Machine part', [220, 150, 180], int(3000, 9000), int(1, 3)),
          preBuilt('Crate', [120, 100, 110], int(400, 1300), int(4, 16), true),
        ],
        loose_boxes: [
          looseBox('Spares', [60, 40, 40], int(15, 40), int(10, 80), {
            double_stacked_bottom: true,
            double_stacked_top: true,
            max_load_on_top: '30',
          }),
          ...(k % 3 === 0 ? [looseBox('Press', [300, 200, 200], 25_000, 1)] : []),
        ],
      },
      offered('40ft', '45ft-HC', '20ft'),
    ),
};

const wasm = new PlannerWasm();
const limits = { timeLimitMs: 20_000, effort: DEFAULT_EFFORT };
const digest = new PlanDigest();
const noiseBefore = measureNoise();

/** The plan's containers are all within this road's limits (the plan made as if it sailed, judged on the road). */
function legalOnRoad(input: LaneOrder, plan: OrderPlan): boolean {
  const road = plannerInput(input).road!;
  return plan.containers.every((c) => {
    const r = containerRoadSpec(road, containerSpec(c.code)!)!;
    const { weight, cogX } = cargoMoment(c.placements);
    return withinRoadLimits(r, axleLoads(r, weight, cogX));
  });
}

interface Tally {
  orders: number;
  containers: number;
  bound: number;
  atBound: number;
  violations: number;
  ms: number[];
  unplaced: number;
  legalBefore: number;
  moreThanBefore: number;
}

const rows: [string, RoadPresetName, Tally][] = [];
let firstViolations: string[] = [];
for (const [family, make] of Object.entries(FAMILIES)) {
  for (const preset of ROAD_PRESET_NAMES) {
    const tally: Tally = {
      orders: 0,
      containers: 0,
      bound: 0,
      atBound: 0,
      violations: 0,
      ms: [],
      unplaced: 0,
      legalBefore: 0,
      moreThanBefore: 0,
    };
    for (let k = 0; k < perFamily; k++) {
      const o = make(k);
      const onRoad: LaneOrder = { lane: lane(preset), order: o };
      const input = plannerInput(onRoad);
      const t0 = performance.now();
      const plan = planOrder(wasm, input, limits);
      tally.ms.push(performance.now() - t0);
      const found = validatePlan(onRoad, plan);
      tally.violations += found.length;
      if (firstViolations.length === 0 && found.length > 0)
        firstViolations = found.slice(0, 5).map((v) => `${o.reference} (${preset}): ${v}`);
      const bound = containerLowerBound(input);
      const used = plan.containers.filter((c) => c.placements.length > 0).length;
      tally.orders++;
      tally.containers += used;
      tally.bound += bound;
      if (used <= bound) tally.atBound++;
      tally.unplaced += plan.unplaced.reduce((s, u) => s + u.count, 0);
      digest.add(plan);
      // the same order as if it sailed: no road rule
      const sailing: LaneOrder = { lane: onRoad.lane, order: { ...o, transportation_mode: 'OceanFCL' } };
      const before = planOrder(wasm, plannerInput(sailing), limits);
      if (legalOnRoad(onRoad, before)) {
        tally.legalBefore++;
        const usedBefore = before.containers.filter((c) => c.placements.length > 0).length;
        if (used > usedBefore) tally.moreThanBefore++;
      }
      if (verbose) {
        const roads = plan.containers.map(
          (c) => `${c.code} ${(c.cargo_weight_g / 1000).toFixed(0)} kg drive ${((c.road?.axle_loads_g.drive ?? 0) / 1e6).toFixed(1)} t`,
        );
        console.log(
          `${o.reference} ${preset}: ${used} containers (bound ${bound}) ${roads.join('; ')}; unplaced ${plan.unplaced.map((u) => `${u.ref} ${u.reason}`).join(', ') || 'none'}`,
        );
      }
    }
    rows.push([family, preset, tally]);
  }
}
const noiseAfter = measureNoise();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`bench:road, ${perFamily} orders per family and preset, seed ${arg('--seed', 11)}`);
console.log(
  'family            preset  orders  containers  bound  at bound  unplaced  violations  legal before  more than before  ms median  ms max',
);
let all = { containers: 0, bound: 0, violations: 0, more: 0, legal: 0, orders: 0 };
for (const [family, preset, t] of rows) {
  console.log(
    `${family.padEnd(17)} ${preset.padEnd(7)} ${String(t.orders).padStart(6)} ${String(t.containers).padStart(11)} ${String(t.bound).padStart(6)} ${String(t.atBound).padStart(9)} ${String(t.unplaced).padStart(9)} ${String(t.violations).padStart(11)} ${String(t.legalBefore).padStart(13)} ${String(t.moreThanBefore).padStart(17)} ${median(t.ms).toFixed(0).padStart(10)} ${Math.max(
      ...t.ms,
    )
      .toFixed(0)
      .padStart(7)}`,
  );
  all = {
    containers: all.containers + t.containers,
    bound: all.bound + t.bound,
    violations: all.violations + t.violations,
    more: all.more + t.moreThanBefore,
    legal: all.legal + t.legalBefore,
    orders: all.orders + t.orders,
  };
}
console.log(
  `all: ${all.orders} orders, ${all.containers} containers against a bound of ${all.bound} (${(all.containers / all.bound).toFixed(3)}x), ${all.violations} violations, ${all.legal} plans legal before of which ${all.more} now take more containers`,
);
for (const v of firstViolations) console.log(`violation: ${v}`);
console.log(digest.line());
console.log(formatNoise('before', noiseBefore));
console.log(formatNoise('after', noiseAfter));
if (all.violations > 0 || all.more > 0) process.exitCode = 1;
