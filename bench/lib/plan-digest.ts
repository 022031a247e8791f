// A digest of the plans a benchmark made, every field but their metrics (timings, search and cache
// counts): two builds that print the same digest made the same plans, order by order.
import { createHash } from 'node:crypto';
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';

export class PlanDigest {
  private readonly hash = createHash('sha256');
  private plans = 0;

  add(plan: OrderPlan): void {
    const { metrics: _metrics, ...rest } = plan;
    this.hash.update(JSON.stringify(rest));
    this.plans++;
  }

  /** "plans digest: <16 hex digits> (N plans)", for the benchmark's last lines. */
  line(): string {
    return `plans digest: ${this.hash.copy().digest('hex').slice(0, 16)} (${this.plans} plans, every field but their metrics)`;
  }
}
