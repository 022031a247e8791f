// The retrieve answered before Koa (src/http/ready-retrieve.ts): when it answers, when it leaves the
// request to Koa, and that its answers are Koa's.
import t from 'tap';
import Koa from 'koa';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { canonicalRetrieveId, withReadyRetrieves } from '../../src/http/ready-retrieve.js';
import { requireApiKey } from '../../src/http/auth.js';
import { hashApiKey } from '../../src/master-data/apply-master-data.js';
import type { MasterData } from '../../src/master-data/master-data.js';
import type { OrderViewJson } from '../../src/orders/read-model/order-read-model.js';
import { createLogger } from '../../src/observability/logger.js';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { logLines } from '../support/log-lines.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(
  base: string,
  path: string,
  options: { agent: Agent | false; headers?: OutgoingHttpHeaders; method?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}${path}`,
      { method: options.method ?? 'GET', agent: options.agent, headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

t.test('canonicalRetrieveId takes only the documented spelling of the path', async (t) => {
  t.equal(canonicalRetrieveId('/api/v1/orders/detailed-orders/1/'), 1);
  t.equal(canonicalRetrieveId('/api/v1/orders/detailed-orders/9007199254740/'), 9007199254740);
  for (const url of [
    '/api/v1/orders/detailed-orders/1',
    '/api/v1/orders/detailed-orders/1/?as_of=2026-01-01T00:00:00Z',
    '/api/v1/orders/detailed-orders/01/',
    '/api/v1/orders/detailed-orders/0/',
    '/api/v1/orders/detailed-orders/%31/',
    '/API/v1/orders/detailed-orders/1/',
    '/api/v1/orders/detailed-orders//',
    '/api/v1/orders/detailed-orders/1/history/',
    '/api/v1/orders/detailed-orders/12345678901234567/',
    '//api/v1/orders/detailed-orders/1/',
    'http://host/api/v1/orders/detailed-orders/1/',
    undefined,
  ])
    t.equal(canonicalRetrieveId(url), undefined, `${url} is left to Koa`);
});

t.test('with fake dependencies: answered here only when every condition holds, otherwise by Koa', async (t) => {
  const key = { name: 'erp', key_hash: hashApiKey('key-one-000000001'), company_group: 'g1' };
  const otherKey = { name: 'erp2', key_hash: hashApiKey('key-two-000000001'), company_group: 'g2' };
  let masterData = {
    keys: new Map([
      [key.key_hash, key],
      [otherKey.key_hash, otherKey],
    ]),
  } as unknown as MasterData;
  const views = new Map<number, OrderViewJson>([
    [1, { company_group: 'g1', viewJson: '{"id":1,"text":"é"}' }],
    [2, { company_group: 'g2', viewJson: '{"id":2}' }],
  ]);
  let stopping = false;
  let available = true;
  const answered: unknown[][] = [];
  let koaAnswers = 0;
  const koa = new Koa();
  koa.use(requireApiKey(() => masterData));
  koa.use((ctx) => {
    koaAnswers++;
    ctx.body = 'koa';
  });
  const server = createServer(
    withReadyRetrieves(koa.callback(), {
      orders: { readyViewJson: (id) => views.get(id) },
      masterData: () => masterData,
      answered: (...args) => void answered.push(args),
      stopping: () => stopping,
      readModelsAvailable: () => available,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => {
    agent.destroy();
    server.close();
  });
  const auth = { authorization: 'Api-Key key-one-000000001' };
  const byKoa = async (
    what: string,
    path: string,
    options: { headers?: OutgoingHttpHeaders; method?: string; agent?: Agent | false } = {},
  ) => {
    const before = koaAnswers;
    const answer = await send(base, path, { agent, headers: auth, ...options });
    t.equal(koaAnswers, before + 1, `${what}: Koa answers`);
    return answer;
  };
  const ready = async (what: string, path: string, headers: OutgoingHttpHeaders = auth) => {
    const before = koaAnswers;
    const answer = await send(base, path, { agent, headers });
    t.equal(koaAnswers, before, `${what}: answered without Koa`);
    return answer;
  };

  await byKoa('the first request on a connection (its key not proven there yet)', '/api/v1/orders/detailed-orders/1/');
  const first = await ready('the same request again on that connection', '/api/v1/orders/detailed-orders/1/');
  t.equal(first.status, 200);
  t.equal(first.body, '{"id":1,"text":"é"}');
  t.equal(first.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(first.headers['content-length'], String(Buffer.byteLength('{"id":1,"text":"é"}')), 'the length in bytes, not characters');
  t.match(first.headers['x-request-id'], /^[0-9a-f]{12}-\d+$/, 'a new request id');
  t.match(
    answered.at(-1),
    [first.headers['x-request-id'], 'GET', '/api/v1/orders/detailed-orders/:id/', '/api/v1/orders/detailed-orders/1/', 200, Number],
    'the access line and metrics are recorded',
  );
  const echoed = await ready('a sane X-Request-Id', '/api/v1/orders/detailed-orders/1/', { ...auth, 'x-request-id': 'caller-7' });
  t.equal(echoed.headers['x-request-id'], 'caller-7', 'is echoed');
  const replaced = await ready('an insane X-Request-Id', '/api/v1/orders/detailed-orders/1/', {
    ...auth,
    'x-request-id': 'no spaces allowed',
  });
  t.not(replaced.headers['x-request-id'], 'no spaces allowed', 'is replaced by a new one');

  await byKoa("another group's order", '/api/v1/orders/detailed-orders/2/');
  await byKoa('an order the read model does not vouch for', '/api/v1/orders/detailed-orders/3/');
  await byKoa('a query string (as_of)', '/api/v1/orders/detailed-orders/1/?as_of=2026-11-01T00:00:00Z');
  await byKoa('another spelling of the path', '/api/v1/orders/detailed-orders/1');
  await byKoa('HEAD', '/api/v1/orders/detailed-orders/1/', { method: 'HEAD' });
  await byKoa('two Authorization headers', '/api/v1/orders/detailed-orders/1/', {
    headers: { Authorization: [auth.authorization, auth.authorization] },
  });
  await byKoa('another key on the proven connection', '/api/v1/orders/detailed-orders/1/', {
    headers: { authorization: 'Api-Key key-two-000000001' },
  });
  await byKoa('the first key again (the connection now remembers the second)', '/api/v1/orders/detailed-orders/1/');
  await ready('and then it is proven again', '/api/v1/orders/detailed-orders/1/');
  stopping = true;
  await byKoa('while shutting down', '/api/v1/orders/detailed-orders/1/');
  stopping = false;
  available = false;
  await byKoa('while the read models are rebuilt', '/api/v1/orders/detailed-orders/1/');
  available = true;
  // The key issued again (a new object for the same hash): what was proven no longer holds.
  masterData = {
    keys: new Map([
      [key.key_hash, { ...key }],
      [otherKey.key_hash, otherKey],
    ]),
  } as unknown as MasterData;
  await byKoa('after master data changed the key', '/api/v1/orders/detailed-orders/1/');
  await ready('and once proven again', '/api/v1/orders/detailed-orders/1/');
});

t.test('on the service: answered before Koa or by it, retrieve answers the same, and logs the same line', async (t) => {
  const { lines, sink } = logLines();
  const service = await startTestService({ key: ACME_KEY, logger: createLogger('info', sink) });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(async () => {
    agent.destroy();
    await service.stop();
    removeDataDir(service.dataDir);
  });
  const own = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder() });
  const other = await service.request('POST', '/api/v1/orders/submit-order/', {
    key: OTHER_KEY,
    body: acmeOrder({
      supplier_name: 'Other Supplier',
      consignee_name: 'Other Consignee',
      container_codes: undefined,
      order_containers: [{ code: '40ft-HC' }],
    }),
  });
  t.equal(own.status, 201);
  t.equal(other.status, 201);
  const ownPath = `/api/v1/orders/detailed-orders/${own.body.order_id}/`;
  await eventually(async () => (await service.request('GET', ownPath)).status === 200);

  const auth = { authorization: `Api-Key ${ACME_KEY}` };
  const comparable = ({ status, headers, body }: Answer) => {
    const { date: _date, 'x-request-id': _id, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
    return { status, headers: rest, body };
  };
  // The warm connection has proven its key: a retrieve of a cached view on it is answered before Koa.
  await send(service.url, ownPath, { agent, headers: auth });
  const cases: [string, string, OutgoingHttpHeaders, string?][] = [
    ['own order', ownPath, auth],
    ['own order, with a request id', ownPath, { ...auth, 'x-request-id': 'trace-1' }],
    ["another group's order", `/api/v1/orders/detailed-orders/${other.body.order_id}/`, auth],
    ['no such order', '/api/v1/orders/detailed-orders/999999/', auth],
    ['no trailing slash', ownPath.slice(0, -1), auth],
    ['HEAD', ownPath, auth, 'HEAD'],
    ['two Authorization headers', ownPath, { Authorization: [auth.authorization, auth.authorization] }],
    ['a wrong key', ownPath, { authorization: 'Api-Key not-a-key-0000000000' }],
  ];
  for (const [what, path, headers, method] of cases) {
    const byKoa = await send(service.url, path, { agent: false, headers, method }); // a new connection: nothing proven on it
    const warm = await send(service.url, path, { agent, headers, method });
    t.same(comparable(warm), comparable(byKoa), `${what}: the same answer (${byKoa.status})`);
    if (headers['x-request-id']) t.equal(warm.headers['x-request-id'], headers['x-request-id'], `${what}: the request id is echoed`);
  }

  await nextTurn();
  const logged = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.msg === 'request' && record.method === 'GET' && record.path === ownPath && record.status === 200);
  const shapes = new Set(
    logged.map(({ time: _time, request_id: _id, ms: _ms, ...rest }) => JSON.stringify({ ...rest, keys: Object.keys(rest) })),
  );
  t.ok(logged.length >= 4, `retrieves of the own order were logged (${logged.length})`);
  t.same(
    [...shapes].length,
    1,
    `every access line of those retrieves has the same fields and values but for time, id and ms: ${[...shapes].join(' / ')}`,
  );
  const metrics = await service.request('GET', '/metrics');
  t.match(
    String(metrics.body),
    /orders_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/orders\/detailed-orders\/:id\/"[^}]*\} \d+/,
    'the retrieves are counted under their route',
  );
});
