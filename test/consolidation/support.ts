// A lane with a consolidation window, and orders that each fill about a third of a 40ft.
import { testSeed } from '../support/seed.js';

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export function consolidationSeed(url: string | undefined, windowSeconds = 5) {
  const seed = testSeed();
  const acme = seed.company_groups[0]!;
  if (url) acme.webhooks = [{ url, secret: SECRET }];
  acme.lanes.push({
    id: 103,
    supplier: 'Acme Supplier Ltd',
    consignee: 'Harbour Consolidation Ltd',
    transportation_modes: ['OceanFCL'],
    units: { length: 'cm', weight: 'kg' },
    pallet_types: [{ code: 'EUR', length: 120, width: 80, height: 14.4, weight: 25, max_height: 220, max_weight: 1500 }],
    container_codes: ['20ft', '40ft'],
    items: [{ sku: 'SKU-3001', length: 40, width: 30, height: 25, weight: 9.5, upright: false }],
    consolidation_window_seconds: windowSeconds,
  });
  return seed;
}

/** 8 EUR pallets of 64 units: a third of a 40ft's 25 floor places. */
export function thirdOfA40ft(reference: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    supplier_name: 'Acme Supplier Ltd',
    consignee_name: 'Harbour Consolidation Ltd',
    reference,
    transportation_mode: 'OceanFCL',
    order_items: [{ item: 'SKU-3001', quantity: 512 }],
    order_containers: [{ code: '40ft' }],
    ...extra,
  };
}
