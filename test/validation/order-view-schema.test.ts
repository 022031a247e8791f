// src/orders/order-view-schema.ts: the response schemas accept what the service sends and refuse
// what it must not send. (That they infer exactly the TypeScript types is checked when compiling.)
import t from 'tap';
import { MasterDataAppliedSchema } from '../../src/master-data/master-data-schema.js';
import {
  ErrorDetailSchema,
  OrderHistorySchema,
  OrderListSchema,
  OrderLookupErrorSchema,
  OrderViewSchema,
  PalletContentsSchema,
  SubmitOrderCreatedSchema,
  ValidationErrorSchema,
} from '../../src/orders/order-view-schema.js';
import type { OrderView } from '../../src/orders/order-view.js';
import { validateSubmitOrder } from '../../src/orders/validate-submit-order.js';
import { validatorFor } from '../../src/validation/ajv.js';

const submitted = validateSubmitOrder({
  supplier_name: 'Acme Supplier Ltd',
  consignee_name: 'Globex Consignee GmbH',
  reference: 'PO-1',
  transportation_mode: 'OceanFCL',
  shipment_skus: [{ item: 'SKU-1001', quantity: 10.5 }],
  pallets: [{ name: 'P1', length: 120, width: 80, height: 150, weight: 400, count: 1, prebuiltitem_set: [{ quantity: 4 }] }],
  boxes: [{ name: 'B1', length: '40', width: '30', height: '20', weight: '5', count: 3, product_quantity: 6 }],
  order_containers: [{ code: '40ft' }],
});
if (!submitted.ok) throw new Error(JSON.stringify(submitted.errors));

const view = (): OrderView => ({
  id: 1,
  service_ref: 'ORD-000001',
  reference: 'PO-1',
  customer_notes: null,
  shipment_type: 'normal',
  lane: 101,
  transport_name: 'OceanFCL',
  packing_instructions_downloaded: false,
  status: 'submitted',
  planning_failure_reason: null,
  order_items: submitted.value.order_items,
  pre_builts: submitted.value.pre_builts,
  loose_boxes: submitted.value.loose_boxes,
  created_at: '2026-11-20T09:15:02.123456',
  updated_at: '2026-11-20T09:15:02.123456',
  consolidated_into: null,
  consolidated_orders: [],
  cancellation_reason: null,
  revision: 0,
});

const valid = (schema: object, value: unknown) => validatorFor(schema)(value);

t.test('an order built from a normalized submit matches the Order schema', async (t) => {
  t.ok(valid(OrderViewSchema, view()), JSON.stringify(validatorFor(OrderViewSchema).errors));
  t.ok(valid(OrderViewSchema, { ...view(), customer_notes: 'Call first', shipment_type: 'dangerous_goods', transport_name: 'Air' }));
  t.ok(valid(OrderViewSchema, { ...view(), status: 'planning_failed', planning_failure_reason: 'the planner ran out of time' }));
  t.notOk(valid(OrderViewSchema, { ...view(), status: 'shipped' }), 'status is one of three');
});

t.test('the Order schema refuses extra fields, input aliases and non-canonical decimals', async (t) => {
  t.notOk(valid(OrderViewSchema, { ...view(), company_group: 'Acme Group' }));
  t.notOk(valid(OrderViewSchema, { ...view(), shipment_skus: [] }));
  t.notOk(valid(OrderViewSchema, { ...view(), order_items: [{ ...view().order_items[0], quantity: '10.5' }] }));
  t.notOk(valid(OrderViewSchema, { ...view(), order_items: [{ ...view().order_items[0], quantity: 10.5 }] }));
});

t.test('timestamps have microseconds and no zone designator', async (t) => {
  t.notOk(valid(OrderViewSchema, { ...view(), created_at: '2026-11-20T09:15:02.123456Z' }));
  t.notOk(valid(OrderViewSchema, { ...view(), updated_at: '2026-11-20T09:15:02.123' }));
});

t.test('the list envelope: count, next and previous URLs or null, results', async (t) => {
  t.ok(
    valid(OrderListSchema, {
      count: 11,
      next: 'http://localhost:8000/api/v1/orders/detailed-orders/?page=2',
      previous: null,
      results: [view()],
    }),
  );
  t.ok(valid(OrderListSchema, { count: 0, next: null, previous: null, results: [] }));
  t.notOk(valid(OrderListSchema, { count: 0, next: null, results: [] }), 'previous is always present');
});

t.test('the submit 201 body', async (t) => {
  t.ok(
    valid(SubmitOrderCreatedSchema, {
      message: 'Order has been created and will be processed shortly',
      order_id: 1,
      service_ref: 'ORD-000001',
    }),
  );
  t.notOk(valid(SubmitOrderCreatedSchema, { message: 'ok', order_id: '1', service_ref: 'ORD-000001' }));
});

t.test('pallet contents: pallets with their grouped contents', async (t) => {
  const pallets = [
    { pallet_index: 'AP1', pallet_code: 'EUR', contents: [{ sku: 'SKU-1001', purchase_order: '', line_item_number: '', quantity: 40 }] },
  ];
  t.ok(valid(PalletContentsSchema, pallets));
  t.ok(valid(PalletContentsSchema, []));
  t.notOk(
    valid(PalletContentsSchema, [
      { ...pallets[0], contents: [{ sku: 'SKU-1001', purchase_order: '', line_item_number: '', quantity: 2.5 }] },
    ]),
  );
});

t.test('error bodies: detail, field errors, order lookup errors', async (t) => {
  t.ok(valid(ErrorDetailSchema, { detail: 'Invalid API key.' }));
  t.notOk(valid(ErrorDetailSchema, { message: 'Invalid API key.' }));
  t.ok(
    valid(ValidationErrorSchema, {
      order_items: [{}, { quantity: ['Ensure this value is greater than or equal to 0.01.'] }],
      extra_recipients: { 1: ['Bad.'] },
    }),
  );
  t.ok(valid(OrderLookupErrorSchema, { order: ['No order matches this reference.'] }));
});

t.test('the master-data 200 body counts changes by kind', async (t) => {
  t.ok(
    valid(MasterDataAppliedSchema, { applied: true, changes: { CompanyGroupDefined: 1, ApiKeyIssued: 1, LaneDefined: 1, ItemDefined: 2 } }),
  );
  t.notOk(valid(MasterDataAppliedSchema, { applied: true, changes: { LaneAdded: 1 } }));
});

t.test('order history: events with their log position as a decimal string', async (t) => {
  const event = {
    event_id: '0b9f2c1e-8d4a-4c57-9a43-0f1f7e0c2d11',
    type: 'OrderSubmitted',
    timestamp: '2026-11-20T09:15:02.123Z',
    position: '18446744073709551615',
    revision: 0,
    data: { order_id: 1 },
  };
  t.ok(valid(OrderHistorySchema, [event]), JSON.stringify(validatorFor(OrderHistorySchema).errors));
  t.notOk(valid(OrderHistorySchema, [{ ...event, position: 12 }]));
});
