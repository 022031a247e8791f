// npm run bench:pallets -- [--orders N] [--seed S] [--effort E] [--time-limit-ms T]
// Seeded realistic orders palletized and loaded on one thread, on lanes offering EUR and GMA
// pallets: pallets used against the lower bound max(volume bound, weight bound) on the best type
// for each unit, ms per order, the 6,000-unit order end to end, and the demo lane's big order.
import { readFileSync } from 'node:fs';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { DEFAULT_EFFORT, planOrder } from '../src/planner/plan-order.js';
import type { OrderPlan } from '../src/plan-contract/plan-types.js';
import { palletTypeMm, plannerInput, type LaneOrder } from '../src/planning/planner-input.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import { validatePlan } from '../src/planner/checks/validate-plan.js';
import { orderDemand } from '../src/planner/palletize.js';
import { palletLowerBound } from '../src/planner/pallet-lower-bound.js';
import { palletizations } from '../src/planner/palletizations.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { EUR, GMA, seededOrder } from './lib/seeded-orders.js';
import { PlanDigest } from './lib/plan-digest.js';

/** The seeded order on a lane with both pallet types, the seeded one first (the default). */
function withBothTypes(input: LaneOrder): LaneOrder {
  const first = input.lane.pallet_types[0]!;
  return { ...input, lane: { ...input.lane, pallet_types: [first, first.code === 'EUR' ? GMA : EUR] } };
}

const typesUsed = (plan: OrderPlan): string => {
  const n = new Map<string, number>();
  for (const p of plan.pallets) n.set(p.pallet_code, (n.get(p.pallet_code) ?? 0) + 1);
  return [...n].map(([code, k]) => `${k} ${code}`).join(' + ');
};

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const orders = arg('--orders', 30);
const firstSeed = arg('--seed', 1);
// --time-limit-ms: on a busy shared machine the default 10 s cuts searches the effort budget would finish
const limits = { timeLimitMs: arg('--time-limit-ms', 10_000), effort: arg('--effort', DEFAULT_EFFORT) };
const wasm = new PlannerWasm();
process.stderr.write(`${formatNoise('before', measureNoise())}\n`);
const digest = new PlanDigest();
const ratios: number[] = [];
const chosenRatios: number[] = [];
const fewestRatios: number[] = [];
const times: number[] = [];
const cpuTimes: number[] = [];
let timeLimited = 0;
let violations = 0;
let unpalletized = 0;
for (let k = 0; k < orders; k++) {
  const input = withBothTypes(seededOrder(firstSeed + k));
  const planned = plannerInput(input);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const plan = planOrder(wasm, planned, limits);
  const ms = performance.now() - t0;
  digest.add(plan);
  const cpu = process.cpuUsage(cpu0);
  // CPU time too: on a shared machine the wall clock counts other people's work
  cpuTimes.push((cpu.user + cpu.system) / 1000);
  if (plan.metrics.time_limited) timeLimited++;
  const v = validatePlan(input, plan);
  violations += v.length;
  const ratio = plan.metrics.pallet_count / plan.metrics.pallet_lower_bound;
  ratios.push(ratio);
  // The plan picks the type for fewest containers first: an order on EUR (25 a 40ft) can need more
  // pallets than the GMA bound says and still fewer containers. Against the bound on the types it
  // chose, the ratio measures the palletizer alone.
  const chosen = input.lane.pallet_types.filter((t) => plan.pallets.some((p) => p.pallet_code === t.code));
  const chosenBound =
    chosen.length > 0
      ? palletLowerBound(
          orderDemand(planned.items, planned.lines),
          chosen.map((t) => palletTypeMm(input.lane, t)),
        )
      : plan.metrics.pallet_lower_bound;
  const chosenRatio = chosenBound > 0 ? plan.metrics.pallet_count / chosenBound : 1;
  chosenRatios.push(chosenRatio);
  // the palletizer alone: the fewest pallets among the palletizations the plan chose from, each
  // searched as the plan searched it (same seed, the plan's share of the time)
  const demand = orderDemand(planned.items, planned.lines);
  const types = planned.palletTypes;
  const options = palletizations(wasm, demand, types, { ...limits, timeLimitMs: limits.timeLimitMs * 0.6 }, input.seed ?? 1);
  // the plan's own is one of them (a search the clock cut short can differ from one run to the next)
  const fewest = Math.min(plan.metrics.pallet_count, ...options.filter((o) => o.unplaced.length === 0).map((o) => o.pallets.length));
  fewestRatios.push(fewest / plan.metrics.pallet_lower_bound);
  times.push(ms);
  const row = {
    seed: firstSeed + k,
    pallets_by_type: typesUsed(plan),
    skus: input.lane.items.length,
    units: plan.metrics.units,
    pallets: plan.metrics.pallet_count,
    lower_bound: plan.metrics.pallet_lower_bound,
    ratio,
    lower_bound_chosen_types: chosenBound,
    ratio_chosen_types: chosenRatio,
    fewest_pallets: fewest,
    ratio_fewest: fewest / plan.metrics.pallet_lower_bound,
    unpalletized: plan.metrics.units - plan.metrics.units_palletized,
    containers: plan.metrics.container_count,
    ms,
    time_limited: plan.metrics.time_limited,
    violations: v.length,
  };
  unpalletized += row.unpalletized;
  process.stdout.write(`${JSON.stringify(row)}\n`);
  for (const msg of v.slice(0, 3)) process.stderr.write(`VIOLATION seed ${firstSeed + k}: ${msg}\n`);
}
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
process.stderr.write(
  `${orders} orders: pallets / lower bound mean ${mean(ratios).toFixed(3)} max ${Math.max(...ratios).toFixed(3)}; ` +
    `the palletizer's fewest pallets (before the plan trades pallets for containers) / lower bound mean ${mean(fewestRatios).toFixed(3)} max ${Math.max(...fewestRatios).toFixed(3)}; ` +
    `against the bound on the pallet types each plan chose mean ${mean(chosenRatios).toFixed(3)} max ${Math.max(...chosenRatios).toFixed(3)}; ms per order mean ${mean(times).toFixed(0)} max ${Math.max(...times).toFixed(0)} (CPU ${mean(cpuTimes).toFixed(0)} / ${Math.max(...cpuTimes).toFixed(0)}); time-limited ${timeLimited}; units left off pallets ${unpalletized}; violations ${violations}\n`,
);

