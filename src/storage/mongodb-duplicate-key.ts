// E11000: an insert or upsert met a document already there under a unique key. Replicas that share
// no disk decide who was first by exactly this (insertedFirst: the leases of leases/mongodb-leases.ts,
// the delivery store's id ranges), and idempotent writes read it as "there already" (the read model,
// the delivery store). Conditional updates alone are not enough on FerretDB 1.x, which reads and writes
// whole documents and so loses updates.
import type { Collection } from 'mongodb';

export const DUPLICATE_KEY = 11000;

/** Any error the driver gives for E11000: a server error, or a bulk write's. */
export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/**
 * Runs an upsert, and once more when it meets E11000: two replicas upserting one new document at once
 * (replicas started together, each binding the store to the log) both try the insert, and the second
 * fails on the first's `_id`, as MongoDB documents for concurrent upserts. The document is there by
 * then, so the second run updates it.
 */
export async function upsertRacing<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return upsert();
  }
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
