// Damaged or mismatched files in the data directory, each tried on the real service process: a read
// model that is damaged or ahead of its log is rebuilt from the log; a log that is missing or damaged
// while derived data exists stops start-up with a one-line reason; damage found while running is
// answered from the log and triggers a rebuild instead of crashing; `npm run replay` says which file is damaged.
import t from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, openSync, readSync, rmSync, statSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { eventually, removeDataDir, startTestService, tempDataDir } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';
import { startChild, stopChild } from './support/service-child.js';

const replay = fileURLToPath(new URL('../../src/replay.js', import.meta.url));

// One data directory with two orders, copied for each case.
const original = tempDataDir();
t.teardown(() => removeDataDir(original));
t.before(async () => {
  const service = await startTestService({ dataDir: original, key: ACME_KEY });
  for (const reference of ['DMG-1', 'DMG-2']) {
    const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference }) });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  }
  await service.stop();
});

function copyOfData(t: { teardown(fn: () => void): void }): string {
  const dir = tempDataDir();
  cpSync(original, dir, { recursive: true });
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(testSeed()));
  t.teardown(() => removeDataDir(dir));
  return dir;
}

/** Random bytes over every page but the first (the header and schema stay readable, as after a torn disk). */
function damagePages(file: string): void {
  const size = statSync(file).size;
  const fd = openSync(file, 'r+');
  try {
    const header = Buffer.alloc(2);
    readSync(fd, header, 0, 2, 16);
    const pageSize = header.readUInt16BE(0) === 1 ? 65536 : header.readUInt16BE(0);
    if (size <= pageSize) throw new Error(`${file} has a single page: nothing to damage`);
    writeSync(fd, randomBytes(size - pageSize), 0, size - pageSize, pageSize);
  } finally {
    closeSync(fd);
  }
}

const get = (url: URL, path: string) => fetch(url.origin + path, { headers: { authorization: `Api-Key ${ACME_KEY}` } });

t.test('read-models.db with random bytes: rebuilt from the log at start, the orders are served again', async (t) => {
  const dir = copyOfData(t);
  damagePages(join(dir, 'read-models.db'));
  const started = await startChild(dir);
  if (!('child' in started)) return t.fail(`did not start: ${started.stderr}`);
  await eventually(async () => (await get(started.url, '/api/v1/orders/detailed-orders/2/')).status === 200);
  t.equal(((await (await get(started.url, '/api/v1/orders/detailed-orders/2/')).json()) as { reference: string }).reference, 'DMG-2');
  t.equal(await stopChild(started.child), 0, 'and the process runs on until told to stop');
  t.match(
    started.output(),
    /"level":50[^\n]*read-models\.db is damaged[^"]*: replacing it, to be rebuilt from the log/,
    'the damage is logged as an error',
  );
});

t.test('read-models.db replaced by random bytes, header and all: rebuilt from the log at start', async (t) => {
  const dir = copyOfData(t);
  const file = join(dir, 'read-models.db');
  writeFileSync(file, randomBytes(statSync(file).size));
  const started = await startChild(dir);
  if (!('child' in started)) return t.fail(`did not start: ${started.stderr}`);
  await eventually(async () => (await get(started.url, '/api/v1/orders/detailed-orders/1/')).status === 200);
  t.equal(await stopChild(started.child), 0);
  t.match(started.output(), /read-models\.db is damaged \(file is not a database\)/, 'logged with the reason');
});

t.test('read-model checkpoint past the log: rebuilt, and a new order is found at once', async (t) => {
  const dir = copyOfData(t);
  const db = new Database(join(dir, 'read-models.db'));
  db.prepare('UPDATE checkpoints SET position = position + 1000000').run();
  db.close();
  const started = await startChild(dir);
  if (!('child' in started)) return t.fail(`did not start: ${started.stderr}`);
  const created = await fetch(`${started.url.origin}/api/v1/orders/submit-order/`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(acmeOrder({ reference: 'DMG-3' })),
  });
  t.equal(created.status, 201);
  const { order_id } = (await created.json()) as { order_id: number };
  t.equal(order_id, 3, 'the next id');
  t.equal((await get(started.url, `/api/v1/orders/detailed-orders/${order_id}/`)).status, 200, 'the new order is found, not a 404');
  t.equal((await get(started.url, '/api/v1/orders/detailed-orders/1/')).status, 200, 'and the old ones too');
  t.equal(await stopChild(started.child), 0);
  t.match(started.output(), /past the end of .*events\.db.*rebuilding it from the log/);
});

