// npm run bench:planner [-- --orders N --rounds R --baseline-build DIR]
// The planner's own work on bench:pipeline's burst, without the service around it: the same orders
// (bench/lib/pipeline-orders.ts) planned one after another on this thread, as a planner worker plans
// them, with fresh planner state (WebAssembly instance and caches) each round. Prints the CPU time of
// a round (this thread's), the time per order, the caches' hits, and a digest of the plans (every
// field but their metrics). --baseline-build DIR: another checkout's build plans the same orders in
// the same process, rounds interleaved (ours, theirs, theirs, ours, ...), so the ratio of the CPU
// times holds while the machine's load moves; the digests say whether both give the same plans, and
// where they differ, which gives fewer containers, then pallets.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pipelineBurst } from './lib/pipeline-orders.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { numberOption } from './lib/number-option.js';
import type { OrderPlan, PlanLimits } from '../src/plan-contract/plan-types.js';
import type { PlanOrderInput } from '../src/plan-contract/planner-input.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import type { SubmitOrderPayload } from '../src/orders/submit-order-payload.js';
import { validatePlan } from '../src/planner/checks/validate-plan.js';

const args = process.argv.slice(2);
const ORDERS = numberOption(args, 'orders', 100);
const ROUNDS = numberOption(args, 'rounds', 3);
const baselineAt = args.indexOf('--baseline-build');
const baselineDir = baselineAt >= 0 ? resolve(args[baselineAt + 1] ?? '') : undefined;

/** What a build is asked for: its own modules, so each plans with its own wasm and host code. */
interface Build {
  label: string;
  newWasm: () => unknown;
  planOrder: (wasm: unknown, input: PlanOrderInput, limits: PlanLimits) => OrderPlan;
  inputs: PlanOrderInput[];
  /** The orders as submitted with their lane, for this build's validator. */
  submitted: { lane: LaneDocument; order: SubmitOrderPayload }[];
  effort: number;
  /** Forgets what the build's caches hold (builds without caches: nothing to do). */
  clearCaches: () => void;
  /** Hits and lookups of the build's caches since the last clear, when it has any. */
  cacheStats: () => string | undefined;
}

async function loadBuild(label: string, dist: string): Promise<Build> {
  const from = (path: string) => import(pathToFileURL(`${dist}/${path}`).href);
  const [wasmModule, planModule, inputModule, validateModule] = await Promise.all([
    from('src/planner/planner-wasm.js'),
    from('src/planner/plan-order.js'),
    from('src/planning/planner-input.js'),
    from('src/orders/validate-submit-order.js'),
  ]);
  const cacheModule = existsSync(`${dist}/src/planner/planner-caches.js`) ? await from('src/planner/planner-caches.js') : undefined;
  const { lane, orders } = pipelineBurst(ORDERS);
  const submitted = orders.map((body) => {
    const valid = validateModule.validateSubmitOrder(body);
    if (!valid.ok) throw new Error(`order not valid: ${JSON.stringify(valid.errors)}`);
    return { lane: lane as LaneDocument, order: valid.value as SubmitOrderPayload };
  });
  const inputs = submitted.map((o) => inputModule.plannerInput(o) as PlanOrderInput);
  return {
    label,
    newWasm: () => new wasmModule.PlannerWasm(),
    planOrder: planModule.planOrder,
    inputs,
    submitted,
    effort: planModule.DEFAULT_EFFORT,
    clearCaches: () => cacheModule?.clearPlannerCaches(),
    cacheStats: () => cacheModule?.describePlannerCaches(),
  };
}

interface Round {
  cpuMs: number;
  orderMs: number[];
  digest: string;
  plans: OrderPlan[];
  caches?: string | undefined;
}

