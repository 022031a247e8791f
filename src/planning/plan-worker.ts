// A planner worker thread: one WebAssembly instance, one plan at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { planOrder } from '../planner/plan-order.js';
import { PlannerWasm } from '../planner/planner-wasm.js';
import type { PlanLimits } from '../plan-contract/plan-types.js';
import type { PlanOrderInput, TogetherInput } from '../plan-contract/planner-input.js';
import { planTogether } from '../planner/plan-together.js';
import { compactPlan } from '../plan-contract/plan-storage.js';
import type { WorkerReply } from '../workers/worker-pool.js';
import { lowerPriorityAsAsked } from '../workers/lower-thread-priority.js';

/**
 * `stored`: the plan comes back as stored (compactPlan): a small part of the whole plan's size for
 * pallets of hundreds of units, so the main thread neither copies the whole plan out of this thread
 * nor compacts it, work that grows with the order (docs/benchmarks.md).
 */
export type PlanJob =
  | { input: PlanOrderInput; limits: PlanLimits; together?: undefined; stored?: boolean }
  | { together: TogetherInput; limits: PlanLimits };

lowerPriorityAsAsked(workerData);
const wasm = new PlannerWasm();
const port = parentPort;
if (!port) throw new Error('plan-worker must run in a worker thread');
port.on('message', (job: PlanJob) => {
  let reply: WorkerReply;
  try {
    reply = { ok: true, result: job.together ? planTogether(wasm, job.together, job.limits) : planAlone(job) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies WorkerReply);

function planAlone(job: Extract<PlanJob, { input: PlanOrderInput }>) {
  const plan = planOrder(wasm, job.input, job.limits);
  return job.stored ? compactPlan(plan) : plan;
}
