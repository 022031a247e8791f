// LeaseStore in a table of the PostgreSQL log's schema: `(key, holder, lease_until)`, as in
// sqlite-leases.ts. Acquiring a lease is one statement, an upsert whose update applies only to an expired
// lease or the holder's own. On a conflict PostgreSQL locks the row and checks the condition against its
// newest committed version, so of replicas racing for a free or expired key exactly one gets it, and
// in one round trip: the MongoDB adapter needs two or three calls and takeover markers, because
// FerretDB's single-document updates are not atomic. A released lease is deleted (no generations to keep).
import type { LogConnection } from '../eventstore/postgres/postgres-connection.js';
import type { LeaseStore } from './lease-store.js';

/** The table's DDL, for createInLogSchema (one lock for every replica's start-up). */
export function postgresLeaseTable(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, holder text NOT NULL, lease_until bigint NOT NULL);
CREATE INDEX IF NOT EXISTS ${table}_holder ON ${table} (holder);`;
}

export function postgresLeases(connection: LogConnection, table: string): LeaseStore {
  const acquire = `INSERT INTO ${table} AS lease (key, holder, lease_until) VALUES ($1, $2, $3)
    ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
     WHERE lease.lease_until <= $4 OR lease.holder = excluded.holder
    RETURNING 1 AS acquired`;
  return {
    async acquire(key, holder, now, leaseUntil) {
      return (await connection.query(acquire, [key, holder, leaseUntil, now])).length === 1;
    },
    async release(key, holder) {
      await connection.query(`DELETE FROM ${table} WHERE key = $1 AND holder = $2`, [key, holder]);
    },
    async releaseAll(holder) {
      await connection.query(`DELETE FROM ${table} WHERE holder = $1`, [holder]);
    },
    async holderOf(key, now) {
      const [row] = await connection.query<{ holder: string }>(`SELECT holder FROM ${table} WHERE key = $1 AND lease_until > $2`, [
        key,
        now,
      ]);
      return row?.holder;
    },
  };
}
