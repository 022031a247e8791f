// LeaseStore in a table of a SQLite database the caller opened: `(key, holder, lease_until)`. Acquiring a
// lease is one statement (an upsert whose update applies only to an expired lease or the holder's own),
// so acquiring it and seeing it held cannot be split by another process on the same file.
import type Database from 'better-sqlite3';
import type { LeaseStore } from './lease-store.js';

export interface SqliteLeaseTable {
  /** The table's name; created when missing. */
  table: string;
  /** The name of its key column ('key' unless a store already named it otherwise). */
  keyColumn?: string;
  /**
   * Awaited after a write that took or let go of a lease: a store whose writes must survive power loss
   * makes them durable here (storage/wal-sync.ts). Without it, a lease lost in a power cut is one that
   * its holder, which died with the machine, no longer needs.
   */
  durable?: () => Promise<void>;
}

export function sqliteLeases(db: Database.Database, { table, keyColumn = 'key', durable }: SqliteLeaseTable): LeaseStore {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (${keyColumn} TEXT PRIMARY KEY, holder TEXT NOT NULL, lease_until INTEGER NOT NULL)`);
  db.exec(`CREATE INDEX IF NOT EXISTS ${table}_holder ON ${table} (holder)`);
  const acquire = db.prepare<[string, string, number, number], unknown>(`
    INSERT INTO ${table} (${keyColumn}, holder, lease_until) VALUES (?, ?, ?)
    ON CONFLICT (${keyColumn}) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
     WHERE ${table}.lease_until <= ? OR ${table}.holder = excluded.holder
    RETURNING 1`);
  const release = db.prepare<[string, string]>(`DELETE FROM ${table} WHERE ${keyColumn} = ? AND holder = ?`);
  const releaseAll = db.prepare<[string]>(`DELETE FROM ${table} WHERE holder = ?`);
  const holderOf = db.prepare<[string, number], string>(`SELECT holder FROM ${table} WHERE ${keyColumn} = ? AND lease_until > ?`).pluck();
  const written = async (changed: boolean): Promise<void> => {
    if (changed && durable) await durable();
  };
  return {
    async acquire(key, holder, now, leaseUntil) {
      const acquired = acquire.get(key, holder, leaseUntil, now) !== undefined;
      await written(acquired);
      return acquired;
    },
    async release(key, holder) {
      await written(release.run(key, holder).changes > 0);
    },
    async releaseAll(holder) {
      await written(releaseAll.run(holder).changes > 0);
    },
    async holderOf(key, now) {
      return holderOf.get(key, now);
    },
  };
}
