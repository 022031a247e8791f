// Safe retries: a client whose response was lost sends the order again. The same order answers 200
// with the stored ids and records nothing; a different order under the reference stays a 400.
import t from 'tap';
import { allEvents } from '../support/events.js';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const submit = (body: unknown) => service.request('POST', '/api/v1/orders/submit-order/', { body });

t.test('an identical retry answers 200 with the stored order_id and service_ref and records nothing', async (t) => {
  const order = acmeOrder({ reference: 'RETRY-1' });
  const first = await submit(order);
  t.equal(first.status, 201);
  const before = (await allEvents(service.dataDir)).length;
  const retry = await submit(order);
  t.equal(retry.status, 200);
  t.same(
    { order_id: retry.body.order_id, service_ref: retry.body.service_ref },
    { order_id: first.body.order_id, service_ref: first.body.service_ref },
  );
  t.match(retry.body.message, /already created/);
  t.equal((await allEvents(service.dataDir)).length, before, 'no event, not even an id');

  // The same order written differently (an alias, a decimal as a string, a default spelt out) is the same order.
  const { order_items, ...rest } = order;
  const respelt = await submit({
    ...rest,
    shipment_skus: [{ item: 'SKU-1001', quantity: '10.0', purchase_order: 'PO-1', line_item_number: '1' }],
    shipment_type: 'normal',
  });
  t.equal(respelt.status, 200);
  t.equal(respelt.body.order_id, first.body.order_id);
  t.ok(order_items);
});

t.test('a different order under a used reference keeps the 400', async (t) => {
  const first = await submit(acmeOrder({ reference: 'RETRY-2' }));
  t.equal(first.status, 201);
  const before = (await allEvents(service.dataDir)).length;
  const other = await submit(acmeOrder({ reference: 'RETRY-2', customer_notes: 'another order' }));
  t.equal(other.status, 400);
  t.match(other.body, { reference: ['An order with this reference already exists.'] });
  t.equal((await allEvents(service.dataDir)).length, before);
});

t.test('concurrent identical submits: one 201, the rest 200 with the same ids', async (t) => {
  const order = acmeOrder({ reference: 'RETRY-3' });
  const responses = await Promise.all(Array.from({ length: 8 }, () => submit(order)));
  t.same(responses.map((response) => response.status).sort(), [200, 200, 200, 200, 200, 200, 200, 201]);
  t.equal(new Set(responses.map((response) => response.body.order_id)).size, 1);
});
