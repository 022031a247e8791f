// Lanes and orders for the planner tests, built the way the order API hands them over.
import type { ItemDocument, LaneDocument, PalletTypeDocument } from '../../src/master-data/master-data-document.js';
import type { LooseBox, OrderItem, PreBuilt, SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';

export const EUR: PalletTypeDocument = { code: 'EUR', length: 120, width: 80, height: 14.4, weight: 25, max_height: 220, max_weight: 1500 };
export const GMA: PalletTypeDocument = {
  code: 'GMA',
  length: 121.9,
  width: 101.6,
  height: 15,
  weight: 22,
  max_height: 200,
  max_weight: 1200,
};

export function lane(
  items: ItemDocument[],
  pallet_types: PalletTypeDocument[] = [EUR],
  units: LaneDocument['units'] = { length: 'cm', weight: 'kg' },
): LaneDocument {
  return {
    id: 101,
    supplier: 'Acme Supplier Ltd',
    consignee: 'Globex Consignee GmbH',
    transportation_modes: ['OceanFCL'],
    units,
    pallet_types,
    container_codes: ['20ft', '40ft', '40ft-HC'],
    items,
  };
}

export function item(sku: string, length: number, width: number, height: number, weight: number, upright = false): ItemDocument {
  return { sku, length, width, height, weight, upright };
}

export function line(sku: string, quantity: number | string, purchase_order = '', line_item_number = ''): OrderItem {
  const q = typeof quantity === 'number' ? quantity.toFixed(6) : quantity;
  return { item: sku, quantity: q, purchase_order, line_item_number, notes: '' };
}

const dec = (n: number): string => n.toFixed(6);

export function preBuilt(
  name: string,
  l: number,
  w: number,
  h: number,
  weight: number,
  count: number,
  opts: Partial<PreBuilt> = {},
): PreBuilt {
  return {
    name,
    length: dec(l),
    width: dec(w),
    height: dec(h),
    weight: dec(weight),
    count,
    prebuiltitem_set: [],
    double_stacked_bottom: false,
    double_stacked_top: false,
    rotation_x: true,
    ...opts,
  };
}

export function looseBox(
  name: string,
  l: number,
  w: number,
  h: number,
  weight: number,
  count: number,
  opts: Partial<LooseBox> = {},
): LooseBox {
  return {
    name,
    length: dec(l),
    width: dec(w),
    height: dec(h),
    weight: dec(weight),
    count,
    purchase_order: '',
    line_item_number: '',
    product_quantity: null,
    product_packages: null,
    double_stacked_bottom: false,
    double_stacked_top: false,
    rotation_x: true,
    rotation_y: true,
    rotation_z: true,
    ...opts,
  };
}

export function order(parts: Partial<SubmitOrderPayload>): SubmitOrderPayload {
  return {
    supplier_name: 'Acme Supplier Ltd',
    consignee_name: 'Globex Consignee GmbH',
    reference: 'PO-1',
    transportation_mode: 'OceanFCL',
    shipment_type: 'normal',
    order_items: [],
    pre_builts: [],
    loose_boxes: [],
    order_containers: [{ code: '40ft', count: 5 }],
    customer_notes: null,
    send_email: false,
    extra_recipients: [],
    extra_cc_recipients: [],
    ...parts,
  };
}
