import t from 'tap';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService, tempDataDir } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';
import { checksumOf } from '../../src/orders/read-model/document-checksum.js';

const replayScript = fileURLToPath(new URL('../../src/replay.js', import.meta.url));
const run = (dataDir: string, ...args: string[]) =>
  promisify(execFile)(process.execPath, [replayScript, ...args], { env: embeddedEnv({ ORDERS_DATA_DIR: dataDir }) }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

const dataDir = tempDataDir();
t.teardown(() => removeDataDir(dataDir));
const service = await startTestService({ dataDir, key: ACME_KEY });
const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'REPLAY-1' }) });
await service.request('POST', '/api/v1/orders/submit-order/', {
  body: acmeOrder({
    reference: 'REPLAY-2',
    order_items: undefined,
    loose_boxes: [{ name: 'B', length: 50, width: 40, height: 30, weight: 8, count: 4 }],
  }),
});
await eventually(async () => (await service.request('GET', '/api/v1/orders/pallet-contents/?order=REPLAY-1')).status === 200);
await service.request('GET', '/api/v1/orders/download-packing-instructions/?order=REPLAY-1');
await service.stop();

t.test('npm run replay on an untouched data directory finds the read models equal to the log', async (t) => {
  const { code, stdout } = await run(dataDir);
  t.equal(code, 0, stdout);
  t.match(stdout, /compared 2 orders .*read models match the log/);
});

t.test('a row changed behind its checksum is reported as damaged, with the order, and exits 1', async (t) => {
  const db = new Database(`${dataDir}/read-models.db`);
  db.prepare("UPDATE orders SET view = json_set(view, '$.reference', 'TAMPERED') WHERE id = ?").run(created.body.order_id);
  db.close();
  const { code, stdout } = await run(dataDir);
  t.equal(code, 1);
  t.match(
    stdout,
    new RegExp(
      `order ${created.body.order_id}: live damaged \\(order ${created.body.order_id}: its order document in the read model does not match its checksum\\) != rebuilt`,
    ),
  );
  t.match(stdout, /1 difference\(s\)/);
});

t.test('a row edited with its checksum recomputed is reported as a difference, and exits 1', async (t) => {
  const db = new Database(`${dataDir}/read-models.db`);
  const row = db
    .prepare<[number], { company_group: string; stream: string; view: string }>(
      'SELECT company_group, stream, view FROM orders WHERE id = ?',
    )
    .get(created.body.order_id)!;
  const view = JSON.stringify({ ...JSON.parse(row.view), reference: 'TAMPERED' });
  db.prepare('UPDATE orders SET view = ?, checksum = ? WHERE id = ?').run(
    view,
    checksumOf(row.company_group, row.stream, view),
    created.body.order_id,
  );
  db.close();
  const { code, stdout } = await run(dataDir);
  t.equal(code, 1);
  t.match(stdout, new RegExp(`order ${created.body.order_id}: live .*TAMPERED.* != rebuilt`));
  t.match(stdout, /1 difference\(s\)/);
});

t.test('--repair folds the differing order again from the log into the live read model, and exits 0', async (t) => {
  const db = new Database(`${dataDir}/read-models.db`);
  db.prepare("UPDATE pallet_contents SET document = replace(document, 'AP1', 'AP9') WHERE id = ?").run(created.body.order_id);
  db.close();
  const repaired = await run(dataDir, '--repair');
  t.equal(repaired.code, 0, repaired.stdout);
  t.match(repaired.stdout, /2 difference\(s\)/, 'the order and its pallet contents');
  t.match(repaired.stdout, /repaired 1 order\(s\) from the log: read models match the log/);
  const again = await run(dataDir);
  t.equal(again.code, 0, again.stdout);
  const after = new Database(`${dataDir}/read-models.db`, { readonly: true });
  const reference = after
    .prepare<[number], string>("SELECT json_extract(view, '$.reference') FROM orders WHERE id = ?")
    .pluck()
    .get(created.body.order_id);
  after.close();
  t.equal(reference, 'REPLAY-1');
});
