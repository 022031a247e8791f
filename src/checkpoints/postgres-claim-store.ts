// ClaimStore beside the PostgreSQL log, in its schema, when the log is there (POSTGRES_URL): the
// `work_claims` table of leases/postgres-leases.ts. Why there rather than in MongoDB with the checkpoints:
// a claim is then one statement, not two or three calls with markers, and the pg client spends about
// a third of the MongoDB driver's CPU per call (docs/scaling.md); every replica tries a claim per order.
import type { ClaimStore } from './claim-store.js';
import { connectLog, isUnreachable, unavailable } from '../eventstore/postgres-connection.js';
import { createInLogSchema } from '../eventstore/postgres-schema.js';
import { postgresLeases, postgresLeaseTable } from '../leases/postgres-leases.js';

const WORK_CLAIMS = 'work_claims';

export async function openPostgresClaimStore(url: string): Promise<ClaimStore> {
  // A few connections: acquisitions, renewals and releases are short, and the log keeps its own pool.
  const connection = connectLog(url, { maxConnections: 4 });
  try {
    await createInLogSchema(connection, postgresLeaseTable(WORK_CLAIMS));
  } catch (error) {
    await connection.end().catch(() => {});
    throw isUnreachable(error) ? unavailable(error) : error;
  }
  return { ...postgresLeases(connection, WORK_CLAIMS), close: () => connection.end() };
}
