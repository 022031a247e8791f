// The viewer page over HTTP, without a browser: its headers, its assets, what it holds, the link
// in the e-mail, and what a valid link to an order without a plan shows.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { signShareToken } from '../../src/viewer/share-token.js';

const SECRET = 'a-share-secret-for-the-tests-000000000001';
const service = await startTestService({ key: ACME_KEY, config: { publicUrl: 'https://orders.example.com/ops', shareSecret: SECRET } });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const token = (serviceRef: string, expiresAt = Math.floor(Date.now() / 1000) + 600) =>
  signShareToken(Buffer.from(SECRET), serviceRef, expiresAt);
const get = (path: string, method = 'GET') => fetch(service.url + path, { method });

const created = await service.request('POST', '/api/v1/orders/submit-order/', {
  body: acmeOrder({
    reference: 'PO-</script><b>1',
    customer_notes: 'not on the page',
    loose_boxes: [{ name: 'Box "A" & <B>', length: 50, width: 40, height: 30, weight: 12, count: 2 }],
  }),
});
const serviceRef: string = created.body.service_ref;
// Planning shares the machine with the rest of the suite (chromium among it): a minute, not 20 s.
await eventually(
  async () => (await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`)).body.status === 'planned',
  60_000,
);

t.test('viewer_url is built on ORDERS_PUBLIC_URL', async (t) => {
  const plan = await service.request('GET', `/api/v1/orders/load-plan/?order=${serviceRef}`);
  t.match(plan.body.viewer_url, new RegExp(`^https://orders\\.example\\.com/ops/plans/${serviceRef}\\?token=`));
});

t.test('the page: strict headers, the plan as a data block that cannot break out, the bundle beside it', async (t) => {
  const response = await get(`/plans/${serviceRef}?token=${token(serviceRef)}`);
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /^text\/html/);
  const csp = response.headers.get('content-security-policy') ?? '';
  t.match(csp, "default-src 'none'");
  t.match(csp, "script-src 'self'");
  t.notMatch(csp, 'unsafe');
  t.equal(response.headers.get('referrer-policy'), 'no-referrer');
  t.equal(response.headers.get('cache-control'), 'no-store');
  const html = await response.text();
  t.equal(html.match(/<\/script>/g)?.length, 2, 'only the data block and the module script end a script element');
  t.notMatch(html, /https?:\/\//, 'no absolute address: nothing from another host');
  const data = JSON.parse(/<script type="application\/json" id="viewer-data">(.*?)<\/script>/s.exec(html)![1]!);
  t.equal(data.load_plan.reference, 'PO-</script><b>1');
  t.ok(data.load_plan.containers[0].placements.some((p: { ref: string }) => p.ref === 'Box "A" & <B> #1'));
  t.match(html, 'PO-&#60;/script&#62;&#60;b&#62;1', 'the reference is escaped in the title');
  t.notMatch(html, 'not on the page');

  for (const [name, type] of [
    ['viewer.js', /javascript/],
    ['viewer.css', /css/],
  ] as const) {
    const asset = await get(`/viewer-assets/${name}`);
    t.equal(asset.status, 200, name);
    t.match(asset.headers.get('content-type'), type);
    t.ok((await asset.arrayBuffer()).byteLength > 1000);
  }
  t.equal((await get('/viewer-assets/../service.js')).status, 404);
  t.equal((await get('/viewer-assets/secret.txt')).status, 404);
  t.equal((await get('/viewer-assets/constructor')).status, 404);
});

t.test('HEAD on the page answers like GET without a body', async (t) => {
  t.equal((await get(`/plans/${serviceRef}?token=${token(serviceRef)}`, 'HEAD')).status, 200);
  t.equal((await get(`/plans/${serviceRef}?token=x`, 'HEAD')).status, 403);
});

t.test('a link to an order that does not exist is refused like a bad one', async (t) => {
  for (const ref of ['SO-999999', 'SO-1', 'nothing']) {
    const response = await get(`/plans/${ref}?token=${token(ref)}`);
    t.equal(response.status, 403, ref);
    t.match(await response.text(), /not valid or has expired/);
  }
});

t.test('the e-mail carries the viewer link', async (t) => {
  const outbox = join(service.dataDir, 'outbox');
  // The .eml only: the outbox writes a .tmp first and renames it once whole.
  const isEmail = (file: string) => file.startsWith(serviceRef) && file.endsWith('.eml');
  await eventually(async () => {
    try {
      return readdirSync(outbox).some(isEmail);
    } catch {
      return false;
    }
  });
  const eml = readFileSync(join(outbox, readdirSync(outbox).find(isEmail)!), 'utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  t.match(eml, new RegExp(`https://orders\\.example\\.com/ops/plans/${serviceRef}\\?token=\\d+\\.[\\w-]+`));
  t.notMatch(eml, ACME_KEY);
});
