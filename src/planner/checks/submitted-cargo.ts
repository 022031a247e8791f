// What the independent validator (validate-plan.ts) reads of an order and its lane: the figures as
// they were submitted, in the lane's units, so that it checks the conversion into the planner's
// input (src/planning/planner-input.ts) along with the plan. Declared here field by field, so that
// the checks stand apart from the order and master-data code: a submitted order and its lane
// (OrderSubmitted's data) fit it as they are.
type Decimal = string;

/** A road profile's numbers as master data gives them (kg, mm from the container's outer front face). */
export interface RoadProfileNumbers {
  name?: string;
  tractor: {
    steer_tare_kg: number;
    drive_tare_kg: number;
    wheelbase_mm: number;
    fifth_wheel_mm: number;
    steer_limit_kg: number;
    drive_limit_kg: number;
    drive_min_share?: number;
  };
  chassis: Partial<
    Record<
      string,
      {
        tare_kg: number;
        tare_cog_mm: number;
        kingpin_mm: number;
        axle_group_mm: number;
        axle_group_limit_kg: number;
        gross_limit_kg: number;
      }
    >
  >;
}

interface Row {
  name: string;
  length: Decimal;
  width: Decimal;
  height: Decimal;
  weight: Decimal;
  count: number;
  double_stacked_bottom: boolean;
  double_stacked_top: boolean;
  rotation_x: boolean;
}

export interface LooseBoxRow extends Row {
  rotation_y: boolean;
  rotation_z: boolean;
  max_load_on_top?: Decimal;
  stackable?: boolean;
}

export interface SubmittedCargo {
  lane: {
    units: { length: string; weight: string };
    pallet_types: readonly {
      code: string;
      length: number;
      width: number;
      height: number;
      weight: number;
      max_height: number;
      max_weight: number;
    }[];
    items: readonly {
      sku: string;
      length: number;
      width: number;
      height: number;
      weight: number;
      upright: boolean;
      max_load_on_top?: number;
      stackable?: boolean;
    }[];
    /** A preset's name or the numbers (src/plan-contract/road-profile.ts); absent: no road rule. */
    road_profile?: string | RoadProfileNumbers;
    road_profile_modes?: readonly string[];
  };
  order: {
    transportation_mode: string;
    order_items: readonly { item: string; quantity: Decimal; purchase_order: string; line_item_number: string }[];
    pre_builts: readonly Row[];
    loose_boxes: readonly LooseBoxRow[];
    order_containers: readonly { code: string; count: number; exact?: true }[];
  };
  /** The pallet type the planner was asked to use, if one. */
  palletCode?: string;
}
