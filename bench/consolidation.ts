// npm run bench:consolidation -- [--lanes N] [--orders N] [--window S] [--seed S]
// Seeded streams of small and medium orders on a few lanes, arriving at random (mean gap 2 min):
// the containers they ship in when each is planned alone, against consolidation by the lane's
// window (planned together where that saves containers, src/planner/plan-together.ts, with the
// reactor's rule), and the submit-to-ready latency the window adds (from submit to the window's close).
import { DEFAULT_EFFORT } from '../src/planner/plan-order.js';
import type { OrderPlan } from '../src/plan-contract/plan-types.js';
import { togetherInput } from '../src/planning/planner-input.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import { planTogether } from '../src/planner/plan-together.js';
import { validatePlan } from '../src/planner/checks/validate-plan.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { seededOrder } from './lib/seeded-orders.js';
import { PlanDigest } from './lib/plan-digest.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const lanes = arg('--lanes', 3);
const ordersPerLane = arg('--orders', 12);
const windowS = arg('--window', 900);
const firstSeed = arg('--seed', 1);
const limits = { timeLimitMs: 10_000, effort: DEFAULT_EFFORT };
const wasm = new PlannerWasm();

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

process.stderr.write(`${formatNoise('before', measureNoise())}\n`);
let aloneTotal = 0;
let withTotal = 0;
let violations = 0;
const waits: number[] = [];
const plannerMs: number[] = [];
const digest = new PlanDigest();
for (let lane = 0; lane < lanes; lane++) {
  const rnd = prng(firstSeed * 1000 + lane);
  // one lane's item master: the seeded order's items; its orders take some of them each
  const base = seededOrder(firstSeed * 100 + lane, { skus: 12, units: 100 });
  let t = 0;
  const stream = Array.from({ length: ordersPerLane }, (_, k) => {
    t += -Math.log(1 - rnd()) * 120; // exponential gaps, mean 2 min
    const small = rnd() < 0.6;
    const units = small ? 40 + Math.floor(rnd() * 300) : 400 + Math.floor(rnd() * 1600);
    const picked = base.lane.items.filter(() => rnd() < 0.4).slice(0, 6);
    const items = picked.length > 0 ? picked : [base.lane.items[0]!];
    return {
      at: t,
      service_ref: `L${lane}-${k + 1}`,
      order: {
        ...base.order,
        reference: `L${lane}-${k + 1}`,
        order_items: items.map((it, i) => ({
          item: it.sku,
          quantity: String(Math.max(1, Math.round(units / items.length))),
          purchase_order: '',
          line_item_number: String(i + 1),
          notes: '',
        })),
        order_containers: [
          { code: '40ft-HC' as const, count: 5 },
          { code: '20ft' as const, count: 5 },
        ],
      },
    };
  });
  // windows as the reactor opens them: the first order opens one, later ones join until it closes
  const windows: (typeof stream)[] = [];
  let open: { closes: number; orders: typeof stream } | undefined;
  for (const o of stream) {
    if (!open || o.at >= open.closes) {
      open = { closes: o.at + windowS, orders: [] };
      windows.push(open.orders);
    }
    open.orders.push(o);
    waits.push(open.closes - o.at);
  }
  for (const w of windows) {
    const t0 = performance.now();
    const plans = planTogether(wasm, togetherInput(base.lane, w), limits);
    plannerMs.push(performance.now() - t0);
    for (const p of [...plans.alone, plans.together]) digest.add(p);
    const left = (p: OrderPlan): number => p.unplaced.reduce((s, u) => s + u.count, 0);
    const alone = plans.alone.reduce((s, p) => s + p.containers.length, 0);
    const together = plans.together.containers.length;
    const saves = w.length > 1 && together < alone && left(plans.together) <= plans.alone.reduce((s, p) => s + left(p), 0);
    aloneTotal += alone;
    withTotal += saves ? together : alone;
    plans.alone.forEach((p, i) => {
      violations += validatePlan({ lane: base.lane, order: w[i]!.order }, p).length;
    });
    process.stdout.write(
      `${JSON.stringify({ lane, orders: w.length, containers_alone: alone, containers_together: together, consolidated: saves, ms: Math.round(performance.now() - t0) })}\n`,
    );
  }
}
const sorted = [...waits].sort((a, b) => a - b);
const pct = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
process.stderr.write(
  `${lanes} lanes x ${ordersPerLane} orders, window ${windowS} s: containers ${withTotal} with consolidation vs ${aloneTotal} each alone ` +
    `(${(100 * (1 - withTotal / aloneTotal)).toFixed(1)} % fewer); latency added by the window: mean ${(waits.reduce((a, b) => a + b, 0) / waits.length).toFixed(0)} s, ` +
    `p95 ${pct(0.95).toFixed(0)} s, max ${pct(1).toFixed(0)} s (the window's length at most); planner per window mean ${(plannerMs.reduce((a, b) => a + b, 0) / plannerMs.length).toFixed(0)} ms; violations ${violations}\n`,
);
process.stderr.write(`${digest.line()}\n`);
process.stderr.write(`${formatNoise('after', measureNoise())}\n`);
