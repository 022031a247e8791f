// bench:pipeline's burst: a lane of 30 carton SKUs on EUR pallets and orders of about 500 units
// of 3 to 8 of them, from a fixed seed, so every run (and bench:planner, which plans the same orders
// in-process) sees the same catalogue and the same orders.
import type { LaneDocument } from '../../src/master-data/master-data-document.js';

/** A deterministic generator: the same sequence for every run. */
function generator(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** The lane's master data (sizes in cm, weights in kg) and the submit bodies of `count` orders. */
export function pipelineBurst(count: number): { lane: LaneDocument; orders: Record<string, unknown>[] } {
  const random = generator(42);
  const items = Array.from({ length: 30 }, (_, i) => ({
    sku: `SKU-${1000 + i}`,
    length: 20 + Math.floor(random() * 40),
    width: 15 + Math.floor(random() * 30),
    height: 10 + Math.floor(random() * 30),
    weight: Math.round((1 + random() * 15) * 10) / 10,
    upright: random() < 0.4,
  }));
  const lane: LaneDocument = {
    id: 1,
    supplier: 'Bench Supplier',
    consignee: 'Bench Consignee',
    transportation_modes: ['OceanFCL'],
    units: { length: 'cm', weight: 'kg' },
    pallet_types: [{ code: 'EUR', length: 120, width: 80, height: 14.4, weight: 25, max_height: 220, max_weight: 1500 }],
    container_codes: ['20ft', '40ft', '40ft-HC'],
    items,
  };
  // the orders draw from the seed afresh (as bench:pipeline always has), not from where the items left it
  const draw = generator(42);
  const orders = Array.from({ length: count }, (_, i) => {
    const skus = 3 + Math.floor(draw() * 6);
    const picked = [...items].sort(() => draw() - 0.5).slice(0, skus);
    let left = 500;
    const lines = picked.map((item, k) => {
      const quantity = k === picked.length - 1 ? left : Math.max(1, Math.floor((500 / skus) * (0.5 + draw())));
      left = Math.max(1, left - quantity);
      return { item: item.sku, quantity, purchase_order: `PO-${i}` };
    });
    return {
      supplier_name: 'Bench Supplier',
      consignee_name: 'Bench Consignee',
      reference: `PIPE-${i}`,
      transportation_mode: 'OceanFCL',
      order_items: lines,
      order_containers: [{ code: '20ft' }, { code: '40ft' }, { code: '40ft-HC' }],
      send_email: false,
    };
  });
  return { lane, orders };
}
