import t from 'tap';
import { allEvents } from '../support/events.js';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const submit = (body: unknown, key = ACME_KEY) => service.request('POST', '/api/v1/orders/submit-order/', { body, key });
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

t.test('a valid order answers 201 with the message, a positive id and a service_ref, and is readable at once', async (t) => {
  const order = acmeOrder({ reference: 'PO-RYW-1', customer_notes: 'handle with care', shipment_type: 'dangerous_goods' });
  const created = await submit(order);
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.same(Object.keys(created.body).sort(), ['message', 'order_id', 'service_ref']);
  t.equal(created.body.message, 'Order has been created and will be processed shortly');
  t.ok(Number.isInteger(created.body.order_id) && created.body.order_id > 0);
  t.match(created.body.service_ref, /^SO-\d{6,}$/);

  const read = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  t.equal(read.status, 200);
  t.equal(read.headers.get('content-type'), 'application/json; charset=utf-8');
  t.same(Object.keys(read.body).sort(), [
    'cancellation_reason',
    'consolidated_into',
    'consolidated_orders',
    'created_at',
    'customer_notes',
    'id',
    'lane',
    'loose_boxes',
    'order_items',
    'packing_instructions_downloaded',
    'planning_failure_reason',
    'pre_builts',
    'reference',
    'revision',
    'service_ref',
    'shipment_type',
    'status',
    'transport_name',
    'updated_at',
  ]);
  t.match(read.body, {
    id: created.body.order_id,
    service_ref: created.body.service_ref,
    reference: 'PO-RYW-1',
    customer_notes: 'handle with care',
    shipment_type: 'dangerous_goods',
    lane: 101,
    transport_name: 'OceanFCL',
    packing_instructions_downloaded: false,
    pre_builts: [],
    loose_boxes: [],
  });
  t.match(read.body.created_at, TIMESTAMP);
  t.equal(read.body.updated_at, read.body.created_at);
  const createdAt = Date.parse(`${read.body.created_at}Z`);
  t.ok(Math.abs(createdAt - Date.now()) < 60_000, 'created_at is UTC now');

  const list = await service.request('GET', '/api/v1/orders/detailed-orders/?search=PO-RYW-1');
  t.equal(list.body.count, 1, 'visible to list as soon as submit answered');
});

t.test('ids are given out in submit order', async (t) => {
  const first = await submit(acmeOrder());
  const second = await submit(acmeOrder());
  t.equal(second.body.order_id, first.body.order_id + 1);
  t.not(second.body.service_ref, first.body.service_ref);
});

t.test('defaults and normalization: decimals with six places, shipment_type normal, container count 5', async (t) => {
  const created = await submit(
    acmeOrder({
      order_items: [{ item: 'SKU-1001', quantity: '2.5' }],
      pre_builts: [{ name: 'P', length: 120.5, width: '80', height: '150.25', weight: 400, count: 1 }],
      loose_boxes: [{ name: 'B', length: '40', width: 30, height: 20, weight: '5.125', count: 2 }],
    }),
  );
  t.equal(created.status, 201, JSON.stringify(created.body));
  const read = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  t.equal(read.body.shipment_type, 'normal');
  t.match(read.body.order_items, [{ item: 'SKU-1001', quantity: '2.500000', purchase_order: '', line_item_number: '' }]);
  t.match(read.body.pre_builts, [
    {
      name: 'P',
      length: '120.500000',
      width: '80.000000',
      height: '150.250000',
      weight: '400.000000',
      count: 1,
      prebuiltitem_set: [],
      double_stacked_bottom: false,
      double_stacked_top: false,
      rotation_x: true,
    },
  ]);
  t.match(read.body.loose_boxes, [
    { name: 'B', length: '40.000000', weight: '5.125000', count: 2, rotation_x: true, rotation_y: true, rotation_z: true },
  ]);
  const events = await allEvents(service.dataDir);
  const submitted = events.find(
    (event) => event.type === 'OrderSubmitted' && (event.data as { order_id: number }).order_id === created.body.order_id,
  );
  t.same((submitted!.data as { order: { order_containers: unknown } }).order.order_containers, [{ code: '40ft', count: 5 }]);
});

