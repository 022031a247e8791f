// The work lease store in `<dataDir>/checkpoints.db`, beside the checkpoints, for replicas on one data
// directory: the `work_claims` table of sqlite-leases.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkLeaseStore } from './work-lease-store.js';
import { openInWalMode } from '../storage/open-in-wal-mode.js';
import type { WalCheckpointer } from '../storage/wal-checkpointer.js';
import { sqliteLeases } from './sqlite-leases.js';

export function openSqliteWorkLeaseStore(dataDir: string, walCheckpointer?: WalCheckpointer): WorkLeaseStore {
  mkdirSync(dataDir, { recursive: true });
  const db = openInWalMode(join(dataDir, 'checkpoints.db'));
  db.pragma('busy_timeout = 5000');
  // A lease lost in a power cut costs at most one plan made twice, whose second result the order's
  // decider records as nothing: no fsync per lease.
  db.pragma('synchronous = NORMAL');
  const letGoOfCheckpoints = walCheckpointer?.takeOver(db);
  return {
    ...sqliteLeases(db, { table: 'work_claims' }),
    async close() {
      await letGoOfCheckpoints?.();
      db.close();
    },
  };
}
