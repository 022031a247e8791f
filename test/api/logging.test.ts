import t from 'tap';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createLogger } from '../../src/observability/logger.js';
import { ACME_KEY, ADMIN_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { logLines } from '../support/log-lines.js';
import { removeDataDir, startTestService } from '../support/service.js';

const { lines, sink } = logLines();
const service = await startTestService({ key: ACME_KEY, logger: createLogger('info', sink) });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

t.test('each request logs one JSON line with its request id, route and status, and no key or secret', async (t) => {
  await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder(), headers: { 'x-request-id': 'req-1' } });
  await service.request('GET', '/api/v1/orders/detailed-orders/', { key: 'wrong-key-that-must-not-leak' });
  await service.request('PUT', '/api/v1/admin/master-data/', { key: ADMIN_KEY, body: testSeed() });
  await nextTurn();
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const submit = records.find((record) => record.request_id === 'req-1');
  t.match(submit, { msg: 'request', method: 'POST', route: '/api/v1/orders/submit-order/', status: 201, service: 'orders' });
  t.ok(
    records.some((record) => record.status === 401),
    'the refused request is logged',
  );
  const all = lines.join('\n');
  for (const secret of [ACME_KEY, ADMIN_KEY, 'wrong-key-that-must-not-leak', 'Api-Key'])
    t.notOk(all.includes(secret), `${secret} is not in the logs`);
});
