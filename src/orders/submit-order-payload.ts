// The submit payload after validation and normalization (spec 2.3-2.8): aliases resolved to their
// canonical names, defaults filled in, decimals as canonical strings with exactly six decimals
// ("120.000000"). This is what OrderSubmitted records and what retrieve shows back.
import type { ContainerCode } from '../plan-contract/container-codes.js';
import type { Decimal } from '../validation/decimal.js';

import type { TransportationMode } from '../plan-contract/transportation-modes.js';

export { TRANSPORTATION_MODES, type TransportationMode } from '../plan-contract/transportation-modes.js';

export const SHIPMENT_TYPES = ['normal', 'dangerous_goods', 'dedicated_container'] as const;
export type ShipmentType = (typeof SHIPMENT_TYPES)[number];

// Lanes enable container codes, so master data names them; an order is built of them too.
export { CONTAINER_CODES, type ContainerCode } from '../plan-contract/container-codes.js';

export const DEFAULT_CONTAINER_COUNT = 5;

export type { Decimal };

export interface OrderItem {
  item: string;
  quantity: Decimal;
  purchase_order: string;
  line_item_number: string;
  notes: string;
}

export interface PreBuiltItem {
  purchase_order: string;
  line_item_number: string;
  quantity: number;
  packages: number | null;
}

export interface PreBuilt {
  name: string;
  length: Decimal;
  width: Decimal;
  height: Decimal;
  weight: Decimal;
  count: number;
  prebuiltitem_set: PreBuiltItem[];
  double_stacked_bottom: boolean;
  double_stacked_top: boolean;
  rotation_x: boolean;
}

export interface LooseBox {
  name: string;
  length: Decimal;
  width: Decimal;
  height: Decimal;
  weight: Decimal;
  count: number;
  purchase_order: string;
  line_item_number: string;
  product_quantity: number | null;
  product_packages: number | null;
  double_stacked_bottom: boolean;
  double_stacked_top: boolean;
  rotation_x: boolean;
  rotation_y: boolean;
  rotation_z: boolean;
  /** Our extension, lane weight unit; absent: no limit (absent on orders submitted before it). */
  max_load_on_top?: Decimal;
  /** Our extension; absent: true. */
  stackable?: boolean;
}

export interface OrderContainer {
  code: ContainerCode;
  count: number;
  /**
   * Set when the order gave the count (spec 2.8: "the exact quantity is used"): that many are
   * booked and the plan has exactly that many. Absent: up to `count` (5) are used, as needed.
   */
  exact?: true;
}

export interface SubmitOrderPayload {
  supplier_name: string;
  consignee_name: string;
  reference: string;
  transportation_mode: TransportationMode;
  shipment_type: ShipmentType;
  order_items: OrderItem[];
  pre_builts: PreBuilt[];
  loose_boxes: LooseBox[];
  order_containers: OrderContainer[];
  customer_notes: string | null;
  send_email: boolean;
  extra_recipients: string[];
  extra_cc_recipients: string[];
}
