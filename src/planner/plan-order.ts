// Plans an order: its SKU units onto pallets, then pallets, pre-built pallets and loose boxes
// into its containers. Runs inside a planner worker (load-planner.ts); same input and seed give
// the same plan unless the time limit cuts a search short (metrics.time_limited).
import { loadOrderContainers } from './load-containers.js';
import { palletizeOrder, palletTypeMm } from './palletize.js';
import type { PlannerWasm } from './planner-wasm.js';
import type { OrderPlan, PlanLimits, PlanOrderInput } from './plan-types.js';

export type {
  ContainerPlacement, OrderPlan, PalletContentsLine, PalletLayer, PalletUnit, PlacementKind, PlanLimits, PlanMetrics,
  PlanOrderInput, PlannedContainer, PlannedPallet, Unplaced, UnplacedReason,
} from './plan-types.js';

/** Greedy placements per search; sized so a large order plans well within the time limit. */
export const DEFAULT_EFFORT = 4000;
export const DEFAULT_SEED = 1;

export function planOrder(wasm: PlannerWasm, input: PlanOrderInput, limits: PlanLimits): OrderPlan {
  const t0 = performance.now();
  const { lane, order } = input;
  const seed = (input.seed ?? DEFAULT_SEED) >>> 0;
  const palletDoc = input.palletCode === undefined ? lane.pallet_types[0] : lane.pallet_types.find((p) => p.code === input.palletCode);
  const palletType = palletDoc ? palletTypeMm(lane, palletDoc) : undefined;
  // palletizing gets most of the time; loading works on far fewer, larger items
  const palletized = palletizeOrder(wasm, lane, order.order_items, palletType, { ...limits, timeLimitMs: limits.timeLimitMs * 0.6 }, seed);
  const remaining = Math.max(1, limits.timeLimitMs - (performance.now() - t0));
  const loaded = loadOrderContainers(
    wasm, lane, order.order_containers, palletized.pallets, order.pre_builts, order.loose_boxes, { ...limits, timeLimitMs: remaining }, seed,
  );
  return {
    pallets: palletized.pallets,
    containers: loaded.containers,
    unplaced: [...palletized.unplaced, ...loaded.unplaced],
    metrics: {
      planner_ms: performance.now() - t0,
      pallet_count: palletized.pallets.length,
      container_count: loaded.containers.length,
      pallet_lower_bound: palletized.lowerBound,
      units: palletized.units,
      units_palletized: palletized.unitsPalletized,
      time_limited: palletized.timeLimited || loaded.timeLimited,
    },
  };
}
