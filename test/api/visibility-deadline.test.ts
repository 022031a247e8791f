// A submit waits for the read model to show the new order (read-your-writes), but not for ever: with
// the read model stalled (its file locked by another process), it answers 503 naming the stored order.
import t from 'tap';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { eventually, removeDataDir, tempDataDir } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';

const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));

t.test('submit answers 503 with the stored ids when the read model does not show the order within ORDERS_VISIBLE_WITHIN_MS', async (t) => {
  const dataDir = tempDataDir();
  t.teardown(() => removeDataDir(dataDir));
  writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(testSeed()));
  const child = spawn(process.execPath, [main], {
    env: embeddedEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      LOG_LEVEL: 'silent',
      ORDERS_VISIBLE_WITHIN_MS: '500',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => child.kill('SIGKILL'));
  const url = await new Promise<string>((resolve) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
  });
  const submit = (reference: string) =>
    fetch(`${url}/api/v1/orders/submit-order/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(acmeOrder({ reference })),
    });

  t.equal((await submit('VIS-1')).status, 201, 'a submit with the read model working');

  // Another process holds the read model's write lock: the projector cannot apply anything.
  const lock = new Database(join(dataDir, 'read-models.db'));
  lock.exec('BEGIN IMMEDIATE');
  const stalled = await submit('VIS-2');
  t.equal(stalled.status, 503, 'not a request held for as long as the lock');
  t.ok(stalled.headers.get('retry-after'), 'with Retry-After');
  t.match(
    await stalled.json(),
    { order_id: 2, service_ref: 'SO-000002', detail: /order SO-000002 is stored but not yet visible after 500 ms/ },
    'naming the order it stored',
  );
  lock.exec('COMMIT');
  lock.close();

  await eventually(
    async () =>
      (await fetch(`${url}/api/v1/orders/detailed-orders/2/`, { headers: { authorization: `Api-Key ${ACME_KEY}` } })).status === 200,
  );
  t.pass('the order shows once the read model moves again');
  child.kill('SIGTERM');
  t.equal(await exited, 0);
});
