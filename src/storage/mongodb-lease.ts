// Deciding "who was first" in MongoDB without transactions: a document with a unique `_id` goes in for
// exactly one caller (E11000 for every other, on every MongoDB-protocol server). The lease adapter
// (leases/mongodb-leases.ts) and the notification stores' claims are built on it; conditional updates
// alone are not enough on FerretDB 1.x, which reads and writes whole documents and so loses updates.
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
