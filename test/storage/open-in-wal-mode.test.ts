// Given another process holding a new SQLite file's exclusive lock for longer than the busy timeout (as a
// replica creating the file, or switching it to WAL, does for a moment, and longer on a loaded machine),
// when this process opens the file, then a single try is answered SQLITE_BUSY, and openInWalMode, which
// tries the whole opening again, returns the file in WAL mode with its setting up done once it is free.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { openInWalMode } from '../../src/storage/open-in-wal-mode.js';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');
const HOLD_MS = 600;

/** A process that makes `file` in rollback mode and holds its exclusive lock for HOLD_MS; resolves once it holds it. */
async function holdExclusiveLock(file: string) {
  const script = `const Database = require(${JSON.stringify(BETTER_SQLITE3)});
    const db = new Database(${JSON.stringify(file)});
    db.exec('CREATE TABLE IF NOT EXISTS held (x INTEGER)');
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('held\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${HOLD_MS});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout.setEncoding('utf8'), 'data')) as [string];
  if (line.trim() !== 'held') throw new Error(`the lock holder said ${line}`);
  return { exited: once(child, 'exit') };
}

t.test('a file locked past the busy timeout: one try is SQLITE_BUSY, openInWalMode opens it once it is free', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wal-open-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));

  const firstHolder = await holdExclusiveLock(join(dir, 'single.db'));
  const single = new Database(join(dir, 'single.db'), { timeout: 50 });
  t.throws(() => single.pragma('journal_mode = WAL'), { code: 'SQLITE_BUSY' }, 'a single try with a 50 ms busy timeout fails');
  single.close();
  await firstHolder.exited;

  const holder = await holdExclusiveLock(join(dir, 'retried.db'));
  const started = performance.now();
  let setUps = 0;
  const db = openInWalMode(join(dir, 'retried.db'), {
    busyTimeoutMs: 50,
    setUp(db) {
      db.exec('CREATE TABLE IF NOT EXISTS mine (y INTEGER)');
      setUps++;
    },
  });
  const waited = performance.now() - started;
  t.teardown(() => db.close());
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal', 'in WAL mode');
  t.equal(setUps, 1, 'its setting up done, once');
  t.ok(waited >= HOLD_MS / 2, `it waited for the lock to go (${waited.toFixed(0)} ms; the lock was held ${HOLD_MS} ms)`);
  await holder.exited;
});
