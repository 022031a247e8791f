// The plan the load planner hands back: JSON-serializable, stored in an event as it is.
// Geometry in millimetres and grams; x along the container (back wall 0, door at l), y across,
// z up. What it is planned from: planner-input.ts.

/** A box as placed: minimum corner and sizes along x, y, z. */
export interface PlacedBox {
  x: number;
  y: number;
  z: number;
  l: number;
  w: number;
  h: number;
}

/** Position on the deck (z from the deck top) and sizes as placed. */
export interface PalletUnit extends PlacedBox {
  sku: string;
  purchase_order: string;
  line_item_number: string;
}

/** One layer of a pallet for drawing: the units whose base is at height z above the deck. */
export interface PalletLayer {
  z: number;
  height: number;
  unit_indexes: number[];
}

export interface PalletContentsLine {
  sku: string;
  purchase_order: string;
  line_item_number: string;
  quantity: number;
}

export interface PlannedPallet {
  pallet_index: string;
  pallet_code: string;
  length_mm: number;
  width_mm: number;
  /** Loaded height, pallet included. */
  height_mm: number;
  /** Loaded weight, pallet included. */
  weight_g: number;
  units: PalletUnit[];
  layers: PalletLayer[];
  contents: PalletContentsLine[];
}

export type PlacementKind = 'pallet' | 'pre_built' | 'loose_box';

export interface ContainerPlacement extends PlacedBox {
  kind: PlacementKind;
  /** AP3, or "<pre_built name> #k", or "<loose box name> #k" (k from 1 within its row). */
  ref: string;
  weight_g: number;
  /** 1 = loaded first (at the back); each item after everything it stands on. */
  loading_order: number;
  /** In a consolidated shipment: the service_ref of the order this cargo belongs to. */
  order?: string;
}

export interface PlannedContainer {
  code: string;
  /** 1-based among the plan's containers. */
  index: number;
  inner_mm: { l: number; w: number; h: number };
  payload_g: number;
  placements: ContainerPlacement[];
  volume_utilization: number;
  weight_utilization: number;
  /** The placements' weight summed. */
  cargo_weight_g: number;
  /** The cargo's centre of gravity to the whole millimetre (center-of-gravity.ts); null when empty. */
  center_of_gravity_mm: { x: number; y: number; z: number } | null;
  /**
   * Within the CTU Code's limits (5 % of the inner length from the middle, 5 % of the inner width
   * from the centreline). false: no plan the loader found meets them; the container still loads.
   */
  within_cog_limits: boolean;
  /**
   * The truck the container rides on and its axle loads by the lever rule (src/planner/road-loads.ts),
   * when the order is held to a road profile; absent otherwise (and in plans made before road profiles).
   */
  road?: ContainerRoad;
}

/** Steer axle, drive axle group, trailer (chassis) axle group. */
export interface AxleFigures {
  steer: number;
  drive: number;
  trailer: number;
}

export interface ContainerRoad {
  /** "EU", "EU-44", "US", or the lane's name for its own numbers ("custom" when it gave none). */
  profile: string;
  /** Tractor, chassis, container and cargo. */
  gross_g: number;
  gross_limit_g: number;
  axle_loads_g: AxleFigures;
  axle_limits_g: AxleFigures;
  /** The least the drive axles must carry (a share of the gross); 0 where the profile has no such rule. */
  drive_min_g: number;
  /** What the kingpin passes to the tractor. */
  kingpin_load_g: number;
  tare_g: { tractor_steer: number; tractor_drive: number; chassis: number; container: number };
  /**
   * Every distance the lever rule takes. Positions along the container from the inside of its front
   * wall, the plan's x = 0 (kingpin, trailer axle group, the chassis' and the container's own centres of
   * gravity); the tractor's wheelbase, and the fifth wheel ahead of its drive axle group.
   */
  geometry_mm: {
    kingpin: number;
    trailer_axle_group: number;
    chassis_tare_cog: number;
    container_tare_cog: number;
    tractor_wheelbase: number;
    fifth_wheel_ahead_of_drive: number;
  };
  within_road_limits: boolean;
}

export type UnplacedReason =
  | 'too_large_for_every_type'
  | 'out_of_containers'
  | 'over_payload'
  | 'over_road_gross'
  | 'over_axle_limits'
  | 'no_item_master_data'
  | 'no_pallet_type'
  | 'too_large_for_pallet'
  | 'over_pallet_max_weight';

export interface Unplaced {
  kind: 'unit' | PlacementKind;
  /** The SKU for units, AP# for pallets, the row name for pre-builts and loose boxes. */
  ref: string;
  count: number;
  reason: UnplacedReason;
  /** The reason in a sentence a person understands, with the figures (road reasons; absent for others). */
  detail?: string;
  /** In a consolidated shipment: the order it belongs to. */
  order?: string;
}

export interface PlanMetrics {
  planner_ms: number;
  pallet_count: number;
  container_count: number;
  /** max(volume bound, weight bound) on the pallets the units need. */
  pallet_lower_bound: number;
  units: number;
  units_palletized: number;
  /** The time limit cut a search short: the plan is valid but may differ between runs. */
  time_limited: boolean;
  /** max(volume bound, weight bound) on the containers (plans before 2026-11-25 lack it). */
  container_lower_bound?: number;
  /** How the plan's search ended (plans before 2026-11-25 lack it). */
  exit?: PlanExit;
  /** The block searches of the plan by how each ended (assembly/block-search.ts). */
  search_exits?: Record<'all_placed' | 'effort' | 'widest_beam' | 'time_limit', number>;
  /** What the planner thread's caches (src/planner/planner-caches.ts) gave this plan: hits of lookups (plans before 2026-11-27 lack it). */
  caches?: Record<'layers' | 'palletize' | 'load', { hits: number; lookups: number }>;
}

/**
 * `lower_bound`: a candidate reached the bound (nothing left, fewest containers and pallets any
 * plan can have, none off the default type, centre of gravity within limits), the rest were skipped;
 * `searched`: every candidate was tried; `time_limit`: the limit dropped candidates or cut a search.
 */
export type PlanExit = 'lower_bound' | 'searched' | 'time_limit';

export interface OrderPlan {
  pallets: PlannedPallet[];
  containers: PlannedContainer[];
  unplaced: Unplaced[];
  metrics: PlanMetrics;
}

export interface PlanLimits {
  /** Soft limit: searches stop and return their best load when it passes. */
  timeLimitMs: number;
  /** Greedy placements per search: the deterministic budget. */
  effort: number;
}
