import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointStore } from './checkpoint-store.js';

export function openSqliteCheckpointStore(dataDir: string): CheckpointStore {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'checkpoints.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS checkpoints (consumer TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  const read = db.prepare<[string], { position: bigint }>('SELECT position FROM checkpoints WHERE consumer = ?').safeIntegers(true);
  const write = db.prepare('INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position');
  return {
    async load(consumer) {
      return read.get(consumer)?.position;
    },
    async save(consumer, position) {
      write.run(consumer, position);
    },
    async close() {
      db.close();
    },
  };
}
