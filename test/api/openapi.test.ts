import t from 'tap';
import { removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService();
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

t.test('GET /api/v1/openapi.json serves an OpenAPI 3.1 document naming every operation', async (t) => {
  const response = await service.request('GET', '/api/v1/openapi.json');
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /application\/json/);
  t.match(response.body.openapi, /^3\.1\./);
  const operations = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => key !== 'parameters')
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  for (const expected of [
    'POST /api/v1/orders/submit-order/',
    'GET /api/v1/orders/detailed-orders/',
    'GET /api/v1/orders/detailed-orders/{id}/',
    'GET /api/v1/orders/pallet-contents/',
    'PUT /api/v1/admin/master-data/',
  ]) {
    t.ok(operations.includes(expected), expected);
  }
});

t.test('unknown paths answer 404 with detail', async (t) => {
  const response = await service.request('GET', '/api/v1/nothing-here/');
  t.equal(response.status, 404);
  t.same(response.body, { detail: 'Not found.' });
});
