// One case per rule and limit of spec 2.3-2.8 and 8: the bad input, 400, the field named in the
// body at the right nesting, and nothing recorded.
import t from 'tap';
import { allEvents } from '../support/events.js';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

const preBuilt = (overrides: Record<string, unknown> = {}) => ({
  name: 'P1',
  length: '120',
  width: '80',
  height: '150',
  weight: '400',
  count: 2,
  ...overrides,
});
const looseBox = (overrides: Record<string, unknown> = {}) => ({
  name: 'B1',
  length: 40,
  width: 30,
  height: 20,
  weight: 5,
  count: 3,
  ...overrides,
});
const item = (overrides: Record<string, unknown> = {}) => ({ item: 'SKU-1001', quantity: 5, ...overrides });
const without = (field: string) => {
  const order = acmeOrder();
  delete order[field];
  return order;
};

type Path = (string | number)[];
const cases: [string, Record<string, unknown>, Path][] = [
  ['supplier_name is required', without('supplier_name'), ['supplier_name']],
  ['consignee_name is required', without('consignee_name'), ['consignee_name']],
  ['reference is required', without('reference'), ['reference']],
  ['reference may not be blank', acmeOrder({ reference: '' }), ['reference']],
  ['reference is at most 64 characters', acmeOrder({ reference: 'R'.repeat(65) }), ['reference']],
  ['transportation_mode is required', without('transportation_mode'), ['transportation_mode']],
  ['transportation_mode is OceanFCL or TruckFTL', acmeOrder({ transportation_mode: 'Air' }), ['transportation_mode']],
  ['shipment_type is one of the known types', acmeOrder({ shipment_type: 'express' }), ['shipment_type']],
  ['at least one kind of cargo', without('order_items'), ['non_field_errors']],
  ['empty cargo arrays are no cargo', acmeOrder({ order_items: [], pre_builts: [], loose_boxes: [] }), ['non_field_errors']],
  ['order_containers is required', without('order_containers'), ['order_containers']],
  ['order_containers may not be empty', acmeOrder({ order_containers: [] }), ['order_containers']],
  ['order_containers is an array, never a single object', acmeOrder({ order_containers: { code: '40ft' } }), ['order_containers']],
  ['container code must be one of the eight', acmeOrder({ order_containers: [{ code: '10ft' }] }), ['order_containers', 0, 'code']],
  [
    'container code must not repeat',
    acmeOrder({ order_containers: [{ code: '40ft' }, { code: '40ft', count: 1 }] }),
    ['order_containers', 1, 'code'],
  ],
  ['container count is at least 1', acmeOrder({ order_containers: [{ code: '40ft', count: 0 }] }), ['order_containers', 0, 'count']],
  ['container count is an integer', acmeOrder({ order_containers: [{ code: '40ft', count: 1.5 }] }), ['order_containers', 0, 'count']],
  [
    'container code must be enabled on the lane',
    acmeOrder({ order_containers: [{ code: '40ft' }, { code: '45ft-HC' }] }),
    ['order_containers', 1, 'code'],
  ],
  ['order item needs an item', acmeOrder({ order_items: [item(), { quantity: 1 }] }), ['order_items', 1, 'item']],
  ['order item needs a quantity', acmeOrder({ order_items: [{ item: 'SKU-1001' }] }), ['order_items', 0, 'quantity']],
  ['order item quantity is at least 0.01', acmeOrder({ order_items: [item({ quantity: 0.009 })] }), ['order_items', 0, 'quantity']],
  ['order item quantity is a number', acmeOrder({ order_items: [item({ quantity: 'ten' })] }), ['order_items', 0, 'quantity']],
  ['purchase_order refuses &', acmeOrder({ order_items: [item({ purchase_order: 'PO&1' })] }), ['order_items', 0, 'purchase_order']],
  ['purchase_order refuses commas', acmeOrder({ order_items: [item({ purchase_order: 'PO,1' })] }), ['order_items', 0, 'purchase_order']],
  [
    'purchase_order is at most 64 characters',
    acmeOrder({ order_items: [item({ purchase_order: 'P'.repeat(65) })] }),
    ['order_items', 0, 'purchase_order'],
  ],
  ['line_item_number refuses &', acmeOrder({ order_items: [item({ line_item_number: '1&2' })] }), ['order_items', 0, 'line_item_number']],
  [
    'line_item_number refuses commas',
    acmeOrder({ order_items: [item({ line_item_number: '1,2' })] }),
    ['order_items', 0, 'line_item_number'],
  ],
  [
    'line_item_number is at most 64 characters',
    acmeOrder({ order_items: [item({ line_item_number: '9'.repeat(65) })] }),
    ['order_items', 0, 'line_item_number'],
  ],
  ['every SKU is in the lane item master', acmeOrder({ order_items: [item(), item({ item: 'SKU-404' })] }), ['order_items', 1, 'item']],
  ['an order item must be an object', acmeOrder({ order_items: ['SKU-1001'] }), ['order_items', 0, 'non_field_errors']],
  ['pre-built name is required', acmeOrder({ pre_builts: [preBuilt({ name: undefined })] }), ['pre_builts', 0, 'name']],
  ['pre-built name is at most 64 characters', acmeOrder({ pre_builts: [preBuilt({ name: 'N'.repeat(65) })] }), ['pre_builts', 0, 'name']],
  ['pre-built length is > 0', acmeOrder({ pre_builts: [preBuilt({ length: '0' })] }), ['pre_builts', 0, 'length']],
  ['pre-built width is at most 12 digits', acmeOrder({ pre_builts: [preBuilt({ width: '1234567.123456' })] }), ['pre_builts', 0, 'width']],
  ['pre-built height has at most 6 decimals', acmeOrder({ pre_builts: [preBuilt({ height: '1.1234567' })] }), ['pre_builts', 0, 'height']],
  ['pre-built weight is > 0', acmeOrder({ pre_builts: [preBuilt({ weight: -1 })] }), ['pre_builts', 0, 'weight']],
  [
    'pre-built weight is at most 15 digits',
    acmeOrder({ pre_builts: [preBuilt({ weight: '1234567890.123456' })] }),
    ['pre_builts', 0, 'weight'],
  ],
  ['pre-built count is at least 1', acmeOrder({ pre_builts: [preBuilt({ count: 0 })] }), ['pre_builts', 0, 'count']],
  ['pre-built count is required', acmeOrder({ pre_builts: [preBuilt({ count: undefined })] }), ['pre_builts', 0, 'count']],
  [
    'shipment_type is refused inside pre_builts',
    acmeOrder({ pre_builts: [preBuilt({ shipment_type: 'normal' })] }),
    ['pre_builts', 0, 'shipment_type'],
  ],
  [
    'pre-built item quantity is at least 1',
    acmeOrder({ pre_builts: [preBuilt({ prebuiltitem_set: [{ quantity: 0 }] })] }),
    ['pre_builts', 0, 'prebuiltitem_set', 0, 'quantity'],
  ],
  [
    'pre-built item quantity is required',
    acmeOrder({ pre_builts: [preBuilt({ prebuiltitem_set: [{ packages: 2 }] })] }),
    ['pre_builts', 0, 'prebuiltitem_set', 0, 'quantity'],
  ],
  [
    'pre-built item packages is at least 1',
    acmeOrder({ pre_builts: [preBuilt({ prebuiltitem_set: [{ quantity: 3, packages: 0 }] })] }),
    ['pre_builts', 0, 'prebuiltitem_set', 0, 'packages'],
  ],
  [
    'pre-built item purchase_order refuses &',
    acmeOrder({ pre_builts: [preBuilt({ prebuiltitem_set: [{ quantity: 3, purchase_order: 'a&b' }] })] }),
    ['pre_builts', 0, 'prebuiltitem_set', 0, 'purchase_order'],
  ],
  ['loose box name is required', acmeOrder({ loose_boxes: [looseBox({ name: undefined })] }), ['loose_boxes', 0, 'name']],
  ['loose box length is > 0', acmeOrder({ loose_boxes: [looseBox({ length: 0 })] }), ['loose_boxes', 0, 'length']],
  [
    'loose box weight has at most 6 decimals',
    acmeOrder({ loose_boxes: [looseBox({ weight: '1.0000001' })] }),
    ['loose_boxes', 0, 'weight'],
  ],
  ['loose box count is at least 1', acmeOrder({ loose_boxes: [looseBox({ count: 0 })] }), ['loose_boxes', 0, 'count']],
  [
    'loose box product_quantity is at least 1 when set',
    acmeOrder({ loose_boxes: [looseBox({ product_quantity: 0 })] }),
    ['loose_boxes', 0, 'product_quantity'],
  ],
  [
    'loose box product_packages is at least 1 when set',
    acmeOrder({ loose_boxes: [looseBox({ product_packages: 0 })] }),
    ['loose_boxes', 0, 'product_packages'],
  ],
  [
    'loose box purchase_order is at most 64 characters',
    acmeOrder({ loose_boxes: [looseBox({ purchase_order: 'P'.repeat(65) })] }),
    ['loose_boxes', 0, 'purchase_order'],
  ],
  [
    'shipment_type is refused inside loose_boxes',
    acmeOrder({ loose_boxes: [looseBox({ shipment_type: 'dangerous_goods' })] }),
    ['loose_boxes', 0, 'shipment_type'],
  ],
  [
    'rotation flags come all three together',
    acmeOrder({ loose_boxes: [looseBox({ rotation_x: false })] }),
    ['loose_boxes', 0, 'rotation_y'],
  ],
  ['extra_recipients are e-mail addresses', acmeOrder({ extra_recipients: ['ok@example.com', 'not-an-address'] }), ['extra_recipients']],
  ['extra_cc_recipients are e-mail addresses', acmeOrder({ extra_cc_recipients: ['bad@'] }), ['extra_cc_recipients']],
  ['send_email is a boolean', acmeOrder({ send_email: 'yes' }), ['send_email']],
  ['supplier_name matches case-sensitively', acmeOrder({ supplier_name: 'ACME SUPPLIER LTD' }), ['supplier_name']],
  ['consignee_name must be on a lane of the group', acmeOrder({ consignee_name: 'Other Consignee' }), ['consignee_name']],
  [
    'the lane must accept the transportation mode',
    acmeOrder({
      consignee_name: 'Initech Receiving',
      order_items: [{ item: 'SKU-2001', quantity: 1 }],
      order_containers: [{ code: '20ft' }],
    }),
    ['transportation_mode'],
  ],
  ['unknown fields are refused, not dropped', acmeOrder({ refrence: 'typo' }), ['refrence']],
  [
    'domain errors come under the alias the client sent',
    { ...without('order_items'), shipment_skus: [item({ item: 'SKU-404' })] },
    ['shipment_skus', 0, 'item'],
  ],
  ['an alias and its canonical name together are refused', acmeOrder({ shipment_skus: [item()] }), ['shipment_skus']],
];

