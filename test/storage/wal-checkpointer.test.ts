// The WAL checkpointer: a file it takes over is checkpointed by its worker thread, not by the commits;
// letting go closes the worker's connection before it resolves (the file may be deleted next); and
// what is not a file in WAL mode, or comes after close(), is left to SQLite.
import t from 'tap';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAIN_THREAD_CHECKPOINT_PAGES, walCheckpointer } from '../../src/storage/wal-checkpointer.js';

function scratch(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function walDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return db;
}

/** About `bytes` of rows, in transactions of 64 KiB, as the service's commits come. */
function write(db: Database.Database, bytes: number): void {
  const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
  const body = 'x'.repeat(1000);
  const batch = db.transaction((n: number) => {
    for (let i = 0; i < n; i++) insert.run(body);
  });
  for (let written = 0; written < bytes; written += 64 * 1000) batch(64);
}

const quiet = () => {};

t.test('a file taken over is checkpointed by the worker while its own commits no longer checkpoint', async (t) => {
  const file = join(scratch(t), 'busy.db');
  const checkpointer = walCheckpointer({ niceness: 0, log: quiet });
  t.teardown(() => checkpointer.close());
  const db = walDatabase(file);
  const letGo = checkpointer.takeOver(db);
  t.equal(db.pragma('wal_autocheckpoint', { simple: true }), MAIN_THREAD_CHECKPOINT_PAGES, "the commits' own bound is raised");
  const before = statSync(file).size;
  // 4 MB: 1,000 pages, the bound at which SQLite itself would checkpoint in a commit, and far below the raised one.
  write(db, 4_000_000);
  const deadline = Date.now() + 10_000;
  while (statSync(file).size < 4_000_000 && Date.now() < deadline) await sleep(20);
  t.ok(statSync(file).size >= 4_000_000, `the rows reached the database file (${before} -> ${statSync(file).size} bytes)`);
  await letGo();
  db.close();
});

t.test('letting go closes the worker connection before it resolves, and a file that replaces it is left whole', async (t) => {
  const file = join(scratch(t), 'replaced.db');
  const checkpointer = walCheckpointer({ niceness: 0, log: quiet });
  t.teardown(() => checkpointer.close());
  const db = walDatabase(file);
  const letGo = checkpointer.takeOver(db);
  write(db, 200_000);
  await letGo();
  db.close();
  // The last connection to close deletes the -wal file: the file's own was the last, the worker's was closed.
  t.notOk(existsSync(`${file}-wal`), "the file's own connection closed last");

  // What a read model's reset does: the files go, a new one takes the name. Had the worker's connection
  // to the old file closed only now, as the last one to it, it would delete the new file's -wal file.
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const replacement = walDatabase(file);
  replacement.pragma('wal_autocheckpoint = 0');
  write(replacement, 200_000);
  await sleep(200);
  t.ok(existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 200_000, "the new file's -wal file is there");
  t.equal((replacement.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n, 64 * 4, 'with its rows');
  replacement.close();
});

t.test('after close(), and for a database in memory, SQLite checkpoints as it always did', async (t) => {
  const dir = scratch(t);
  const checkpointer = walCheckpointer({ niceness: 0, log: quiet });
  const memory = new Database(':memory:');
  await checkpointer.takeOver(memory)();
  t.equal(memory.pragma('wal_autocheckpoint', { simple: true }), 1000, 'in memory: left as it is');
  memory.close();

  const file = join(dir, 'open.db');
  const db = walDatabase(file);
  checkpointer.takeOver(db);
  write(db, 200_000);
  await checkpointer.close();
  const later = walDatabase(join(dir, 'later.db'));
  await checkpointer.takeOver(later)();
  t.equal(later.pragma('wal_autocheckpoint', { simple: true }), 1000, 'taken over after close(): left as it is');
  db.close();
  t.notOk(existsSync(`${file}-wal`), "close() closed the worker's connections: the file's own closed last");
  later.close();
});
