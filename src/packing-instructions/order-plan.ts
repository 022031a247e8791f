// The load plan as this document reads it. The planner (src/planner) owns the real type; this is
// the minimal shape the PDF needs, so that structural typing lets the planner's result fit without
// this folder importing the planner. All lengths are integer mm, weights integer grams.

/** A unit on a service-built pallet; x along the pallet length, y across, z from the deck top. */
export interface PalletUnit {
  sku: string;
  purchase_order: string;
  line_item_number: string;
  x: number;
  y: number;
  z: number;
  l: number;
  w: number;
  h: number;
}

/** One SKU / purchase order / line on a pallet, quantities summed (spec 2.2). */
export interface PalletContentLine {
  sku: string;
  purchase_order: string;
  line_item_number: string;
  quantity: number;
}

export interface PlannedPallet {
  /** The optimizer's label: AP1, AP2, ... */
  pallet_index: string;
  pallet_code: string;
  length_mm: number;
  width_mm: number;
  /** Loaded height, pallet included. */
  height_mm: number;
  /** Loaded weight, pallet included. */
  weight_g: number;
  units: PalletUnit[];
  contents: PalletContentLine[];
}

export type PlacementKind = 'pallet' | 'pre_built' | 'loose_box';

/** Something in a container; x from the back wall along the length, y across, z up. */
export interface ContainerPlacement {
  kind: PlacementKind;
  /** AP3, "<pre-built name> #2", "<box name> #5". */
  ref: string;
  x: number;
  y: number;
  z: number;
  l: number;
  w: number;
  h: number;
  weight_g: number;
  /** 1 goes in first, at the back wall. */
  loading_order: number;
}

export interface PlannedContainer {
  code: string;
  index: number;
  inner_mm: { l: number; w: number; h: number };
  payload_g: number;
  placements: ContainerPlacement[];
  /** 0..1 */
  volume_utilization: number;
  /** 0..1 */
  weight_utilization: number;
}

export interface Unplaced {
  kind: string;
  ref: string;
  count: number;
  reason: string;
}

export interface OrderPlan {
  pallets: PlannedPallet[];
  containers: PlannedContainer[];
  unplaced: Unplaced[];
}
