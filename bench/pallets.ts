// npm run bench:pallets -- [--orders N] [--seed S]
// Seeded realistic orders palletized and loaded on one thread: pallets used against the lower
// bound max(volume bound, weight bound), ms per order, and the 6,000-unit order end to end.
import { DEFAULT_EFFORT, planOrder } from '../src/planner/plan-order.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import { validatePlan } from '../src/planner/validate-plan.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { seededOrder } from './lib/seeded-orders.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const orders = arg('--orders', 30);
const firstSeed = arg('--seed', 1);
const limits = { timeLimitMs: 10_000, effort: arg('--effort', DEFAULT_EFFORT) };
const wasm = new PlannerWasm();
process.stderr.write(`${formatNoise('before', measureNoise())}\n`);
const ratios: number[] = [];
const times: number[] = [];
let violations = 0;
let unpalletized = 0;
for (let k = 0; k < orders; k++) {
  const input = seededOrder(firstSeed + k);
  const t0 = performance.now();
  const plan = planOrder(wasm, input, limits);
  const ms = performance.now() - t0;
  const v = validatePlan(input, plan);
  violations += v.length;
  const ratio = plan.metrics.pallet_count / plan.metrics.pallet_lower_bound;
  ratios.push(ratio);
  times.push(ms);
  const row = {
    seed: firstSeed + k, pallet: input.lane.pallet_types[0]!.code, skus: input.lane.items.length, units: plan.metrics.units,
    pallets: plan.metrics.pallet_count, lower_bound: plan.metrics.pallet_lower_bound, ratio,
    unpalletized: plan.metrics.units - plan.metrics.units_palletized, containers: plan.metrics.container_count, ms, violations: v.length,
  };
  unpalletized += row.unpalletized;
  process.stdout.write(`${JSON.stringify(row)}\n`);
  for (const msg of v.slice(0, 3)) process.stderr.write(`VIOLATION seed ${firstSeed + k}: ${msg}\n`);
}
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
process.stderr.write(
  `${orders} orders: pallets / lower bound mean ${mean(ratios).toFixed(3)} max ${Math.max(...ratios).toFixed(3)}; ms per order mean ${mean(times).toFixed(0)} max ${Math.max(...times).toFixed(0)}; units left off pallets ${unpalletized}; violations ${violations}\n`,
);

// the yardstick: a 6,000-unit order palletized and loaded in under 2 s
const big = seededOrder(6000, { skus: 40, units: 6000 });
const t0 = performance.now();
const plan = planOrder(wasm, big, limits);
const ms = performance.now() - t0;
process.stderr.write(
  `6,000-unit order (40 SKUs, ${big.lane.pallet_types[0]!.code}): ${plan.metrics.units} units on ${plan.metrics.pallet_count} pallets (lower bound ${plan.metrics.pallet_lower_bound}) in ${plan.metrics.container_count} containers, ${ms.toFixed(0)} ms, violations ${validatePlan(big, plan).length}\n`,
);
process.stderr.write(`${formatNoise('after', measureNoise())}\n`);
