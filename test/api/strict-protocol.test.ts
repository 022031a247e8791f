// Strict protocol: a body not declared JSON, two Authorization headers, a page number past any
// page and text that is not well-formed Unicode are refused with a 4xx, never a 500, and change nothing.
import t from 'tap';
import { request } from 'node:http';
import { allEvents } from '../support/events.js';
import { ACME_KEY, ADMIN_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
// What requests record: the notification consumers append their delivery outcomes of earlier orders
// (streams notifications-*) whenever those deliveries happen, which no request here is about.
const recorded = async () => (await allEvents(service.dataDir)).filter((event) => !event.stream.startsWith('notifications-')).length;
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

t.test('submit and admin refuse a body that is not sent as JSON with 415', async (t) => {
  const before = await recorded();
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', '']) {
    const submit = await service.request('POST', '/api/v1/orders/submit-order/', {
      rawBody: JSON.stringify(acmeOrder()),
      headers: { 'content-type': contentType },
    });
    t.equal(submit.status, 415, `submit as "${contentType}"`);
    t.match(submit.body, { detail: /application\/json/ });
    const admin = await service.request('PUT', '/api/v1/admin/master-data/', {
      key: ADMIN_KEY,
      rawBody: JSON.stringify(testSeed()),
      headers: { 'content-type': contentType },
    });
    t.equal(admin.status, 415, `admin as "${contentType}"`);
  }
  const withCharset = await service.request('POST', '/api/v1/orders/submit-order/', {
    rawBody: JSON.stringify(acmeOrder()),
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
  t.equal(withCharset.status, 201, 'application/json with a charset is JSON');
  t.equal(await recorded(), before + 2, 'only the JSON order (and its id) was recorded');
});

t.test('two Authorization headers answer 400, whichever comes first', async (t) => {
  const url = new URL(service.url);
  const send = (values: string[]) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/v1/orders/detailed-orders/',
          headers: ['host', url.host, ...values.flatMap((value) => ['authorization', value])],
        },
        (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (body += chunk))
            .on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject).end();
    });
  t.equal((await send([`Api-Key ${ACME_KEY}`])).status, 200);
  for (const values of [
    [`Api-Key ${ACME_KEY}`, 'Api-Key wrong-key-00000000'],
    ['Api-Key wrong-key-00000000', `Api-Key ${ACME_KEY}`],
  ]) {
    const response = await send(values);
    t.equal(response.status, 400);
    t.match(JSON.parse(response.body), { detail: /one Authorization header/ });
  }
});

t.test('page numbers are bounded: past the limit is a 400 naming page, not a 500', async (t) => {
  for (const page of ['99999999999999999999', '1000001']) {
    const response = await service.request('GET', `/api/v1/orders/detailed-orders/?page=${page}`);
    t.equal(response.status, 400, page);
    t.match(response.body, { page: [/at most 1000000/] });
  }
  const last = await service.request('GET', '/api/v1/orders/detailed-orders/?page=1000000');
  t.equal(last.status, 404, 'the largest page number is a page past the last one, not a 400');
});

t.test('a lone surrogate is refused with a 400 naming the field, in orders and in master data', async (t) => {
  const before = await recorded();
  const order = JSON.stringify(acmeOrder({ reference: 'PO-X' })).replace('PO-X', 'PO-\\ud800');
  const submit = await service.request('POST', '/api/v1/orders/submit-order/', { rawBody: order });
  t.equal(submit.status, 400);
  t.match(submit.body, { reference: [/lone UTF-16 surrogate/] });
  const nested = JSON.stringify(acmeOrder({ order_items: [{ item: 'SKU-X', quantity: 1 }] })).replace('SKU-X', 'SKU-\\udc00');
  t.match((await service.request('POST', '/api/v1/orders/submit-order/', { rawBody: nested })).body, {
    order_items: [/\[0\]\.item: .*lone UTF-16 surrogate/],
  });

  const seed = testSeed();
  const document = JSON.stringify(seed).replace(`"${seed.company_groups[0]!.name}"`, '"Acme \\ud83d Group"');
  const admin = await service.request('PUT', '/api/v1/admin/master-data/', { key: ADMIN_KEY, rawBody: document });
  t.equal(admin.status, 400);
  t.match(admin.body, { company_groups: [/\[0\]\.name: .*lone UTF-16 surrogate/] });
  t.equal(await recorded(), before, 'nothing recorded');

  const paired = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'PO-\u{1F4E6}' }) });
  t.equal(paired.status, 201, 'a well-formed surrogate pair (an emoji) is fine');
});
