// The service's handle on the planner: a small pool of planner workers with a time limit per plan.
import { availableParallelism } from 'node:os';
import { DEFAULT_EFFORT } from '../planner/plan-order.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import type { StoredPlan } from '../plan-contract/plan-storage.js';
import type { PlanOrderInput, TogetherInput } from '../plan-contract/planner-input.js';
import type { PlanJob } from './plan-worker.js';
import type { NicenessData } from '../workers/lower-thread-priority.js';
import type { TogetherPlans } from '../planner/plan-together.js';
import { WorkerPool } from '../workers/worker-pool.js';

export interface LoadPlannerOptions {
  /** Worker threads; default: half the cores, at least 1. */
  threads?: number;
  /** Niceness of each worker thread (Linux), so that the main thread goes first; default 0: as the process. */
  niceness?: number | undefined;
  /** Per plan: searches stop at this and return their best; past it plus a grace the worker is killed. */
  timeLimitMs?: number;
  /** Greedy placements per search (the deterministic budget). */
  effort?: number;
  /** Past the time limit, how long assembling the plan may take before the worker is stopped; default max(1 s, half the limit). */
  graceMs?: number;
}

export const DEFAULT_TIME_LIMIT_MS = 10_000;

export class LoadPlanner {
  private readonly pool: WorkerPool;
  private readonly timeLimitMs: number;
  private readonly effort: number;
  private readonly graceMs: number;

  constructor(options: LoadPlannerOptions = {}) {
    this.timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
    this.effort = options.effort ?? DEFAULT_EFFORT;
    this.graceMs = options.graceMs ?? Math.max(1000, this.timeLimitMs / 2);
    const threads = options.threads ?? Math.max(1, Math.floor(availableParallelism() / 2));
    this.pool = new WorkerPool(new URL('./plan-worker.js', import.meta.url), threads, {
      niceness: options.niceness ?? 0,
    } satisfies NicenessData);
  }

  /** `group`: the company group the order belongs to; groups take turns for the planner threads. */
  plan(input: PlanOrderInput, group = ''): Promise<OrderPlan> {
    return this.run<OrderPlan>({ input, limits: this.limits() }, group);
  }

  /** The order's plan as it is stored (compactPlan), compacted in the planner's thread. */
  planStored(input: PlanOrderInput, group = ''): Promise<StoredPlan> {
    return this.run<StoredPlan>({ input, limits: this.limits(), stored: true }, group);
  }

  /** Orders of a consolidation: each alone, and all in shared containers (plan-together.ts). */
  planTogether(together: TogetherInput, group = ''): Promise<TogetherPlans> {
    return this.run<TogetherPlans>({ together, limits: this.limits() }, group);
  }

  /** Its threads' memory (WorkerPool.memoryBytes). */
  memoryBytes(): Promise<{ heap: number; external: number }> {
    return this.pool.memoryBytes();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private limits(): PlanJob['limits'] {
    return { timeLimitMs: this.timeLimitMs, effort: this.effort };
  }

  private run<T>(job: PlanJob, group: string): Promise<T> {
    // the searches stop themselves at the limit; the grace covers assembling the plan
    return this.pool.run<T>(job, this.timeLimitMs + this.graceMs, group);
  }
}
