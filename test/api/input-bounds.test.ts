// Bounded work per request: a body built to make the service work hard (huge lists, huge counts,
// deep nesting, long text) is refused with a short 400 that names the field, and records nothing.
import t from 'tap';
import { allEvents } from '../support/events.js';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const submit = (rawBody: string) => service.request('POST', '/api/v1/orders/submit-order/', { rawBody });
const box = (count: unknown) => `{"name":"B","length":40,"width":30,"height":20,"weight":5,"count":${String(count)}}`;
const withBoxes = (boxes: string) => JSON.stringify(acmeOrder({ order_items: [] })).replace(/}$/, `,"loose_boxes":[${boxes}]}`);

t.test('170,000 empty loose_boxes elements answer a 400 far smaller than the request, naming the list', async (t) => {
  const before = (await allEvents(service.dataDir)).length;
  const rawBody = withBoxes(Array.from({ length: 170_000 }, () => '{}').join(','));
  const response = await submit(rawBody);
  t.equal(response.status, 400);
  t.match(response.body, { loose_boxes: [/no more than 1000 elements \(it has 170000\)/] });
  const size = JSON.stringify(response.body).length;
  t.ok(size < 1000, `the error body is ${size} bytes for a ${rawBody.length}-byte request`);
  t.equal((await allEvents(service.dataDir)).length, before, 'nothing recorded');
});

t.test('a list under its limit with every element wrong reports the first 50 errors and a summary', async (t) => {
  const rawBody = withBoxes(Array.from({ length: 1000 }, () => '{}').join(','));
  const response = await submit(rawBody);
  t.equal(response.status, 400);
  const messages = JSON.stringify(response.body).match(/This field is required/g) ?? [];
  t.equal(messages.length, 50);
  t.match(response.body.non_field_errors, [/more errors not shown/]);
  const size = JSON.stringify(response.body).length;
  t.ok(size < rawBody.length, `the error body (${size} bytes) is smaller than the request (${rawBody.length} bytes)`);
  t.equal(response.body.loose_boxes.length, 9, 'the list stops after the last element reported (6 missing fields each)');
});

t.test('counts past the limit are refused, however they are written', async (t) => {
  const before = (await allEvents(service.dataDir)).length;
  for (const count of ['1e308', '9007199254740993', '1000000000', '20001']) {
    const response = await submit(withBoxes(box(count)));
    t.equal(response.status, 400, count);
    t.match(response.body, { loose_boxes: [{ count: [/less than or equal to 20000/] }] }, count);
  }
  const quantity = await submit(JSON.stringify(acmeOrder({ order_items: [{ item: 'SKU-1001', quantity: '20000.5' }] })));
  t.match(quantity.body, { order_items: [{ quantity: [/less than or equal to 20000/] }] });
  t.equal((await allEvents(service.dataDir)).length, before, 'nothing recorded');
});

t.test('an order asking to plan more than 20,000 units in all is refused, saying how many it asked for', async (t) => {
  const response = await submit(withBoxes([box(15000), box(6000).replace('"B"', '"C"')].join(',')));
  t.equal(response.status, 400);
  t.match(response.body, { non_field_errors: [/21000 units.*at most 20000/] });
  const fits = await submit(withBoxes(box(20000)));
  t.equal(fits.status, 201, 'exactly the limit is accepted');
});

t.test('5,000-deep arrays in a choice field answer 400 naming the field', async (t) => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const rawBody = JSON.stringify(acmeOrder()).replace('"transportation_mode":"OceanFCL"', `"transportation_mode":${deep}`);
  const response = await submit(rawBody);
  t.equal(response.status, 400);
  t.match(response.body, { transportation_mode: [/Nested too deeply/] });
  t.ok(JSON.stringify(response.body).length < 300);
});

t.test('long text is refused with the field named: notes, customer notes, names', async (t) => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [acmeOrder({ customer_notes: 'W'.repeat(900_000) }), /"customer_notes":\["Ensure this field has no more than 2000 characters/],
    [
      acmeOrder({ order_items: [{ item: 'SKU-1001', quantity: 1, notes: 'n'.repeat(1001) }] }),
      /"notes":\["Ensure this field has no more than 1000/,
    ],
    [acmeOrder({ supplier_name: 'S'.repeat(201) }), /"supplier_name":\["Ensure this field has no more than 200/],
  ];
  for (const [order, expected] of cases) {
    const response = await submit(JSON.stringify(order));
    t.equal(response.status, 400);
    t.match(JSON.stringify(response.body), expected);
  }
});
