// Realistic seeded orders for the palletizing benchmark and tests: 5 to 60 SKUs of carton-sized
// units (10 to 50 cm), some upright, 50 to 8,000 units in all, on EUR or GMA pallets.
import type { ItemDocument, LaneDocument, PalletTypeDocument } from '../../src/master-data/master-data-document.js';
import type { OrderItem, SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';
import type { LaneOrder } from '../../src/planning/planner-input.js';

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

/** mulberry32: small, fast, and the same sequence everywhere for a seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface OrderShape {
  skus?: number;
  units?: number;
  pallet?: PalletTypeDocument;
}

export function seededOrder(seed: number, shape: OrderShape = {}): LaneOrder {
  const rnd = prng(seed);
  const between = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const skus = shape.skus ?? between(5, 60);
  const units = Math.max(skus, shape.units ?? between(50, 8000));
  const pallet = shape.pallet ?? (rnd() < 0.5 ? EUR : GMA);
  const items: ItemDocument[] = [];
  const shares: number[] = [];
  for (let i = 0; i < skus; i++) {
    // units from shoebox to large carton: 10 to 50 cm long, 10 to 40 wide, 5 to 35 high,
    // density 80 to 400 kg/m3, to the nearest 0.5 cm and 0.1 kg
    const l = between(20, 100) / 2,
      w = between(20, 80) / 2,
      h = between(10, 70) / 2;
    const weight = Math.max(0.1, Math.round(((l * w * h) / 1e6) * between(80, 400) * 10) / 10);
    items.push({ sku: `SKU-${seed}-${i + 1}`, length: l, width: w, height: h, weight, upright: rnd() < 0.4 });
    shares.push(0.2 + rnd() * rnd() * 5);
  }
  const total = shares.reduce((a, b) => a + b, 0);
  const lines: OrderItem[] = items.map((it, i) => ({
    item: it.sku,
    quantity: Math.max(1, Math.round((units * shares[i]!) / total)).toFixed(6),
    purchase_order: `PO-${1 + (i % 3)}`,
    line_item_number: String(i + 1),
    notes: '',
  }));
  const lane: LaneDocument = {
    id: 1,
    supplier: 'S',
    consignee: 'C',
    transportation_modes: ['OceanFCL'],
    units: { length: 'cm', weight: 'kg' },
    pallet_types: [pallet],
    container_codes: ['20ft', '40ft', '40ft-HC'],
    items,
  };
  const order: SubmitOrderPayload = {
    supplier_name: 'S',
    consignee_name: 'C',
    reference: `bench-${seed}`,
    transportation_mode: 'OceanFCL',
    shipment_type: 'normal',
    order_items: lines,
    pre_builts: [],
    loose_boxes: [],
    order_containers: [
      { code: '40ft-HC', count: 20 },
      { code: '20ft', count: 5 },
    ],
    customer_notes: null,
    send_email: false,
    extra_recipients: [],
    extra_cc_recipients: [],
  };
  return { lane, order, seed };
}
