// npm run bench:random-orders -- [--orders N] [--seed S]
// Hostile random orders on the demo lane: 0-4 pre-built rows (20-300 cm, 1 kg to 4 t, stacking
// flags at random), 0-4 loose-box rows (5-250 cm, up to 300 each), some SKU lines, and a random
// set of containers, a third of the rows booked by count. No reference plan exists for them: the
// bench reports what a loading supervisor checks first, the share of containers inside the
// centre-of-gravity limits (and which way the others are off), with violations and ms per order.
import { readFileSync } from 'node:fs';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import type { LooseBox, OrderContainer, PreBuilt } from '../src/orders/submit-order-payload.js';
import { DEFAULT_EFFORT, planOrder } from '../src/planner/plan-order.js';
import { plannerInput, type LaneOrder } from '../src/planning/planner-input.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import { validatePlan } from '../src/planner/checks/validate-plan.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { prng } from './lib/seeded-orders.js';
import { PlanDigest } from './lib/plan-digest.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const lane = (
  JSON.parse(readFileSync(new URL('../../demo/master-data.json', import.meta.url), 'utf8')) as {
    company_groups: { lanes: LaneDocument[] }[];
  }
).company_groups[0]!.lanes[0]!;
const orders = arg('--orders', 200);
const rnd = prng(arg('--seed', 7));
const int = (a: number, b: number): number => a + Math.floor(rnd() * (b - a + 1));
const flag = (p: number): boolean => rnd() < p;

function randomOrder(k: number): LaneOrder {
  const pre_builts: PreBuilt[] = Array.from({ length: int(0, 4) }, (_, i) => ({
    name: `P${i}`,
    length: String(int(20, 300)),
    width: String(int(20, 240)),
    height: String(int(10, 280)),
    weight: String(int(1, 4000)),
    count: int(1, 40),
    prebuiltitem_set: [],
    double_stacked_bottom: flag(0.4),
    double_stacked_top: flag(0.4),
    rotation_x: flag(0.5),
  }));
  const loose_boxes: LooseBox[] = Array.from({ length: int(0, 4) }, (_, i) => ({
    name: `L${i}`,
    length: String(int(5, 250)),
    width: String(int(5, 200)),
    height: String(int(5, 250)),
    weight: String(int(1, 800)),
    count: int(1, 300),
    purchase_order: '',
    line_item_number: '',
    product_quantity: null,
    product_packages: null,
    double_stacked_bottom: flag(0.5),
    double_stacked_top: flag(0.5),
    rotation_x: flag(0.7),
    rotation_y: flag(0.3),
    rotation_z: flag(0.3),
  }));
  const order_items = lane.items
    .filter(() => flag(0.4))
    .map((it, i) => ({
      item: it.sku,
      quantity: `${int(1, 800)}.000000`,
      purchase_order: 'PO',
      line_item_number: String(i + 1),
      notes: '',
    }));
  // an order needs some cargo (spec 2.3, rule 1)
  if (pre_builts.length + loose_boxes.length + order_items.length === 0)
    order_items.push({ item: lane.items[0]!.sku, quantity: '100.000000', purchase_order: 'PO', line_item_number: '1', notes: '' });
  const codes = (['20ft', '40ft', '40ft-HC'] as const).filter(() => flag(0.6));
  const order_containers: OrderContainer[] = (codes.length > 0 ? codes : (['40ft'] as const)).map((code) =>
    flag(0.3) ? { code, count: int(1, 3), exact: true } : { code, count: 5 },
  );
  return {
    lane,
    order: {
      supplier_name: 'S',
      consignee_name: 'C',
      reference: `random-${k}`,
      transportation_mode: 'OceanFCL',
      shipment_type: 'normal',
      order_items,
      pre_builts,
      loose_boxes,
      order_containers,
      customer_notes: null,
      send_email: false,
      extra_recipients: [],
      extra_cc_recipients: [],
    },
  };
}

const wasm = new PlannerWasm();
process.stderr.write(`${formatNoise('before', measureNoise())}\n`);
const digest = new PlanDigest();
let containers = 0;
let inside = 0;
let offAlong = 0;
let offAcross = 0;
let violations = 0;
const ms: number[] = [];
for (let k = 0; k < orders; k++) {
  const input = randomOrder(k);
  const t0 = performance.now();
  const plan = planOrder(wasm, plannerInput(input), { timeLimitMs: 10_000, effort: DEFAULT_EFFORT });
  ms.push(performance.now() - t0);
  digest.add(plan);
  const v = validatePlan(input, plan);
  violations += v.length;
  for (const msg of v.slice(0, 3)) process.stderr.write(`VIOLATION order ${k}: ${msg}\n`);
  for (const c of plan.containers) {
    const g = c.center_of_gravity_mm;
    if (!g) continue; // booked and not needed: nothing to weigh
    containers++;
    if (c.within_cog_limits) inside++;
    if (Math.abs(g.x - c.inner_mm.l / 2) > 0.05 * c.inner_mm.l) offAlong++;
    if (Math.abs(g.y - c.inner_mm.w / 2) > 0.05 * c.inner_mm.w) offAcross++;
  }
}
const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
process.stderr.write(
  `${orders} random orders: ${containers} loaded containers, inside the CoG limits ${inside} (${((100 * inside) / containers).toFixed(1)} %); ` +
    `off along the length ${offAlong}, off across ${offAcross}; violations ${violations}; ms per order mean ${mean.toFixed(0)} max ${Math.max(...ms).toFixed(0)}\n`,
);
process.stderr.write(`${digest.line()}\n`);
process.stderr.write(`${formatNoise('after', measureNoise())}\n`);
