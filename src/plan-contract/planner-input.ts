// What the planner plans from: an order's cargo and its lane's pallet types in whole millimetres
// and grams, whatever units the lane uses. The conversion is exact and happens once, before the
// planner (src/planning/planner-input.ts): sizes and weights of cargo round up (a box never
// shrinks), limits round down (a pallet deck or a weight limit never grows). Plain JSON: it goes to
// a worker thread as it is.
import type { ChassisClass, ContainerCode } from './container-codes.js';

/** A pallet type of the lane. */
export interface PalletTypeMm {
  code: string;
  l: number;
  w: number;
  /** The pallet's own height and weight. */
  h: number;
  weightG: number;
  /** Room for units: max_height less the pallet. */
  loadHeight: number;
  /** Weight for units: max_weight less the pallet. */
  loadWeightG: number;
}

/** The lane's master data of an item the order names. */
export interface ItemMm {
  sku: string;
  l: number;
  w: number;
  h: number;
  weightG: number;
  /** Stands only on its base. */
  upright: boolean;
  /** The most one unit may carry above it (0: nothing); absent: no limit. */
  maxLoadG?: number;
}

/** An order line (order_items) in whole units: part of a unit still ships as a unit. */
export interface OrderLineUnits {
  sku: string;
  purchase_order: string;
  line_item_number: string;
  units: number;
}

/** A row of identical boxes the order brings packed: a pre-built pallet or a loose box. */
export interface CargoRowMm {
  name: string;
  l: number;
  w: number;
  h: number;
  weightG: number;
  count: number;
  double_stacked_bottom: boolean;
  double_stacked_top: boolean;
  /** Spec 2.6: spins on the floor. */
  rotation_x: boolean;
}

export interface LooseBoxMm extends CargoRowMm {
  /** Spec 2.6: may tilt onto its length (rotation_y) or its width (rotation_z). */
  rotation_y: boolean;
  rotation_z: boolean;
  /** The most one box may carry above it (0: nothing); absent: no limit. */
  maxLoadG?: number;
}

/** Containers the order may use (spec 2.8). */
export interface ContainerRow {
  code: ContainerCode;
  count: number;
  /** The order gave the count: that many are booked, and the plan has exactly that many. */
  exact?: true;
}

/**
 * The road a truck takes the containers on (src/plan-contract/road-profile.ts in grams and whole
 * millimetres: tares rounded up, limits down). Positions along the container from its outer front face.
 */
export interface RoadMm {
  /** What the plan reports: "EU", "EU-44", "US", or the lane's own name for its numbers. */
  profile: string;
  tractor: {
    steerTareG: number;
    driveTareG: number;
    wheelbaseMm: number;
    /** The fifth wheel ahead of the centre of the drive axle group. */
    fifthWheelMm: number;
    steerLimitG: number;
    driveLimitG: number;
    /** The least share of the gross on the drive axles (0: none). */
    driveMinShare: number;
  };
  chassis: Partial<Record<ChassisClass, RoadChassisMm>>;
}

export interface RoadChassisMm {
  tareG: number;
  tareCogMm: number;
  kingpinMm: number;
  axleGroupMm: number;
  axleGroupLimitG: number;
  grossLimitG: number;
}

export interface PlanOrderInput {
  /** The lane's pallet types, its default (pallet_types[0]) first. */
  palletTypes: PalletTypeMm[];
  /** Master data of the SKUs the order names; a SKU without any is left unplaced. */
  items: ItemMm[];
  lines: OrderLineUnits[];
  preBuilts: CargoRowMm[];
  looseBoxes: LooseBoxMm[];
  containers: ContainerRow[];
  /** The road the containers travel; absent: no road rule (an OceanFCL order, a lane without a profile). */
  road?: RoadMm;
  /** Pallet type to use; default: every type of the lane is tried. */
  palletCode?: string;
  seed?: number;
}

/** Orders of one consolidation, each with the service_ref that marks its cargo (plan-together). */
export interface TogetherInput {
  orders: { service_ref: string; input: PlanOrderInput }[];
}
