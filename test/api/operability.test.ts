import { request as httpRequest } from 'node:http';
import t from 'tap';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

t.test('/healthz answers while the process is up', async (t) => {
  const response = await service.request('GET', '/healthz');
  t.equal(response.status, 200);
  t.same(response.body, { status: 'ok' });
});

t.test('/readyz reports each check', async (t) => {
  const response = await service.request('GET', '/readyz');
  t.equal(response.status, 200);
  t.same(response.body, {
    status: 'ready',
    checks: { event_store: 'ok', read_models: 'ok', log_chain: 'ok', kafka_topic: 'ok', projections_caught_up: 'ok' },
  });
});

t.test("a request id is echoed back: the caller's when sane, a new one otherwise", async (t) => {
  const given = await service.request('GET', '/healthz', { headers: { 'x-request-id': 'erp-42' } });
  t.equal(given.headers.get('x-request-id'), 'erp-42');
  const made = await service.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
  const madeId = made.headers.get('x-request-id') ?? '';
  t.match(madeId, /^[0-9a-f]{12}-\d+$/, "this instance's prefix and a sequence number");
  const next = await service.request('GET', '/healthz');
  const nextId = next.headers.get('x-request-id') ?? '';
  t.not(nextId, madeId, 'each request a new id');
  t.equal(nextId.slice(0, 13), madeId.slice(0, 13), 'one prefix per process');
});

t.test('/metrics counts requests by route pattern and status, and shows projection lag', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder() });
  await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  await service.request('GET', '/api/v1/orders/detailed-orders/999999/');
  const response = await service.request('GET', '/metrics');
  t.equal(response.status, 200);
  const text = String(response.body);
  t.match(text, /orders_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/orders\/submit-order\/",status="201"\} 1/);
  t.match(
    text,
    /orders_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/orders\/detailed-orders\/:id\/",status="200"\} 1/,
  );
  t.match(
    text,
    /orders_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/orders\/detailed-orders\/:id\/",status="404"\} 1/,
  );
  t.match(text, /orders_http_request_duration_seconds_bucket/);
  t.match(text, /orders_projection_lag_events \d+/);
  // Within quotes only: a sample's value (a float such as 0.016154243999999998) may hold those digits.
  t.notMatch(text, /"[^"\n]*999999[^"\n]*"/, 'ids never become label values');
});

t.test('/metrics counts planner exits per kind, plans and the WebAssembly searches in them', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'EXITS-1' }) });
  const planned = async (): Promise<boolean> => {
    const history = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/history/`);
    return (history.body as { type: string }[]).some((e) => e.type === 'OrderPlanned');
  };
  await eventually(planned, 60_000);
  const text = String((await service.request('GET', '/metrics')).body);
  const plans = [...text.matchAll(/^orders_planner_exits_total\{exit="(lower_bound|searched|time_limit)"\} (\d+)$/gm)].reduce(
    (s, m) => s + Number(m[2]),
    0,
  );
  t.ok(plans >= 1, `plans counted by exit (${plans})`);
  t.match(text, /^orders_planner_search_exits_total\{exit="(all_placed|effort|widest_beam|time_limit)"\} [1-9]\d*$/m);
});

t.test('/metrics shows memory by component: the planner and PDF threads, the view cache', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'MEMORY-1' }) });
  // Planned first: the plan's projection drops the order's cached view, and nothing changes it after.
  await eventually(
    async () => (await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`)).body.status === 'planned',
    60_000,
  );
  await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  let text = '';
  const bytes = (component: string): number =>
    Number(new RegExp(`^orders_memory_bytes\\{component="${component}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  // The PDF thread starts with the first render (an order's e-mail) and counts nothing until it is up:
  // on a busy machine that can be after the order is planned.
  await eventually(async () => {
    text = String((await service.request('GET', '/metrics')).body);
    return bytes('pdf_thread_heap') > 0;
  }, 60_000);
  for (const component of ['planner_threads_heap', 'pdf_thread_heap'])
    t.ok(bytes(component) > 1024 * 1024, `${component}: ${bytes(component)} bytes, a V8 heap at least`);
  for (const component of ['planner_threads_external', 'pdf_thread_external'])
    t.ok(bytes(component) >= 0, `${component}: ${bytes(component)} bytes`);
  t.ok(bytes('view_cache') > 0, `view_cache: ${bytes('view_cache')} bytes, the view just read`);
});

t.test("the auditors' history lists the order's events in order, with the same scope as retrieve", async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'AUDIT-1' }) });
  const history = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/history/`);
  t.equal(history.status, 200);
  t.match(history.body[0], {
    type: 'OrderSubmitted',
    revision: 0,
    event_id: /^[0-9a-f-]{36}$/,
    position: /^\d+$/,
    timestamp: /Z$/,
    data: { order_id: created.body.order_id, order: { reference: 'AUDIT-1' } },
  });
  t.equal((await service.request('GET', '/api/v1/orders/detailed-orders/999999/history/')).status, 404);
  t.equal(
    (await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/history/`, { key: 'other-test-key-00000001' }))
      .status,
    403,
  );
});

t.test('a known path asked with a method it does not take answers 405 with Allow and detail, under /api/v1/orders/ or not', async (t) => {
  for (const [method, path, allow] of [
    ['DELETE', '/api/v1/orders/detailed-orders/1/', 'HEAD, GET, PUT'],
    ['GET', '/api/v1/orders/submit-order/', 'POST'],
    ['POST', '/healthz', 'HEAD, GET'],
    ['GET', '/api/v1/admin/master-data/', 'PUT'],
  ] as const) {
    const response = await service.request(method, path);
    t.equal(response.status, 405, `${method} ${path}`);
    t.equal(response.headers.get('allow'), allow, `${method} ${path}: Allow`);
    t.same(response.body, { detail: `Method "${method}" not allowed.` }, `${method} ${path}: detail`);
  }
});

t.test('a method no route takes (TRACE, QUERY) answers 405 with Allow too, not 501; HEAD and OPTIONS are served', async (t) => {
  // fetch refuses to send TRACE: node:http sends any method.
  const send = (method: string, path: string) =>
    new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
      const request = httpRequest(new URL(path, service.url), { method, headers: { authorization: `Api-Key ${ACME_KEY}` } }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, allow: response.headers.allow }));
      });
      request.on('error', reject);
      request.end();
    });
  for (const [method, path, status, allow] of [
    ['TRACE', '/healthz', 405, 'HEAD, GET'],
    ['TRACE', '/api/v1/orders/detailed-orders/1/', 405, 'HEAD, GET, PUT'],
    ['TRACE', '/api/v1/orders/submit-order/', 405, 'POST'],
    ['QUERY', '/api/v1/admin/master-data/', 405, 'PUT'],
    ['TRACE', '/no-such-path', 404, undefined],
    ['OPTIONS', '/api/v1/orders/submit-order/', 200, 'POST'],
    ['HEAD', '/healthz', 200, undefined],
  ] as const) {
    t.same(await send(method, path), { status, allow }, `${method} ${path}`);
  }
});

t.test('an unknown path under /api/v1/orders/ answers 404 to a key, 401 without one', async (t) => {
  const known = await service.request('GET', '/api/v1/orders/nothing-here/');
  t.equal(known.status, 404);
  t.same(known.body, { detail: 'Not found.' });
  const anonymous = await service.request('GET', '/api/v1/orders/nothing-here/', { key: null });
  t.equal(anonymous.status, 401);
});
