import t from 'tap';
import { allEvents } from '../support/events.js';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService, tempDataDir } from '../support/service.js';

t.test(
  '16 concurrent submits of different orders under one new reference: exactly one 201, fifteen 400 naming the reference',
  async (t) => {
    const service = await startTestService({ key: ACME_KEY });
    t.teardown(async () => {
      await service.stop();
      removeDataDir(service.dataDir);
    });
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        service.request('POST', '/api/v1/orders/submit-order/', {
          body: acmeOrder({ reference: 'RACE-1', customer_notes: `submitter ${i}` }),
        }),
      ),
    );
    const created = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 400);
    t.equal(created.length, 1);
    t.equal(refused.length, 15);
    for (const response of refused) t.same(response.body, { reference: ['An order with this reference already exists.'] });
    const list = await service.request('GET', '/api/v1/orders/detailed-orders/?search=RACE-1');
    t.equal(list.body.count, 1);
    const submitted = (await allEvents(service.dataDir)).filter((event) => event.type === 'OrderSubmitted');
    t.equal(submitted.length, 1, 'one order in the log');
  },
);

t.test('a restart on the same data directory keeps every order and goes on with the next id', async (t) => {
  const dataDir = tempDataDir();
  t.teardown(() => removeDataDir(dataDir));
  const first = await startTestService({ dataDir, key: ACME_KEY });
  const ids: number[] = [];
  for (let i = 0; i < 5; i++)
    ids.push((await first.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: `KEEP-${i}` }) })).body.order_id);
  await first.stop();

  const second = await startTestService({ dataDir, key: ACME_KEY });
  t.teardown(() => second.stop());
  const list = await second.request('GET', '/api/v1/orders/detailed-orders/');
  t.same(
    list.body.results.map((order: { id: number }) => order.id),
    [...ids].reverse(),
  );
  const next = await second.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'KEEP-5' }) });
  t.equal(next.body.order_id, ids.at(-1)! + 1);
  const duplicate = await second.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ reference: 'KEEP-0', customer_notes: 'another order' }),
  });
  t.equal(duplicate.status, 400, 'references stay reserved across restarts');
});

t.test('deleting the read models rebuilds them from the log on start', async (t) => {
  const dataDir = tempDataDir();
  t.teardown(() => removeDataDir(dataDir));
  const first = await startTestService({ dataDir, key: ACME_KEY });
  const created = await first.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'REBUILD-1' }) });
  await eventually(async () => (await first.request('GET', '/api/v1/orders/pallet-contents/?order=REBUILD-1')).status === 200);
  const before = await first.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  await first.stop();
  const { rmSync } = await import('node:fs');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dataDir}/read-models.db${suffix}`, { force: true });

  const second = await startTestService({ dataDir, key: ACME_KEY });
  t.teardown(() => second.stop());
  await eventually(async () => (await second.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`)).status === 200);
  const after = await second.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  t.same(after.body, before.body);
  const pallets = await second.request('GET', '/api/v1/orders/pallet-contents/?order=REBUILD-1');
  t.equal(pallets.status, 200, 'pallet contents are rebuilt too');
});