function at(body: unknown, path: Path): unknown {
  let value = body;
  for (const step of path) value = value && typeof value === 'object' ? (value as Record<string | number, unknown>)[step] : undefined;
  return value;
}

const before = (await allEvents(service.dataDir)).length;

for (const [rule, order, path] of cases) {
  t.test(rule, async (t) => {
    const response = await service.request('POST', '/api/v1/orders/submit-order/', { body: order });
    t.equal(response.status, 400, JSON.stringify(response.body));
    const messages = at(response.body, path);
    t.ok(messages !== undefined && messages !== null, `errors at ${path.join('.')}: ${JSON.stringify(response.body)}`);
    if (Array.isArray(messages))
      t.ok(messages.length > 0 && messages.every((message) => typeof message === 'string'), 'a list of messages');
    const [field, index] = path;
    const list = at(response.body, [field!]);
    if (typeof index === 'number' && Array.isArray(list)) {
      list.forEach((element, i) => {
        if (i !== index) t.same(element, {}, `element ${i}, which is fine, shows {}`);
      });
    }
  });
}

t.test('limits hold at their boundary: 64 characters, 0.01, 12 and 15 digits, 6 decimals', async (t) => {
  const response = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      reference: 'R'.repeat(64),
      order_items: [item({ quantity: 0.01, purchase_order: 'P'.repeat(64), line_item_number: 'L'.repeat(64) })],
      pre_builts: [preBuilt({ name: 'N'.repeat(64), length: '123456.123456', weight: '123456789.123456' })],
      loose_boxes: [looseBox({ height: '0.000001' })],
    }),
  });
  t.equal(response.status, 201, JSON.stringify(response.body));
});

t.test('no rejected submit recorded anything', async (t) => {
  // The boundary case's plan result may be in already or not: the planner runs in the background.
  const events = (await allEvents(service.dataDir))
    .slice(before)
    .filter((event) => event.type !== 'OrderPlanned' && event.type !== 'OrderPlanningFailed');
  const recordedByRejections = events.length - 2; // the boundary case above: one id, one order
  t.equal(
    recordedByRejections,
    0,
    `${events.length} events since the rules started (plan results aside): ${events.map((event) => event.type).join(', ')}`,
  );
});
