// ClaimStore in MongoDB, for replicas on several machines: the `work_claims` collection, one document
// per key, taken and taken over as src/storage/mongodb-lease.ts describes (markers in
// `work_claim_markers`). A released claim is kept with its lease ended, not deleted: its generation must
// keep counting, or a later takeover would meet the marker of an earlier one and never succeed.
import type { Collection } from 'mongodb';
import type { ClaimStore } from './claim-store.js';
import { connectMongo, databaseName, ensureIndexes } from './mongodb-checkpoint-store.js';
import { takeLease, type LeaseDoc, type MarkerDoc } from '../storage/mongodb-lease.js';

export const WORK_CLAIMS = 'work_claims';
export const WORK_CLAIM_MARKERS = 'work_claim_markers';

export async function openMongoClaimStore(url: string, dbName?: string): Promise<ClaimStore> {
  const client = await connectMongo(url);
  try {
    const db = client.db(databaseName(url, dbName));
    const options = { writeConcern: { w: 'majority' as const, journal: true } };
    const leases: Collection<LeaseDoc> = db.collection<LeaseDoc>(WORK_CLAIMS, options);
    const markers = db.collection<MarkerDoc>(WORK_CLAIM_MARKERS, options);
    await ensureIndexes(leases, [{ key: { holder: 1 }, name: 'holder' }]);
    return {
      claim: (key, holder, now, leaseUntil) => takeLease(leases, markers, key, holder, now, leaseUntil),
      async release(key, holder) {
        await leases.updateOne({ _id: key, holder }, { $set: { lease_until: 0 } });
      },
      async releaseAll(holder) {
        await leases.updateMany({ holder }, { $set: { lease_until: 0 } });
      },
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
