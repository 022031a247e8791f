import t from 'tap';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const list = (query: string) => service.request('GET', `/api/v1/orders/detailed-orders/${query}`);

t.test('an empty scope lists nothing, with a valid envelope', async (t) => {
  const response = await list('');
  t.equal(response.status, 200);
  t.same(response.body, { count: 0, next: null, previous: null, results: [] });
});

const ids: number[] = [];
t.test('23 orders are submitted, half of them by truck', async (t) => {
  for (let i = 1; i <= 23; i++) {
    const response = await service.request('POST', '/api/v1/orders/submit-order/', {
      body: acmeOrder({ reference: `LIST-${String(i).padStart(2, '0')}`, transportation_mode: i % 2 ? 'OceanFCL' : 'TruckFTL' }),
    });
    t.equal(response.status, 201);
    ids.push(response.body.order_id);
  }
});

t.test('the default page has 10 orders, newest first, with an absolute next link', async (t) => {
  const response = await list('');
  t.equal(response.body.count, 23);
  t.same(
    response.body.results.map((order: { id: number }) => order.id),
    ids.slice(-10).reverse(),
  );
  t.equal(response.body.previous, null);
  t.equal(response.body.next, `${service.url}/api/v1/orders/detailed-orders/?page=2`);
});

t.test('following next walks every order once, and previous of page 2 drops the page parameter', async (t) => {
  const seen: number[] = [];
  let url: string | null = `${service.url}/api/v1/orders/detailed-orders/?page_size=7`;
  let pages = 0;
  while (url) {
    const body = (await (await fetch(url, { headers: { authorization: `Api-Key ${ACME_KEY}` } })).json()) as {
      next: string | null;
      previous: string | null;
      results: { id: number }[];
    };
    seen.push(...body.results.map((order) => order.id));
    if (++pages === 2) t.equal(body.previous, `${service.url}/api/v1/orders/detailed-orders/?page_size=7`);
    url = body.next;
  }
  t.equal(pages, 4);
  t.same(seen, [...ids].reverse());
});

t.test('the last page holds the remainder and has no next', async (t) => {
  const response = await list('?page=3');
  t.equal(response.body.results.length, 3);
  t.equal(response.body.next, null);
  t.equal(response.body.previous, `${service.url}/api/v1/orders/detailed-orders/?page=2`);
});

t.test('a page past the last answers 404', async (t) => {
  const response = await list('?page=4');
  t.equal(response.status, 404);
  t.match(response.body, { detail: /Invalid page/ });
});

t.test('page and page_size must be whole numbers of at least 1', async (t) => {
  for (const [query, field] of [
    ['?page=0', 'page'],
    ['?page=x', 'page'],
    ['?page_size=0', 'page_size'],
    ['?page_size=-3', 'page_size'],
    ['?page_size=&page=1', 'page_size'],
    ['?page=', 'page'],
    ['?paginate=maybe', 'paginate'],
  ] as const) {
    const response = await list(query);
    t.equal(response.status, 400, query);
    t.ok(Array.isArray(response.body[field]), JSON.stringify(response.body));
  }
});

t.test('page_size is capped at 100', async (t) => {
  for (let i = 0; i < 80; i++)
    await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: `BULK-${i}` }) });
  const response = await list('?page_size=1000');
  t.equal(response.body.count, 103);
  t.equal(response.body.results.length, 100);
  t.equal(response.body.next, `${service.url}/api/v1/orders/detailed-orders/?page_size=1000&page=2`);
});

t.test('paginate=false returns a bare array of every order, newest first', async (t) => {
  const response = await list('?paginate=false');
  t.ok(Array.isArray(response.body));
  t.equal(response.body.length, 103);
  t.ok(response.body.every((order: { id: number }, i: number, all: { id: number }[]) => i === 0 || all[i - 1]!.id > order.id));
});

t.test('search matches service_ref, reference and transport mode name, case-insensitively', async (t) => {
  const byReference = await list('?search=list-0');
  t.equal(byReference.body.count, 9, 'LIST-01..LIST-09');
  const byMode = await list('?search=truckftl&page_size=100');
  t.equal(byMode.body.count, 11);
  t.ok(byMode.body.results.every((order: { transport_name: string }) => order.transport_name === 'TruckFTL'));
  const first = await service.request('GET', `/api/v1/orders/detailed-orders/${ids[0]}/`);
  const byServiceRef = await list(`?search=${first.body.service_ref.toLowerCase()}`);
  t.same(
    byServiceRef.body.results.map((order: { id: number }) => order.id),
    [ids[0]],
  );
  const searchWithPaginateFalse = await list('?search=LIST-2&paginate=false');
  t.same(
    searchWithPaginateFalse.body.map((order: { reference: string }) => order.reference),
    ['LIST-23', 'LIST-22', 'LIST-21', 'LIST-20'],
  );
  t.equal((await list('?search=no-such-thing')).body.count, 0);
});

t.test('a search that can match nothing (longer than any field, or spanning two) answers no orders', async (t) => {
  const longest = 'x'.repeat(64);
  // 'list-01\noceanfcl' runs from LIST-01's reference into its mode's name: a match across two fields
  for (const search of ['list-0'.repeat(2_000), `${longest}y`, 'list-01\noceanfcl']) {
    const answer = await list(`?search=${encodeURIComponent(search)}`);
    t.equal(answer.status, 200);
    t.strictSame(answer.body.results, [], `${search.length} characters: none`);
    t.equal(answer.body.count, 0);
    const bare = await list(`?search=${encodeURIComponent(search)}&paginate=false`);
    t.strictSame(bare.body, [], 'paginate=false: an empty array');
  }
  // the bound is the longest field: a 64-character reference is still found
  const reference = 'R'.repeat(56) + 'LONG-REF';
  t.equal(reference.length, 64);
  const submitted = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference }) });
  t.equal(submitted.status, 201);
  t.equal((await list(`?search=${reference.toLowerCase()}`)).body.count, 1);
});
