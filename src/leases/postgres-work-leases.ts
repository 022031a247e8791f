// The work lease store beside the PostgreSQL log, in its schema, when the log is there (POSTGRES_URL):
// the `work_claims` table of postgres-leases.ts. Why there rather than in MongoDB with the checkpoints:
// acquiring a lease is then one statement, not two or three calls with markers, on a client that costs
// less CPU per call than the MongoDB driver (docs/scaling.md); every replica tries a lease per order.
import type { WorkLeaseStore } from './work-lease-store.js';
import { connectLog, isUnreachable, unavailable } from '../eventstore/postgres/postgres-connection.js';
import { createInLogSchema } from '../eventstore/postgres/postgres-schema.js';
import { postgresLeases, postgresLeaseTable } from './postgres-leases.js';

const WORK_LEASES = 'work_claims';

export async function openPostgresWorkLeaseStore(url: string): Promise<WorkLeaseStore> {
  // A few connections: acquisitions, renewals and releases are short, and the log keeps its own pool.
  const connection = connectLog(url, { maxConnections: 4 });
  try {
    await createInLogSchema(connection, postgresLeaseTable(WORK_LEASES));
  } catch (error) {
    await connection.end().catch(() => {});
    throw isUnreachable(error) ? unavailable(error) : error;
  }
  return { ...postgresLeases(connection, WORK_LEASES), close: () => connection.end() };
}
