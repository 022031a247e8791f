import t from 'tap';
import { allEvents } from '../support/events.js';
import { ACME_KEY, ADMIN_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const put = (body: unknown, key: string | null = ADMIN_KEY) => service.request('PUT', '/api/v1/admin/master-data/', { body, key });

t.test('without the admin key, or with an order key, the admin API answers 401', async (t) => {
  for (const key of [null, ACME_KEY, 'wrong-admin-key-00000']) {
    const response = await put(testSeed(), key);
    t.equal(response.status, 401);
    t.type(response.body.detail, 'string');
  }
});

t.test('the seed applied at start-up makes applying it again change nothing', async (t) => {
  const before = (await allEvents(service.dataDir)).length;
  const response = await put(testSeed());
  t.equal(response.status, 200);
  t.same(response.body, { applied: true, changes: { CompanyGroupDefined: 0, ApiKeyIssued: 0, LaneDefined: 0, ItemDefined: 0 } });
  t.equal((await allEvents(service.dataDir)).length, before);
});

t.test('an invalid document is rejected whole, naming each bad field, and nothing of it applies', async (t) => {
  const before = (await allEvents(service.dataDir)).length;
  const document = testSeed();
  document.company_groups[0]!.lanes[0]!.items.push({ sku: 'SKU-NEW', length: 10, width: 10, height: 10, weight: 1, upright: false });
  (document.company_groups[0]!.lanes[0]!.items[0] as { weight: number }).weight = -1;
  const response = await put(document);
  t.equal(response.status, 400);
  t.match(response.body, { company_groups: [{ lanes: [{ items: [{ weight: [String] }] }] }] });
  t.equal((await allEvents(service.dataDir)).length, before);
  const order = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ order_items: [{ item: 'SKU-NEW', quantity: 1 }] }),
  });
  t.equal(order.status, 400, 'the valid part of the rejected document was not applied either');
});

t.test('a changed document adds an item, a key and a lane that orders can use at once', async (t) => {
  const document = testSeed();
  const acme = document.company_groups[0]!;
  acme.lanes[0]!.items.push({ sku: 'SKU-NEW', length: 10, width: 10, height: 10, weight: 1, upright: false });
  acme.api_keys.push({ name: 'second', key: 'acme-second-key-000001' });
  acme.lanes.push({ ...acme.lanes[0]!, id: 105, consignee: 'New Consignee', items: [] });
  const response = await put(document);
  t.equal(response.status, 200);
  t.same(response.body.changes, { CompanyGroupDefined: 0, ApiKeyIssued: 1, LaneDefined: 1, ItemDefined: 1 });
  const order = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ order_items: [{ item: 'SKU-NEW', quantity: 1 }] }),
    key: 'acme-second-key-000001',
  });
  t.equal(order.status, 201, JSON.stringify(order.body));
  const onNewLane = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      consignee_name: 'New Consignee',
      order_items: undefined,
      loose_boxes: [{ name: 'B', length: 1, width: 1, height: 1, weight: 1, count: 1 }],
    }),
  });
  t.equal(onNewLane.status, 201, JSON.stringify(onNewLane.body));
});

t.test('changing master data never touches orders already submitted', async (t) => {
  const order = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ order_items: [{ item: 'SKU-1002', quantity: 3 }] }),
  });
  const document = testSeed();
  document.company_groups[0]!.lanes[0]!.items[1]!.height = 99;
  t.equal((await put(document)).status, 200);
  const events = await allEvents(service.dataDir);
  const submitted = events.find(
    (event) => event.type === 'OrderSubmitted' && (event.data as { order_id: number }).order_id === order.body.order_id,
  );
  t.match(
    (submitted!.data as { lane: { items: unknown } }).lane.items,
    [{ sku: 'SKU-1002', height: 30 }],
    'the order keeps the item as it was at submit',
  );
});

t.test('a document that would move a lane to another group is rejected', async (t) => {
  const other = testSeed().company_groups[1]!;
  other.lanes[0]!.id = 101;
  const response = await put({ company_groups: [other] });
  t.equal(response.status, 400);
  t.match(response.body, { company_groups: [{ lanes: [{ id: [/Lane 101 already belongs to company group "Acme Group"/] }] }] });
});

t.test('with no ORDERS_ADMIN_KEY configured the admin API refuses everyone', async (t) => {
  const noAdmin = await startTestService({ adminKey: undefined });
  t.teardown(async () => {
    await noAdmin.stop();
    removeDataDir(noAdmin.dataDir);
  });
  const response = await noAdmin.request('PUT', '/api/v1/admin/master-data/', { body: testSeed(), key: ADMIN_KEY });
  t.equal(response.status, 401);
  t.match(response.body, { detail: /ORDERS_ADMIN_KEY/ });
});
