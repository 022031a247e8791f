// The work lease store in MongoDB, for replicas on several machines: the `work_claims` collection of
// mongodb-leases.ts, its takeover markers in `work_claim_markers`.
import type { WorkLeaseStore } from './work-lease-store.js';
import { connectMongo, databaseName, ensureIndexes } from '../checkpoints/mongodb-checkpoint-store.js';
import { mongoLeases, type LeaseDoc, type MarkerDoc } from './mongodb-leases.js';

export const WORK_LEASES = 'work_claims';
export const WORK_LEASE_MARKERS = 'work_claim_markers';

export async function openMongoWorkLeaseStore(url: string, dbName?: string): Promise<WorkLeaseStore> {
  const client = await connectMongo(url);
  try {
    const db = client.db(databaseName(url, dbName));
    const options = { writeConcern: { w: 'majority' as const, journal: true } };
    const leases = db.collection<LeaseDoc>(WORK_LEASES, options);
    await ensureIndexes(leases, [{ key: { holder: 1 }, name: 'holder' }]);
    return { ...mongoLeases(leases, db.collection<MarkerDoc>(WORK_LEASE_MARKERS, options)), close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}
