import t from 'tap';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService, tempDataDir } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';

const replayScript = fileURLToPath(new URL('../../src/replay.js', import.meta.url));
const run = (dataDir: string) =>
  promisify(execFile)(process.execPath, [replayScript], { env: embeddedEnv({ ORDERS_DATA_DIR: dataDir }) }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

const dataDir = tempDataDir();
t.teardown(() => removeDataDir(dataDir));
const service = await startTestService({ dataDir, key: ACME_KEY });
const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'REPLAY-1' }) });
await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'REPLAY-2', order_items: undefined, loose_boxes: [{ name: 'B', length: 50, width: 40, height: 30, weight: 8, count: 4 }] }) });
await eventually(async () => (await service.request('GET', '/api/v1/orders/pallet-contents/?order=REPLAY-1')).status === 200);
await service.request('GET', '/api/v1/orders/download-packing-instructions/?order=REPLAY-1');
await service.stop();

t.test('npm run replay on an untouched data directory finds the read models equal to the log', async (t) => {
  const { code, stdout } = await run(dataDir);
  t.equal(code, 0, stdout);
  t.match(stdout, /compared 2 orders .*read models match the log/);
});

t.test('a read model that drifted from the log is reported, with the order, and exits 1', async (t) => {
  const db = new Database(`${dataDir}/read-models.db`);
  db.prepare("UPDATE orders SET view = json_set(view, '$.reference', 'TAMPERED') WHERE id = ?").run(created.body.order_id);
  db.close();
  const { code, stdout } = await run(dataDir);
  t.equal(code, 1);
  t.match(stdout, new RegExp(`order ${created.body.order_id}: live .*TAMPERED.* != rebuilt`));
  t.match(stdout, /1 difference\(s\)/);
});
