// The part of the planner's plan (src/plan-contract/plan-types.ts) this document reads. It works out
// pallet layers itself from the units and leaves the planner's metrics aside, so those are not
// required here, and samples in tests need not invent them. Lengths in integer mm, weights in grams.
import type * as Planner from '../plan-contract/plan-types.js';

export type PalletUnit = Planner.PalletUnit;
export type PalletContentLine = Planner.PalletContentsLine;
export type PlannedPallet = Omit<Planner.PlannedPallet, 'layers'>;
export type PlacementKind = Planner.PlacementKind;
export type ContainerPlacement = Planner.ContainerPlacement;
export type PlannedContainer = Planner.PlannedContainer;
export type Unplaced = Planner.Unplaced;

export interface OrderPlan {
  pallets: PlannedPallet[];
  containers: PlannedContainer[];
  unplaced: Unplaced[];
}
