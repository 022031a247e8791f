// What the independent validator (validate-plan.ts) reads of an order and its lane: the figures as
// they were submitted, in the lane's units, so that it checks the conversion into the planner's
// input (src/planning/planner-input.ts) along with the plan. Declared here field by field, so that
// the checks stand apart from the order and master-data code: a submitted order and its lane
// (OrderSubmitted's data) fit it as they are.
type Decimal = string;

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
    items: readonly { sku: string; length: number; width: number; height: number; weight: number; upright: boolean }[];
  };
  order: {
    order_items: readonly { item: string; quantity: Decimal; purchase_order: string; line_item_number: string }[];
    pre_builts: readonly Row[];
    loose_boxes: readonly LooseBoxRow[];
    order_containers: readonly { code: string; count: number; exact?: true }[];
  };
  /** The pallet type the planner was asked to use, if one. */
  palletCode?: string;
}
