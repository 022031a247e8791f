// ClaimStore in `<dataDir>/checkpoints.db`, beside the checkpoints, for replicas on one data directory.
// A claim is one statement (an upsert whose update applies only to an expired lease or the holder's
// own), so taking a claim and seeing it taken cannot be split by another process.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ClaimStore } from './claim-store.js';
import { openInWalMode } from '../storage/open-in-wal-mode.js';

export function openSqliteClaimStore(dataDir: string): ClaimStore {
  mkdirSync(dataDir, { recursive: true });
  const db = openInWalMode(join(dataDir, 'checkpoints.db'));
  db.pragma('busy_timeout = 5000');
  // A claim lost in a power cut costs at most one plan made twice, whose second result the order's
  // decider records as nothing: no fsync per claim.
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS work_claims (key TEXT PRIMARY KEY, holder TEXT NOT NULL, lease_until INTEGER NOT NULL)');
  const take = db.prepare<[string, string, number, number], { key: string }>(`
    INSERT INTO work_claims (key, holder, lease_until) VALUES (?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
     WHERE work_claims.lease_until <= ? OR work_claims.holder = excluded.holder
    RETURNING key`);
  const release = db.prepare<[string, string]>('DELETE FROM work_claims WHERE key = ? AND holder = ?');
  const releaseAll = db.prepare<[string]>('DELETE FROM work_claims WHERE holder = ?');
  return {
    async claim(key, holder, now, leaseUntil) {
      return take.get(key, holder, leaseUntil, now) !== undefined;
    },
    async release(key, holder) {
      release.run(key, holder);
    },
    async releaseAll(holder) {
      releaseAll.run(holder);
    },
    async close() {
      db.close();
    },
  };
}
