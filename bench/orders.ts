// npm run bench:orders -- [--per-family N] [--seed S] [--verbose]
// Realistic order families planned on one thread, each against a reference computed in the bench
// from first principles (bench/lib/reference-plans.ts): pallets and containers against it, the
// share of containers inside the centre-of-gravity limits, units unplaced, ms per order. Every
// plan goes through the independent validator.
import { DEFAULT_EFFORT, planOrder } from '../src/planner/plan-order.js';
import { plannerInput } from '../src/planning/planner-input.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import { validatePlan } from '../src/planner/checks/validate-plan.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { benchOrders } from './lib/order-families.js';
import { PlanDigest } from './lib/plan-digest.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const perFamily = arg('--per-family', 12);
const seed = arg('--seed', 1);
const verbose = process.argv.includes('--verbose');
const limits = { timeLimitMs: 10_000, effort: DEFAULT_EFFORT };
const wasm = new PlannerWasm();
process.stderr.write(`${formatNoise('before', measureNoise())}\n`);

interface FamilyFigures {
  orders: number;
  withPlan: number;
  pallets: number;
  refPallets: number;
  containers: number;
  refContainers: number;
  /** Orders whose pallets stay within the reference, whose containers equal it (exact families) or stay within it (others). */
  palletsOk: number;
  containersOk: number;
  cogInside: number;
  cogContainers: number;
  unplaced: number;
  unplacedWithPlan: number;
  ms: number[];
  violations: number;
  /** Plans by how their search ended (metrics.exit). */
  exits: Map<string, number>;
}

const exitsLine = (exits: Map<string, number>): string => [...exits].map(([k, n]) => `${k} ${n}`).join(', ');
const allExits = new Map<string, number>();
const allSearchExits = new Map<string, number>();

const families = new Map<string, FamilyFigures>();
const digest = new PlanDigest();
for (const b of benchOrders(seed, perFamily)) {
  const t0 = performance.now();
  const plan = planOrder(wasm, plannerInput(b.input), limits);
  const ms = performance.now() - t0;
  digest.add(plan);
  const violations = validatePlan(b.input, plan);
  const f = families.get(b.family) ?? {
    orders: 0,
    withPlan: 0,
    pallets: 0,
    refPallets: 0,
    containers: 0,
    refContainers: 0,
    palletsOk: 0,
    containersOk: 0,
    cogInside: 0,
    cogContainers: 0,
    unplaced: 0,
    unplacedWithPlan: 0,
    ms: [],
    violations: 0,
    exits: new Map<string, number>(),
  };
  const exit = plan.metrics.exit ?? 'unknown';
  f.exits.set(exit, (f.exits.get(exit) ?? 0) + 1);
  allExits.set(exit, (allExits.get(exit) ?? 0) + 1);
  for (const [k, n] of Object.entries(plan.metrics.search_exits ?? {})) allSearchExits.set(k, (allSearchExits.get(k) ?? 0) + n);
  families.set(b.family, f);
  const pallets = plan.pallets.length + b.input.order.pre_builts.reduce((s, p) => s + p.count, 0);
  const unplaced = plan.unplaced.reduce((s, u) => s + u.count, 0);
  const ref = b.reference;
  f.orders++;
  f.ms.push(ms);
  f.violations += violations.length;
  f.unplaced += unplaced;
  if (ref.plan) {
    f.withPlan++;
    f.pallets += pallets;
    f.refPallets += ref.pallets;
    f.containers += plan.containers.length;
    f.refContainers += ref.containers;
    // a palletizer may beat the guillotine reference (layers of different faces), never lose to it
    if (pallets <= ref.pallets) f.palletsOk++;
    if (ref.exact ? plan.containers.length === ref.containers : plan.containers.length <= ref.containers) f.containersOk++;
    f.unplacedWithPlan += unplaced;
    f.cogContainers += plan.containers.length;
    f.cogInside += plan.containers.filter((c) => c.within_cog_limits).length;
  }
  const row = {
    family: b.family,
    order: b.name,
    pallets,
    ref_pallets: ref.pallets,
    containers: plan.containers.map((c) => c.code).join('+'),
    ref_containers: ref.plan ? ref.containers : 'no plan',
    cog_inside: `${plan.containers.filter((c) => c.within_cog_limits).length}/${plan.containers.length}`,
    unplaced,
    ms: Math.round(ms),
    violations: violations.length,
  };
  const off =
    ref.plan &&
    (pallets > ref.pallets ||
      (ref.exact ? plan.containers.length !== ref.containers : plan.containers.length > ref.containers) ||
      unplaced > 0);
  if (verbose || off || violations.length > 0) process.stdout.write(`${JSON.stringify(row)}\n`);
  for (const v of violations.slice(0, 3)) process.stderr.write(`VIOLATION ${b.name}: ${v}\n`);
}

const pct = (a: number, b: number): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);
for (const [name, f] of families) {
  const meanMs = f.ms.reduce((a, b) => a + b, 0) / f.ms.length;
  process.stdout.write(
    `${name}: ${f.orders} orders (${f.withPlan} with a reference plan); pallets ${f.pallets} vs reference ${f.refPallets} (${f.palletsOk}/${f.withPlan} on target); ` +
      `containers ${f.containers} vs reference ${f.refContainers} (${f.containersOk}/${f.withPlan} on target); ` +
      `inside CoG limits ${f.cogInside}/${f.cogContainers} (${pct(f.cogInside, f.cogContainers)}); units unplaced ${f.unplaced} (${f.unplacedWithPlan} where the reference has a plan); ` +
      `ms per order mean ${meanMs.toFixed(0)} max ${Math.max(...f.ms).toFixed(0)}; violations ${f.violations}; exits: ${exitsLine(f.exits)}\n`,
  );
}
process.stdout.write(`planner exits (plans): ${exitsLine(allExits)}; block searches: ${exitsLine(allSearchExits)}\n`);
process.stdout.write(`${digest.line()}\n`);
process.stderr.write(`${formatNoise('after', measureNoise())}\n`);