t.test('notifications.db of another log: start-up stops with a one-line reason rather than skip or repeat announcements', async (t) => {
  const dir = copyOfData(t);
  const db = new Database(join(dir, 'notifications.db'));
  db.prepare('INSERT INTO log_identity (only, log_id) VALUES (1, ?) ON CONFLICT (only) DO UPDATE SET log_id = excluded.log_id').run(
    'evt-of-another-log',
  );
  db.close();
  const started = await startChild(dir);
  if ('child' in started) {
    await stopChild(started.child);
    return t.fail('started with notifications of another log');
  }
  t.equal(started.exitCode, 1);
  t.equal(started.stderr.trim().split('\n').length, 1, `one line: ${started.stderr}`);
  t.match(started.stderr, /^Not starting: .*notifications\.db belongs to another event log than .*events\.db/);
});

t.test('events.db deleted while derived data exists: start-up stops with a one-line reason, ids are not reused', async (t) => {
  const dir = copyOfData(t);
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `events.db${suffix}`), { force: true });
  const started = await startChild(dir);
  if ('child' in started) {
    await stopChild(started.child);
    return t.fail('started on a missing log');
  }
  t.equal(started.exitCode, 1);
  t.equal(started.stderr.trim().split('\n').length, 1, `one line: ${started.stderr}`);
  t.match(started.stderr, /^Not starting: .*events\.db is missing or empty, but .*read-models\.db was derived from events: restore/);
});

t.test('events.db damaged: start-up stops with a one-line reason', async (t) => {
  const dir = copyOfData(t);
  damagePages(join(dir, 'events.db'));
  const started = await startChild(dir);
  if ('child' in started) {
    await stopChild(started.child);
    return t.fail('started on a damaged log');
  }
  t.equal(started.exitCode, 1);
  t.equal(started.stderr.trim().split('\n').length, 1, `one line: ${started.stderr}`);
  t.match(started.stderr, /^Not starting: .*events\.db is damaged \(/);
});

t.test('an older events.db than the read model (lost orders): start-up stops rather than hand out their ids again', async (t) => {
  const dir = copyOfData(t);
  const db = new Database(join(dir, 'events.db'));
  // The log as it was before order 2: its events removed, as a restore of an older backup would.
  db.prepare("DELETE FROM events WHERE (stream = 'order-ids' AND revision = 1) OR stream LIKE '%DMG-2%'").run();
  db.close();
  const started = await startChild(dir);
  if ('child' in started) {
    await stopChild(started.child);
    return t.fail('started on a log that lost an order');
  }
  t.equal(started.exitCode, 1);
  t.match(started.stderr, /^Not starting: .*read-models\.db holds order 2 but the last order id in .*events\.db is 1/);
});

t.test(
  'damage found while running: the read that meets it is answered from the log, the read model rebuilt, no 5xx, no crash',
  async (t) => {
    const dir = copyOfData(t);
    const started = await startChild(dir);
    if (!('child' in started)) return t.fail(`did not start: ${started.stderr}`);
    const sound = await get(started.url, '/api/v1/orders/detailed-orders/1/');
    t.equal(sound.status, 200);
    const served = await sound.text();
    const listed = await (await get(started.url, '/api/v1/orders/detailed-orders/')).text();

    // Everything into the main file, then damage it, then write through another connection so that the
    // service's connection drops its page cache and reads the damaged pages.
    const file = join(dir, 'read-models.db');
    const other = new Database(file);
    other.pragma('wal_checkpoint(TRUNCATE)');
    damagePages(file);
    other.exec('CREATE TABLE touch (x)');
    other.close();

    const answered = await get(started.url, '/api/v1/orders/detailed-orders/1/');
    t.equal(answered.status, 200, 'the read that meets the damage is answered');
    t.equal(await answered.text(), served, 'from the log, exactly as before');
    const list = await get(started.url, '/api/v1/orders/detailed-orders/');
    t.equal(list.status, 200, 'the list waits for the rebuilt read model');
    t.equal((await list.text()).replaceAll(started.url.host, 'HOST'), listed.replaceAll(started.url.host, 'HOST'), 'and answers as before');
    t.equal(await stopChild(started.child), 0, 'the process did not crash');
    t.match(
      started.output(),
      /"level":50[^\n]*read-models\.db is damaged[^\n]*rebuilding the read model from the log/,
      'an error is logged',
    );
  },
);

t.test('npm run replay on a damaged file says which one, without a stack trace', async (t) => {
  const dir = copyOfData(t);
  damagePages(join(dir, 'events.db'));
  const child = spawn(process.execPath, [replay], { env: embeddedEnv({ ORDERS_DATA_DIR: dir }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  t.equal(code, 2, stderr);
  t.match(stderr, /^replay stopped: .*events\.db is damaged \(.*\)\. .*restored from a backup/);
  t.notMatch(stderr, /\n\s+at /, 'no stack trace');
});