// the yardsticks: a 6,000-unit order palletized and loaded in under 2 s, 40 SKUs and 4 SKUs (the
// demo lane's big order of issue 13: 1,500 units of each demo SKU into 40ft-HC and 20ft, no counts)
const big = withBothTypes(seededOrder(6000, { skus: 40, units: 6000 }));
const DEMO_ORDER_SKUS = ['SKU-1001', 'SKU-1002', 'SKU-1003', 'SKU-1004'];
const demoLane = (
  JSON.parse(readFileSync(new URL('../../demo/master-data.json', import.meta.url), 'utf8')) as {
    company_groups: { lanes: LaneDocument[] }[];
  }
).company_groups[0]!.lanes[0]!;
const demo: LaneOrder = {
  lane: demoLane,
  order: {
    ...big.order,
    reference: 'demo-6000',
    // the four SKUs that order has always named (the lane has gained others since)
    order_items: DEMO_ORDER_SKUS.map((sku, i) => ({
      item: sku,
      quantity: '1500.000000',
      purchase_order: 'PO-1',
      line_item_number: String(i + 1),
      notes: '',
    })),
    order_containers: [
      { code: '40ft-HC', count: 5 },
      { code: '20ft', count: 5 },
    ], // no count given: 5 (spec 2.8)
  },
};
for (const [name, input] of [
  ['6,000-unit order (40 SKUs)', big],
  ['demo lane, 1,500 of each of 4 SKUs (6,000 units)', demo],
] as const) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const plan = planOrder(wasm, plannerInput(input), limits);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  digest.add(plan);
  const unplaced = plan.unplaced.reduce((s, u) => s + u.count, 0);
  process.stderr.write(
    `${name}: ${plan.metrics.units} units on ${plan.metrics.pallet_count} pallets (${typesUsed(plan)}), lower bound ${plan.metrics.pallet_lower_bound} ` +
      `(${(plan.metrics.pallet_count / plan.metrics.pallet_lower_bound).toFixed(3)}), ${plan.metrics.container_count} containers ` +
      `(${plan.containers.map((c) => `${c.code}: ${c.placements.length}`).join(', ')}), inside the CoG limits ${plan.containers.filter((c) => c.within_cog_limits).length}/${plan.containers.length}, ${unplaced} unplaced, ${ms.toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms), time-limited ${plan.metrics.time_limited}, violations ${validatePlan(input, plan).length}\n`,
  );
}
process.stderr.write(`${digest.line()}\n`);
process.stderr.write(`${formatNoise('after', measureNoise())}\n`);
