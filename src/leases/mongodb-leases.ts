// LeaseStore in MongoDB, for replicas that share no disk: one document per key in the given collection,
// `{ _id: key, holder, lease_until, generation }`. Acquiring a free key is decided by the insert of its
// document (a unique `_id` is atomic on every MongoDB-protocol server). Taking over an expired lease is
// decided by inserting the marker `<collection>:<key>#<generation>`, and only the replica whose marker
// went in moves the document to that generation: on MongoDB a conditional update alone would do, but
// FerretDB 1.x reads and writes whole documents, so two replicas that find the lease expired at the same
// moment could both see their update match, and the later write undo the earlier.
// A released lease is kept with its lease ended, not deleted: its generation must keep counting, or a
// later takeover would meet the marker of an earlier one and never succeed.
import type { Collection } from 'mongodb';
import type { LeaseStore } from './lease-store.js';
import { insertedFirst } from '../storage/mongodb-duplicate-key.js';

export interface LeaseDoc {
  _id: string;
  holder: string;
  lease_until: number;
  /** Taken over this many times: each takeover is decided by the marker of its generation. */
  generation?: number;
}

export interface MarkerDoc {
  _id: string;
  at: number;
}

export function mongoLeases(leases: Collection<LeaseDoc>, markers: Collection<MarkerDoc>): LeaseStore {
  return {
    acquire: (key, holder, now, leaseUntil) => acquireLease(leases, markers, key, holder, now, leaseUntil),
    async release(key, holder) {
      await leases.updateOne({ _id: key, holder }, { $set: { lease_until: 0 } });
    },
    async releaseAll(holder) {
      await leases.updateMany({ holder }, { $set: { lease_until: 0 } });
    },
    async holderOf(key, now) {
      const current = await leases.findOne({ _id: key, lease_until: { $gt: now } }, { projection: { holder: 1 } });
      return current?.holder;
    },
  };
}

async function acquireLease(
  leases: Collection<LeaseDoc>,
  markers: Collection<MarkerDoc>,
  id: string,
  holder: string,
  now: number,
  leaseUntil: number,
): Promise<boolean> {
  const current = await leases.findOne({ _id: id });
  if (!current) return insertedFirst(leases, { _id: id, holder, lease_until: leaseUntil, generation: 0 });
  const generation = Number(current.generation ?? 0);
  if (current.lease_until > now) {
    if (current.holder !== holder) return false;
    const renewed = await leases.updateOne({ _id: id, holder, generation: current.generation }, { $set: { lease_until: leaseUntil } });
    return renewed.matchedCount === 1;
  }
  // The marker first, then the write: only the replica that won the generation writes the lease, so no
  // loser's write can land on top of it.
  if (!(await insertedFirst(markers, { _id: `${leases.collectionName}:${id}#${generation + 1}`, at: now }))) return false;
  const moved = await leases.updateOne(
    { _id: id, generation: current.generation ?? { $exists: false } },
    { $set: { holder, lease_until: leaseUntil, generation: generation + 1 } },
  );
  return moved.matchedCount === 1;
}
