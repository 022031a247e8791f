// Issue 59 over HTTP: amend (PUT on the order, If-Match its ETag) and cancel (POST .../cancel/), the
// answers, scope and refusals, the new plan read back after an amend, the order as it stood before it
// (as_of), and a cancelled order's lookups, list filter and second cancel.
import t from 'tap';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const orderPath = (id: number) => `/api/v1/orders/detailed-orders/${id}/`;
const retrieve = (id: number) => service.request('GET', orderPath(id));
const amend = (id: number, body: unknown, ifMatch?: string) =>
  service.request('PUT', orderPath(id), { body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
const cancel = (id: number, body?: unknown, headers: Record<string, string> = {}) =>
  service.request('POST', `${orderPath(id)}cancel/`, { ...(body === undefined ? {} : { body }), headers });
const lookup = (what: string, ref: string) => service.request('GET', `/api/v1/orders/${what}/?order=${ref}`);

async function submitPlanned(order: Record<string, unknown>): Promise<{ id: number; ref: string }> {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: order });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  await eventually(async () => (await retrieve(created.body.order_id)).body.status === 'planned');
  return { id: created.body.order_id, ref: created.body.service_ref };
}

t.test('amend: If-Match required and checked, the new plan read back, as_of shows what stood before', async (t) => {
  const order = acmeOrder({ reference: 'AM-1', order_items: [{ item: 'SKU-1001', quantity: 40 }] });
  const { id, ref } = await submitPlanned(order);
  const before = await retrieve(id);
  t.equal(before.headers.get('etag'), '"1"', 'submitted and planned: revision 1');
  t.equal(before.body.revision, 1);
  const palletsBefore = (await lookup('pallet-contents', ref)).body;
  const bigger = { ...order, order_items: [{ item: 'SKU-1001', quantity: 400 }], customer_notes: 'two more pallets' };

  const missing = await amend(id, bigger);
  t.equal(missing.status, 428, 'no If-Match');
  t.match(missing.body, { detail: /If-Match/ });
  const stale = await amend(id, bigger, '"0"');
  t.equal(stale.status, 412, 'a stale If-Match');
  t.match(stale.body, { detail: /changed since revision 0: it is at revision 1 now/ });
  t.equal((await retrieve(id)).headers.get('etag'), '"1"', 'the 412 changed nothing');
  t.equal((await amend(id, bigger, 'W/"1"')).status, 412, 'a weak ETag never matches');
  t.equal((await amend(id, bigger, '"1", "2"')).status, 400, 'a list of ETags is refused');
  t.equal((await amend(id, bigger, `"${'9'.repeat(80)}"`)).status, 400, 'an If-Match past its bound is refused unread');

  const amended = await amend(id, bigger, '"1"');
  t.equal(amended.status, 200);
  t.equal(amended.headers.get('etag'), '"2"');
  t.match(amended.body, {
    id,
    status: 'submitted',
    customer_notes: 'two more pallets',
    revision: 2,
    order_items: [{ quantity: '400.000000' }],
  });
  await eventually(async () => (await retrieve(id)).body.status === 'planned');
  const after = await retrieve(id);
  t.equal(after.headers.get('etag'), '"3"', 'planned again: revision 3');
  const palletsAfter = (await lookup('pallet-contents', ref)).body;
  t.ok(palletsAfter.length > palletsBefore.length, `the new plan: ${palletsAfter.length} pallets, against ${palletsBefore.length}`);
  const loadPlan = await lookup('load-plan', ref);
  t.equal(loadPlan.status, 200);
  t.equal(loadPlan.body.pallets.length, palletsAfter.length, 'the load plan is the new plan');
  const history = (await service.request('GET', `${orderPath(id)}history/`)).body.map((e: { type: string }) => e.type);
  t.same(history, ['OrderSubmitted', 'OrderPlanned', 'OrderAmended', 'OrderPlanned']);
  const asOf = await service.request(
    'GET',
    `${orderPath(id)}?as_of=${encodeURIComponent(new Date(Date.parse(`${amended.body.updated_at}Z`) - 1).toISOString())}`,
  );
  t.match(
    asOf.body,
    { status: 'planned', order_items: [{ quantity: '40.000000' }], revision: 1 },
    'as_of before the amend: the order as it stood',
  );
  t.equal(asOf.headers.get('etag'), null, 'no ETag for a past state');

  const same = await amend(id, bigger, '"3"');
  t.equal(same.status, 200, 'the content it has already');
  t.equal(same.headers.get('etag'), '"3"', 'records nothing');
});

