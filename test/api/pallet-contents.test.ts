// Spec 4.4 and 7: lookups by reference or service_ref, scope, the three 400 cases, and 200 with the
// pallets in planner order once the reactor has planned the order.
import t from 'tap';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { NO_PALLETS_MESSAGE, NOT_READY_MESSAGE } from '../../src/packing-instructions/routes.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const palletContents = (order: string, key = ACME_KEY) =>
  service.request('GET', `/api/v1/orders/pallet-contents/?order=${encodeURIComponent(order)}`, { key });
const ready = (order: string) =>
  eventually(async () => {
    const response = await palletContents(order);
    return response.status !== 400 || response.body.order[0] !== NOT_READY_MESSAGE;
  });

t.test('an unknown order answers 400 under order', async (t) => {
  const response = await palletContents('NO-SUCH-ORDER');
  t.equal(response.status, 400);
  t.same(response.body, { order: ['No order matches "NO-SUCH-ORDER".'] });
});

t.test('a missing order parameter answers 400 under order', async (t) => {
  const response = await service.request('GET', '/api/v1/orders/pallet-contents/');
  t.equal(response.status, 400);
  t.match(response.body, { order: [/required/] });
});

t.test('service-built pallets come back in planner order, with contents grouped by SKU, PO and line', async (t) => {
  const order = acmeOrder({
    reference: 'PC-1',
    order_items: [
      { item: 'SKU-1001', quantity: 150, purchase_order: 'PO-A', line_item_number: '1' },
      { item: 'SKU-1002', quantity: 40, purchase_order: 'PO-B', line_item_number: '2' },
      { item: 'SKU-1001', quantity: 10, purchase_order: 'PO-C' },
    ],
  });
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: order });
  t.equal(created.status, 201);
  await ready('PC-1');
  const byReference = await palletContents('PC-1');
  t.equal(byReference.status, 200, JSON.stringify(byReference.body));
  t.match(byReference.headers.get('content-type'), /application\/json/);
  const pallets = byReference.body as {
    pallet_index: string;
    pallet_code: string;
    contents: { sku: string; purchase_order: string; line_item_number: string; quantity: number }[];
  }[];
  t.ok(pallets.length >= 2);
  t.same(
    pallets.map((pallet) => pallet.pallet_index),
    pallets.map((_, i) => `AP${i + 1}`),
  );
  t.ok(pallets.every((pallet) => pallet.pallet_code === 'EUR'));
  t.ok(pallets.every((pallet) => Object.keys(pallet).sort().join() === 'contents,pallet_code,pallet_index'));
  const total = (sku: string, po: string, line: string) =>
    pallets
      .flatMap((pallet) => pallet.contents)
      .filter((c) => c.sku === sku && c.purchase_order === po && c.line_item_number === line)
      .reduce((sum, c) => sum + c.quantity, 0);
  t.equal(total('SKU-1001', 'PO-A', '1'), 150);
  t.equal(total('SKU-1002', 'PO-B', '2'), 40);
  t.equal(total('SKU-1001', 'PO-C', ''), 10, 'absent PO line shows as empty string');
  for (const pallet of pallets) {
    const keys = pallet.contents.map((c) => `${c.sku}|${c.purchase_order}|${c.line_item_number}`);
    t.equal(new Set(keys).size, keys.length, `${pallet.pallet_index}: one line per SKU / PO / line item`);
    t.ok(pallet.contents.every((c) => Number.isInteger(c.quantity) && c.quantity > 0));
  }
  const byServiceRef = await palletContents(created.body.service_ref);
  t.same(byServiceRef.body, byReference.body, 'the service_ref finds the same order');
});

t.test("another group's order answers like an unknown one", async (t) => {
  const response = await palletContents('PC-1', OTHER_KEY);
  t.equal(response.status, 400);
  t.same(response.body, { order: ['No order matches "PC-1".'] });
});

t.test('an order of only pre-builts and loose boxes gets a plan but no pallets: 400 with its own message', async (t) => {
  const order = acmeOrder({
    reference: 'PC-BOXES',
    order_items: undefined,
    loose_boxes: [{ name: 'Carton', length: 60, width: 40, height: 40, weight: 12, count: 20 }],
    pre_builts: [{ name: 'Pallet', length: 120, width: 80, height: 150, weight: 400, count: 2 }],
  });
  t.equal((await service.request('POST', '/api/v1/orders/submit-order/', { body: order })).status, 201);
  await ready('PC-BOXES');
  const response = await palletContents('PC-BOXES');
  t.equal(response.status, 400);
  t.same(response.body, { order: [NO_PALLETS_MESSAGE] });
});

t.test('the not-ready message advises a couple of minutes and support after 10 minutes', async (t) => {
  t.match(NOT_READY_MESSAGE, /couple of minutes/);
  t.match(NOT_READY_MESSAGE, /10 minutes/);
});