function planAll(build: Build): Round {
  build.clearCaches();
  const wasm = build.newWasm();
  const digest = createHash('sha256');
  const orderMs: number[] = [];
  const plans: OrderPlan[] = [];
  // a limit no plan reaches: the effort budget alone ends the searches, so both builds search alike
  const limits = { timeLimitMs: 1e9, effort: build.effort };
  const before = process.threadCpuUsage();
  for (const input of build.inputs) {
    const t0 = performance.now();
    const plan = build.planOrder(wasm, input, limits);
    orderMs.push(performance.now() - t0);
    plans.push(plan);
  }
  const cpu = process.threadCpuUsage(before);
  for (const { metrics: _metrics, ...plan } of plans) digest.update(JSON.stringify(plan));
  return { cpuMs: (cpu.user + cpu.system) / 1000, orderMs, digest: digest.digest('hex').slice(0, 16), plans, caches: build.cacheStats() };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const median = (values: number[]) => percentile(values, 50);

const builds = [await loadBuild('this build', resolve(import.meta.dirname, '..'))];
if (baselineDir) {
  if (!existsSync(`${baselineDir}/dist/src/planner/plan-order.js`))
    throw new Error(`--baseline-build ${baselineDir}: no dist/src/planner/plan-order.js (run npm run build there first)`);
  builds.push(await loadBuild(`baseline ${baselineDir}`, `${baselineDir}/dist`));
}

const noiseBefore = measureNoise();
const rounds = builds.map((): Round[] => []);
for (let r = 0; r < ROUNDS; r++) {
  // ours first in even rounds, theirs first in odd ones: neither build always runs on a warmer machine
  const order = r % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
  for (const i of order) rounds[i]!.push(planAll(builds[i]!));
}
const noiseAfter = measureNoise();

console.log(
  `bench:planner: bench:pipeline's ${ORDERS} orders planned one after another on one thread, ${ROUNDS} rounds, fresh planner state each round`,
);
builds.forEach((build, i) => {
  const runs = rounds[i]!;
  const cpu = runs.map((r) => r.cpuMs);
  const perOrder = runs.flatMap((r) => r.orderMs);
  console.log(
    `\n${build.label}: CPU per round ${cpu.map((c) => c.toFixed(0)).join(' / ')} ms (median ${median(cpu).toFixed(0)} ms, ${(median(cpu) / ORDERS).toFixed(1)} ms an order)`,
  );
  console.log(
    `  time per order: p50 ${percentile(perOrder, 50).toFixed(1)} ms, p95 ${percentile(perOrder, 95).toFixed(1)} ms, max ${Math.max(...perOrder).toFixed(1)} ms`,
  );
  console.log(
    `  plans digest: ${[...new Set(runs.map((r) => r.digest))].join(', ')}${new Set(runs.map((r) => r.digest)).size === 1 ? ' (every round the same)' : ' (rounds DIFFER)'}`,
  );
  const caches = runs[runs.length - 1]!.caches;
  if (caches) console.log(`  caches (last round): ${caches}`);
  if (i === 0) {
    // this build's plans through its independent validator, outside the timed rounds
    const found = runs[0]!.plans.flatMap((plan, k) => validatePlan(build.submitted[k]!, plan));
    console.log(
      `  validator: ${found.length} violations in ${runs[0]!.plans.length} plans${found.length > 0 ? `; first: ${found[0]}` : ''}`,
    );
    if (found.length > 0) process.exitCode = 1;
  }
});
if (builds.length === 2) {
  const [ours, theirs] = rounds as [Round[], Round[]];
  const ratios = ours.map((r, k) => r.cpuMs / theirs[k]!.cpuMs);
  console.log(
    `\nthis build / baseline, CPU per round, round by round: ${ratios.map((x) => x.toFixed(2)).join(' / ')}x (median ${median(ratios).toFixed(2)}x; of the medians ${(median(ours.map((r) => r.cpuMs)) / median(theirs.map((r) => r.cpuMs))).toFixed(2)}x)`,
  );
  const a = ours[0]!.plans;
  const b = theirs[0]!.plans;
  if (ours[0]!.digest === theirs[0]!.digest) console.log('plans: the same for every order (digests equal)');
  else {
    let better = 0,
      worse = 0,
      same = 0;
    a.forEach((plan, k) => {
      const other = b[k]!;
      const { metrics: _m1, ...p1 } = plan;
      const { metrics: _m2, ...p2 } = other;
      if (JSON.stringify(p1) === JSON.stringify(p2)) return void same++;
      const score = (p: OrderPlan) => [p.unplaced.reduce((s, u) => s + u.count, 0), p.containers.length, p.pallets.length];
      const [x, y] = [score(plan), score(other)];
      const cmp = x.findIndex((v, j) => v !== y[j]);
      if (cmp < 0 || x[cmp]! === y[cmp]!) same++;
      else if (x[cmp]! < y[cmp]!) better++;
      else worse++;
    });
    console.log(
      `plans DIFFER: of ${a.length} orders, ${same} as good (left behind, containers, pallets), ${better} better here, ${worse} worse here`,
    );
  }
}
console.log(formatNoise('before the rounds', noiseBefore));
console.log(formatNoise('after the rounds', noiseAfter));
