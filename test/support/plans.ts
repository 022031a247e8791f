// Plans for tests that are about what happens to a plan, not what is in it: an empty OrderPlan, told
// apart from another by its planner_ms.
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';

export function emptyPlan(plannerMs = 0): OrderPlan {
  return {
    pallets: [],
    containers: [],
    unplaced: [],
    metrics: {
      planner_ms: plannerMs,
      pallet_count: 0,
      container_count: 0,
      pallet_lower_bound: 0,
      units: 0,
      units_palletized: 0,
      time_limited: false,
    },
  };
}
