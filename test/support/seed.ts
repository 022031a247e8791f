// Master data for tests: two company groups, so that scope can be seen.
import type { MasterDataDocument } from '../../src/master-data/master-data-document.js';
import type { SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';

export const ACME_KEY = 'acme-test-key-000000001';
export const OTHER_KEY = 'other-test-key-00000001';
export const ADMIN_KEY = 'admin-test-key-000000001';

export function testSeed(): MasterDataDocument {
  return {
    company_groups: [
      {
        name: 'Acme Group',
        api_keys: [{ name: 'acme-erp', key: ACME_KEY }],
        notification_emails: ['logistics@acme.example'],
        webhooks: [],
        lanes: [
          {
            id: 101,
            supplier: 'Acme Supplier Ltd',
            consignee: 'Globex Consignee GmbH',
            transportation_modes: ['OceanFCL', 'TruckFTL'],
            units: { length: 'cm', weight: 'kg' },
            pallet_types: [{ code: 'EUR', length: 120, width: 80, height: 14.4, weight: 25, max_height: 220, max_weight: 1500 }],
            container_codes: ['20ft', '40ft', '40ft-HC'],
            items: [
              { sku: 'SKU-1001', length: 40, width: 30, height: 25, weight: 9.5, upright: false },
              { sku: 'SKU-1002', length: 60, width: 40, height: 30, weight: 14, upright: true },
            ],
          },
          {
            id: 102,
            supplier: 'Acme Supplier Ltd',
            consignee: 'Initech Receiving',
            transportation_modes: ['TruckFTL'],
            units: { length: 'mm', weight: 'kg' },
            pallet_types: [{ code: 'EUR', length: 1200, width: 800, height: 144, weight: 25, max_height: 2200, max_weight: 1500 }],
            container_codes: ['20ft'],
            items: [{ sku: 'SKU-2001', length: 400, width: 300, height: 250, weight: 9.5, upright: false }],
          },
        ],
      },
      {
        name: 'Other Group',
        api_keys: [{ name: 'other-erp', key: OTHER_KEY }],
        notification_emails: [],
        webhooks: [],
        lanes: [
          {
            id: 201,
            supplier: 'Other Supplier',
            consignee: 'Other Consignee',
            transportation_modes: ['OceanFCL'],
            units: { length: 'in', weight: 'lb' },
            pallet_types: [{ code: 'GMA', length: 48, width: 40, height: 6, weight: 40, max_height: 90, max_weight: 3000 }],
            container_codes: ['40ft-HC'],
            items: [{ sku: 'SKU-1001', length: 16, width: 12, height: 10, weight: 21, upright: false }],
          },
        ],
      },
    ],
  };
}

/** A minimal valid order on lane 101; override what a test is about. */
export function acmeOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    supplier_name: 'Acme Supplier Ltd',
    consignee_name: 'Globex Consignee GmbH',
    reference: `PO-${Math.random().toString(36).slice(2, 10)}`,
    transportation_mode: 'OceanFCL',
    order_items: [{ item: 'SKU-1001', quantity: 10, purchase_order: 'PO-1', line_item_number: '1' }],
    order_containers: [{ code: '40ft' }],
    ...overrides,
  };
}

/** A minimal order on lane 101 as validation leaves it: every default filled in, decimals normalized. */
export function normalizedAcmeOrder(overrides: Partial<SubmitOrderPayload> = {}): SubmitOrderPayload {
  return {
    supplier_name: 'Acme Supplier Ltd',
    consignee_name: 'Globex Consignee GmbH',
    reference: 'PO-1',
    transportation_mode: 'OceanFCL',
    shipment_type: 'normal',
    order_items: [{ item: 'SKU-1001', quantity: '10.000000', purchase_order: '', line_item_number: '', notes: '' }],
    pre_builts: [],
    loose_boxes: [],
    order_containers: [{ code: '40ft', count: 5 }],
    customer_notes: null,
    send_email: true,
    extra_recipients: [],
    extra_cc_recipients: [],
    ...overrides,
  };
}
