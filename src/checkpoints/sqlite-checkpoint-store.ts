import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointStore } from './checkpoint-store.js';
import { damageIn, quickCheck } from '../storage/damaged-storage.js';
import { openInWalMode } from '../storage/open-in-wal-mode.js';
import type { WalCheckpointer } from '../storage/wal-checkpointer.js';

export function openSqliteCheckpointStore(dataDir: string, check = true, walCheckpointer?: WalCheckpointer): CheckpointStore {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'checkpoints.db');
  let db: Database.Database | undefined;
  try {
    db = openInWalMode(file);
    db.pragma('busy_timeout = 5000');
    // NORMAL, not FULL: a checkpoint is written after every batch a consumer handles, and an fsync
    // each time cost the main thread a quarter of its time under 700 submits/s (docs/benchmarks.md).
    // WAL with NORMAL stays consistent after a crash and loses, on power loss only, the last saves:
    // the checkpoint then moves back, never ahead of the log (events.db is FULL), and the consumers
    // here are idempotent per event, so they redo that stretch.
    db.pragma('synchronous = NORMAL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS checkpoints (consumer TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS log_identity (only INTEGER PRIMARY KEY CHECK (only = 1), log_id TEXT NOT NULL);
    `);
    if (check) quickCheck(db, file);
  } catch (error) {
    db?.close();
    throw damageIn(file, error);
  }
  return sqliteCheckpoints(db, walCheckpointer?.takeOver(db));
}

function sqliteCheckpoints(db: Database.Database, letGoOfCheckpoints?: () => Promise<void>): CheckpointStore {
  const read = db.prepare<[string], { position: bigint }>('SELECT position FROM checkpoints WHERE consumer = ?').safeIntegers(true);
  const write = db.prepare(
    'INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position',
  );
  const readAll = db.prepare<[], { consumer: string; position: bigint }>('SELECT consumer, position FROM checkpoints').safeIntegers(true);
  const readLogId = db.prepare<[], string>('SELECT log_id FROM log_identity').pluck();
  const writeLogId = db.prepare(
    'INSERT INTO log_identity (only, log_id) VALUES (1, ?) ON CONFLICT (only) DO UPDATE SET log_id = excluded.log_id',
  );
  return {
    async all() {
      return new Map(readAll.all().map((row) => [row.consumer, row.position]));
    },
    async logIdentity() {
      return readLogId.get();
    },
    async bindToLog(logId) {
      writeLogId.run(logId);
    },
    async load(consumer) {
      return read.get(consumer)?.position;
    },
    async save(consumer, position) {
      write.run(consumer, position);
    },
    async close() {
      await letGoOfCheckpoints?.();
      db.close();
    },
  };
}
