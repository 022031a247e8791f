// The service's own events.db, changed while the service is stopped (issue 26): npm run verify-history
// names the first event that breaks the chain and how, and the service refuses to start on it with one
// line. An edit behind the start-up check's checkpoint is found by the scrubber's first pass instead,
// which takes the service out of readiness (docs/auditing.md, "What the service checks").
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import t from 'tap';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService, tempDataDir } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';
import { TAMPERINGS, tamper } from '../support/tamper-events.js';
import { startChild, stopChild } from '../storage/support/service-child.js';
import { metric } from '../storage/support/served.js';

const VERIFY_HISTORY = fileURLToPath(new URL('../../src/verify-history.js', import.meta.url));

const original = tempDataDir();
t.teardown(() => removeDataDir(original));
let target = 0;
t.before(async () => {
  const service = await startTestService({ dataDir: original, key: ACME_KEY });
  for (const reference of ['CHAIN-1', 'CHAIN-2', 'CHAIN-3']) {
    const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference }) });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  }
  await eventually(
    async () => ['planned', 'planning_failed'].includes((await service.request('GET', '/api/v1/orders/detailed-orders/3/')).body.status),
    60_000,
  );
  await service.stop();
  const db = new Database(join(original, 'events.db'), { readonly: true });
  // Order 2's submit: in the middle of the log, with events after it.
  target = (
    db.prepare("SELECT position FROM events WHERE type = 'OrderSubmitted' AND json_extract(data, '$.order_id') = 2").get() as {
      position: number;
    }
  ).position;
  db.close();
});

function verifyHistory(dataDir: string): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [VERIFY_HISTORY], { env: embeddedEnv({ ORDERS_DATA_DIR: dataDir }), encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout + run.stderr };
}

function copyOfOriginal(t: { teardown(fn: () => void): void }): string {
  const dir = tempDataDir();
  t.teardown(() => removeDataDir(dir));
  cpSync(original, dir, { recursive: true });
  return dir;
}

t.test('the log as written: verify-history prints the head digest and the count, exit 0', async (t) => {
  const run = verifyHistory(copyOfOriginal(t));
  t.equal(run.status, 0, run.stdout);
  t.match(run.stdout, /events\.db: the hash chain holds over \d+ events; head [0-9a-f]{64} at position \d+ /);
});

for (const how of TAMPERINGS) {
  t.test(`events.db ${how} at order 2's submit: verify-history names it, the service refuses to start with one line`, async (t) => {
    const dir = copyOfOriginal(t);
    tamper(dir, how, target);
    const run = verifyHistory(dir);
    t.equal(run.status, 1, run.stdout);
    t.match(run.stdout, new RegExp(`the hash chain breaks at position \\d+ \\(${how}\\)`));
    const started = await startChild(dir, { ORDERS_SCRUB_ORDERS_PER_SECOND: '0' });
    if ('child' in started) {
      await stopChild(started.child);
      t.fail('the service started on a broken chain');
      return;
    }
    t.not(started.exitCode, 0);
    const lines = started.stderr.trim().split('\n');
    t.equal(lines.length, 1, 'one line');
    t.match(
      lines[0],
      new RegExp(
        `^Not starting: .*events\\.db: the hash chain breaks at position \\d+ \\(${how}\\): .*restore .*events\\.db from a backup`,
      ),
    );
  });
}

t.test("an edit behind the verified checkpoint: the start goes on, the scrubber's first pass finds it and readiness fails", async (t) => {
  const dir = copyOfOriginal(t);
  // A start verifies the log and keeps its head as the checkpoint.
  const first = await startChild(dir, { ORDERS_SCRUB_ORDERS_PER_SECOND: '0' });
  if (!('child' in first)) throw new Error(first.stderr);
  await stopChild(first.child);
  tamper(dir, 'changed', target);
  const second = await startChild(dir, { ORDERS_SCRUB_ORDERS_PER_SECOND: '1000' });
  if (!('child' in second)) throw new Error(second.stderr);
  t.teardown(() => stopChild(second.child));
  let ready: { status: number; body: any } = { status: 0, body: undefined };
  await eventually(async () => {
    const response = await fetch(new URL('/readyz', second.url));
    ready = { status: response.status, body: await response.json() };
    return ready.body.findings?.log_chain !== undefined;
  });
  t.equal(ready.status, 503);
  t.match(ready.body.checks.log_chain, /the hash chain breaks at position \d+ \(changed\)/);
  await eventually(async () => /"level":50.*the hash chain breaks/.test(second.output()));
  t.pass('and logs it as an error');
  // Each pass verifies the log again (every second here): the same break is logged and counted once.
  const passes = await metric(second.url, 'orders_read_model_scrub_passes');
  await eventually(async () => (await metric(second.url, 'orders_read_model_scrub_passes')) >= passes + 3);
  t.equal(second.output().match(/"level":50.*the hash chain breaks/g)?.length, 1, 'one error line over later passes that found it again');
  t.equal(await metric(second.url, 'orders_log_chain_breaks_total'), 1, 'counted once in orders_log_chain_breaks_total');
});
