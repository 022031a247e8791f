// A lease on a named piece of work in MongoDB, for replicas that share no disk: one document per key,
// `{ _id: key, holder, lease_until, generation }`. Taking a free key is decided by the insert of its
// document (a unique `_id` is atomic on every MongoDB-protocol server). Taking over an expired lease
// is decided by inserting the marker `<collection>:<key>#<generation>`, and only the replica whose marker
// went in moves the document to that generation: on MongoDB a conditional update alone would do, but
// FerretDB 1.x reads and writes whole documents, so two replicas that find the lease expired at the same
// moment could both see their update match, and the later write undo the earlier. Used by the notification
// delivery store (e-mails, Kafka messages) and the planning claims.
import type { Collection } from 'mongodb';
import { isDuplicateKey } from './mongodb-duplicate-key.js';

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

/** Inserts a document with a unique key: true for the one caller that inserts it first, false for every other (E11000). */
export async function insertedFirst<T extends { _id: string }>(collection: Collection<T>, document: T): Promise<boolean> {
  try {
    await collection.insertOne(document as Parameters<Collection<T>['insertOne']>[0]);
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/** Inserts a marker: true for the one caller that inserts it first, false for every other (E11000). */
export function firstToMark(markers: Collection<MarkerDoc>, id: string, now: number): Promise<boolean> {
  return insertedFirst(markers, { _id: id, at: now });
}

/**
 * Takes `id` for `holder` until `leaseUntil`: true when it is free (the insert decides), still this
 * holder's (a renewal), or expired (the marker of the next generation decides); false while another
 * holder's lease runs.
 */
export async function takeLease(leases: Collection<LeaseDoc>, markers: Collection<MarkerDoc>, id: string, holder: string, now: number, leaseUntil: number): Promise<boolean> {
  const current = await leases.findOne({ _id: id });
  if (!current) return insertedFirst(leases, { _id: id, holder, lease_until: leaseUntil, generation: 0 });
  const generation = Number(current.generation ?? 0);
  if (current.lease_until > now) {
    if (current.holder !== holder) return false;
    const renewed = await leases.updateOne({ _id: id, holder, generation: current.generation }, { $set: { lease_until: leaseUntil } });
    return renewed.matchedCount === 1;
  }
  // The marker first, then the write: only the replica that won the generation writes the lease, so no
  // loser's write can land on top of it (FerretDB 1.x writes whole documents, and loses updates).
  if (!(await firstToMark(markers, `${leases.collectionName}:${id}#${generation + 1}`, now))) return false;
  const moved = await leases.updateOne(
    { _id: id, generation: current.generation ?? { $exists: false } },
    { $set: { holder, lease_until: leaseUntil, generation: generation + 1 } },
  );
  return moved.matchedCount === 1;
}