t.test("amend: submit's validation and 400 bodies; reference, lane and mode stay; scope as retrieve", async (t) => {
  const order = acmeOrder({ reference: 'AM-2' });
  const { id } = await submitPlanned(order);
  const invalid = { ...order, order_items: [{ item: 'SKU-1001', quantity: 0 }] };
  const submitted = await service.request('POST', '/api/v1/orders/submit-order/', { body: { ...invalid, reference: 'AM-2-other' } });
  const amended = await amend(id, invalid, '"1"');
  t.equal(amended.status, 400);
  t.same(amended.body, submitted.body, "the submit's own 400 body");
  const moved = await amend(id, { ...order, reference: 'AM-2b', transportation_mode: 'TruckFTL' }, '"1"');
  t.equal(moved.status, 400);
  t.match(moved.body, { reference: [/keeps the order's reference "AM-2"/], transportation_mode: [/OceanFCL/] });
  const sku = await amend(id, { ...order, order_items: [{ item: 'SKU-NOPE', quantity: 1 }] }, '"1"');
  t.match(sku.body, { order_items: [{ item: [/not in the item master/] }] });
  t.equal((await service.request('PUT', orderPath(id), { key: OTHER_KEY, body: order, headers: { 'if-match': '"1"' } })).status, 403);
  t.equal((await amend(999_999, order, '"1"')).status, 404);
  t.equal(
    (await service.request('PUT', orderPath(id), { rawBody: 'reason=x', headers: { 'content-type': 'text/plain', 'if-match': '"1"' } }))
      .status,
    415,
  );
});

t.test('cancel: status, lookups refused, list kept and filtered, twice the same, amend refused', async (t) => {
  const { id, ref } = await submitPlanned(acmeOrder({ reference: 'CA-1' }));
  await submitPlanned(acmeOrder({ reference: 'CA-KEPT' }));
  t.equal((await cancel(id, { reason: 'x'.repeat(501) })).status, 400, 'a reason past 500 characters');
  t.match((await cancel(id, { reason: 'x', why: 1 })).body, { why: ['Unknown field.'] });
  t.equal((await cancel(id, undefined, { 'if-match': '"0"' })).status, 412, 'a stale If-Match');
  t.equal((await service.request('POST', `${orderPath(id)}cancel/`, { key: OTHER_KEY })).status, 403);

  const first = await cancel(id, { reason: '  called off by the consignee ' });
  t.equal(first.status, 200);
  t.match(first.body, { status: 'cancelled', cancellation_reason: 'called off by the consignee', revision: 2 });
  t.equal(first.headers.get('etag'), '"2"');
  const second = await cancel(id, undefined, { 'if-match': '"1"' });
  t.equal(second.status, 200, 'cancelling again');
  t.same(second.body, first.body, 'answers the same');

  for (const what of ['pallet-contents', 'load-plan', 'download-packing-instructions']) {
    const refused = await lookup(what, ref);
    t.equal(refused.status, 400, what);
    t.match(refused.body, { order: [new RegExp(`Order ${ref} was cancelled .*\\(called off by the consignee\\)`)] }, what);
  }
  const amended = await amend(id, acmeOrder({ reference: 'CA-1' }), '"2"');
  t.equal(amended.status, 400);
  t.match(amended.body, { non_field_errors: [/was cancelled; a cancelled order cannot be amended/] });

  const all = (await service.request('GET', '/api/v1/orders/detailed-orders/?search=CA-')).body;
  t.same(
    all.results.map((o: { reference: string }) => o.reference),
    ['CA-KEPT', 'CA-1'],
    'the list keeps the cancelled order by default',
  );
  const active = (await service.request('GET', '/api/v1/orders/detailed-orders/?search=CA-&status=submitted,planned,planning_failed')).body;
  t.same([active.count, active.results.map((o: { reference: string }) => o.reference)], [1, ['CA-KEPT']]);
  const cancelled = (await service.request('GET', '/api/v1/orders/detailed-orders/?status=cancelled&paginate=false')).body;
  t.ok(cancelled.every((o: { status: string }) => o.status === 'cancelled') && cancelled.some((o: { id: number }) => o.id === id));
  t.match((await service.request('GET', '/api/v1/orders/detailed-orders/?status=gone')).body, {
    status: [/submitted, planned, planning_failed, cancelled/],
  });
});