t.test('input-only aliases shipment_skus, pallets and boxes land in order_items, pre_builts and loose_boxes', async (t) => {
  const order = acmeOrder();
  delete order.order_items;
  const created = await submit({
    ...order,
    shipment_skus: [{ item: 'SKU-1002', quantity: 4 }],
    pallets: [{ name: 'P', length: 1, width: 1, height: 1, weight: 1, count: 1 }],
    boxes: [{ name: 'B', length: 1, width: 1, height: 1, weight: 1, count: 1 }],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const read = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  t.match(read.body, { order_items: [{ item: 'SKU-1002' }], pre_builts: [{ name: 'P' }], loose_boxes: [{ name: 'B' }] });
  for (const alias of ['shipment_skus', 'pallets', 'boxes']) t.notOk(alias in read.body, `${alias} never appears in responses`);
});

t.test('a reference is unique within the company group, not across groups', async (t) => {
  t.equal((await submit(acmeOrder({ reference: 'SHARED-REF' }))).status, 201);
  const again = await submit(acmeOrder({ reference: 'SHARED-REF', customer_notes: 'another order' }));
  t.equal(again.status, 400);
  t.same(again.body, { reference: ['An order with this reference already exists.'] });
  const other = await submit(
    {
      supplier_name: 'Other Supplier',
      consignee_name: 'Other Consignee',
      reference: 'SHARED-REF',
      transportation_mode: 'OceanFCL',
      order_items: [{ item: 'SKU-1001', quantity: 1 }],
      order_containers: [{ code: '40ft-HC' }],
    },
    OTHER_KEY,
  );
  t.equal(other.status, 201, JSON.stringify(other.body));
});

t.test("another group's order answers 403 on retrieve and is left out of lists and search", async (t) => {
  const other = await submit(
    {
      supplier_name: 'Other Supplier',
      consignee_name: 'Other Consignee',
      reference: 'SECRET-REF',
      transportation_mode: 'OceanFCL',
      loose_boxes: [{ name: 'B', length: 1, width: 1, height: 1, weight: 1, count: 1 }],
      order_containers: [{ code: '40ft-HC', count: 1 }],
    },
    OTHER_KEY,
  );
  t.equal(other.status, 201);
  const read = await service.request('GET', `/api/v1/orders/detailed-orders/${other.body.order_id}/`);
  t.equal(read.status, 403);
  t.same(Object.keys(read.body), ['detail']);
  for (const search of ['SECRET-REF', other.body.service_ref, 'secret']) {
    const list = await service.request('GET', `/api/v1/orders/detailed-orders/?search=${encodeURIComponent(search)}`);
    t.equal(list.body.count, 0, `search ${search} finds nothing of the other group`);
  }
  const all = await service.request('GET', '/api/v1/orders/detailed-orders/?paginate=false');
  t.notOk(all.body.some((order: { id: number }) => order.id === other.body.order_id));
  const mine = await service.request('GET', `/api/v1/orders/detailed-orders/${other.body.order_id}/`, { key: OTHER_KEY });
  t.equal(mine.status, 200);
});

t.test('unknown or malformed ids answer 404 with detail', async (t) => {
  for (const id of ['999999', '0', 'abc', '-1', '1.5']) {
    const response = await service.request('GET', `/api/v1/orders/detailed-orders/${id}/`);
    t.equal(response.status, 404, id);
    t.same(Object.keys(response.body), ['detail']);
  }
});

t.test('malformed JSON, an empty body and non-object bodies answer 400', async (t) => {
  for (const rawBody of ['{"supplier_name": ', '', '[]', '"text"', '42', 'null']) {
    const response = await service.request('POST', '/api/v1/orders/submit-order/', { rawBody });
    t.equal(response.status, 400, JSON.stringify(rawBody));
    t.ok(Array.isArray(response.body.non_field_errors), JSON.stringify(response.body));
  }
});

t.test('a body over 1 MiB answers 413, one just under is read', async (t) => {
  // Padded with whitespace, which JSON allows anywhere between tokens: every field keeps its own length limit.
  const order = JSON.stringify(acmeOrder());
  const padding = (size: number) => order + ' '.repeat(size);
  const tooLarge = await service.request('POST', '/api/v1/orders/submit-order/', { rawBody: padding(1024 * 1024) });
  t.equal(tooLarge.status, 413);
  t.match(tooLarge.body, { detail: /1 MiB/ });
  const base = padding(0).length;
  const fits = await service.request('POST', '/api/v1/orders/submit-order/', { rawBody: padding(1024 * 1024 - base) });
  t.equal(fits.status, 201, 'exactly 1 MiB is accepted');
});
