import t from 'tap';
import { ACME_KEY } from '../support/seed.js';
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
  const response = await service.request('GET', '/api/v1/orders/detailed-orders/', { key: ACME_KEY.slice(0, -1) + 'X' });
  t.equal(response.status, 401);
});

t.test('a valid key is accepted', async (t) => {
  const response = await service.request('GET', '/api/v1/orders/detailed-orders/', { key: ACME_KEY });
  t.equal(response.status, 200);
});
