// The load planner's public face: what the rest of the service and the benchmarks use.
export { LoadPlanner, DEFAULT_TIME_LIMIT_MS, type LoadPlannerOptions } from './load-planner.js';
export { planOrder, DEFAULT_EFFORT, DEFAULT_SEED } from './plan-order.js';
export type {
  ContainerPlacement, OrderPlan, PalletContentsLine, PalletLayer, PalletUnit, PlacementKind, PlanLimits, PlanMetrics,
  PlanOrderInput, PlannedContainer, PlannedPallet, Unplaced, UnplacedReason,
} from './plan-types.js';
export { CONTAINER_CATALOG, containerSpec, type ContainerSpec } from './containers.js';
export { validatePlan } from './validate-plan.js';
export { compactPlan, expandPlan, storedPalletContents, type StoredPlan } from './plan-storage.js';
export { validateBrPacking, volumeUtilization } from './validate-br-packing.js';
export type { BrBoxType, BrInstance, BrPlacement } from './br-instance.js';
export { packContainer, type PackContainerOptions, type PackContainerResult } from './pack-container.js';
export { PlannerWasm } from './planner-wasm.js';
