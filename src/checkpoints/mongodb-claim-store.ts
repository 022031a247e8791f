// ClaimStore in MongoDB, for replicas on several machines: the `work_claims` collection of
// leases/mongodb-leases.ts, its takeover markers in `work_claim_markers`.
import type { ClaimStore } from './claim-store.js';
import { connectMongo, databaseName, ensureIndexes } from './mongodb-checkpoint-store.js';
import type { LeaseDoc, MarkerDoc } from '../storage/mongodb-lease.js';
import { mongoLeases } from '../leases/mongodb-leases.js';

export const WORK_CLAIMS = 'work_claims';
export const WORK_CLAIM_MARKERS = 'work_claim_markers';

export async function openMongoClaimStore(url: string, dbName?: string): Promise<ClaimStore> {
  const client = await connectMongo(url);
  try {
    const db = client.db(databaseName(url, dbName));
    const options = { writeConcern: { w: 'majority' as const, journal: true } };
    const leases = db.collection<LeaseDoc>(WORK_CLAIMS, options);
    await ensureIndexes(leases, [{ key: { holder: 1 }, name: 'holder' }]);
    return { ...mongoLeases(leases, db.collection<MarkerDoc>(WORK_CLAIM_MARKERS, options)), close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}
