import t from 'tap';
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService();
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

const operations: [string, string][] = [
  ['POST', '/api/v1/orders/submit-order/'],
  ['GET', '/api/v1/orders/detailed-orders/'],
  ['GET', '/api/v1/orders/detailed-orders/1/'],
  ['GET', '/api/v1/orders/pallet-contents/?order=x'],
];

for (const [method, path] of operations) {
  t.test(`${method} ${path} without a key answers 401 with detail`, async (t) => {
    const response = await service.request(method, path, { key: null, ...(method === 'POST' ? { body: {} } : {}) });
    t.equal(response.status, 401);
    t.same(response.body, { detail: 'Authentication credentials were not provided.' });
  });
  t.test(`${method} ${path} with an unknown key answers 401 with detail`, async (t) => {
    const response = await service.request(method, path, { key: 'not-a-real-key-0000000', ...(method === 'POST' ? { body: {} } : {}) });
    t.equal(response.status, 401);
    t.same(response.body, { detail: 'Invalid API key.' });
  });
}

t.test('another scheme than Api-Key is refused with 401', async (t) => {
  const response = await service.request('GET', '/api/v1/orders/detailed-orders/', { headers: { authorization: `Bearer ${ACME_KEY}` } });
  t.equal(response.status, 401);
  t.match(response.body, { detail: /Api-Key <key>/ });
});

t.test('a key differing in one character is refused', async (t) => {
  const response = await service.request('GET', '/api/v1/orders/detailed-orders/', { key: `${ACME_KEY.slice(0, -1)}X` });
  t.equal(response.status, 401);
});

t.test('a valid key is accepted', async (t) => {
  const response = await service.request('GET', '/api/v1/orders/detailed-orders/', { key: ACME_KEY });
  t.equal(response.status, 200);
});

// A connection remembers the key it proved last (src/http/auth.ts); a proxy's upstream connection
// carries many clients' requests, so each request must still be judged by its own header.
t.test('on one keep-alive connection each request is judged by its own key', async (t) => {
  const submitted = await service.request('POST', '/api/v1/orders/submit-order/', {
    key: ACME_KEY,
    body: acmeOrder({ reference: 'KEEP-ALIVE-1' }),
  });
  t.equal(submitted.status, 201);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const sockets = new Set<Socket>();
  const get = (path: string, authorization?: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(service.url + path, { agent, headers: authorization ? { authorization } : {} }, (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req
        .on('socket', (socket) => sockets.add(socket))
        .on('error', reject)
        .end();
    });
  const orderPath = `/api/v1/orders/detailed-orders/${submitted.body.order_id}/`;

  t.equal((await get(orderPath, `Api-Key ${ACME_KEY}`)).status, 200);
  t.same(await get(orderPath, `Api-Key ${OTHER_KEY}`), {
    status: 403,
    body: { detail: 'You do not have permission to access this order.' },
  });
  t.equal((await get(orderPath, `Api-Key ${ACME_KEY.slice(0, -1)}X`)).status, 401);
  t.equal((await get(orderPath, `Api-Key ${ACME_KEY}X`)).status, 401);
  t.equal((await get(orderPath)).status, 401);
  t.equal((await get(orderPath, `Bearer ${ACME_KEY}`)).status, 401);
  t.equal((await get(orderPath, `Api-Key ${ACME_KEY}`)).status, 200);
  t.equal(sockets.size, 1, 'every request went over the same connection');
});
