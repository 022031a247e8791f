// Bulk writes that may meet documents already there, where duplicates are what "leave it as it is" means.
import { MongoServerError, type AnyBulkWriteOperation, type Collection } from 'mongodb';
import { DUPLICATE_KEY } from '../../storage/mongodb-duplicate-key.js';

const CHUNK = 1000;

/** Every operation given must be idempotent (an upsert of `$setOnInsert`), since some are sent again. */
export async function bulkIgnoringDuplicates<T extends { _id: unknown }>(
  collection: Collection<T>,
  operations: AnyBulkWriteOperation<T>[],
): Promise<void> {
  for (let i = 0; i < operations.length; i += CHUNK) {
    let pending = operations.slice(i, i + CHUNK);
    while (pending.length > 0) {
      try {
        await collection.bulkWrite(pending, { ordered: false });
        break;
      } catch (error) {
        if (!onlyDuplicates(error)) throw error;
        // FerretDB 1.x ends an unordered bulk write at its first error, where MongoDB goes on: what
        // came after the first duplicate was never written, and two replicas enqueueing the same
        // event lost the deliveries behind it. So everything after it is sent again (on MongoDB,
        // writes that are there already: duplicates, or upserts that match and change nothing).
        pending = pending.slice(firstFailedIndex(error) + 1);
      }
    }
  }
}

function writeErrorsOf(error: MongoServerError): { code?: number; index?: number }[] {
  const writeErrors = (error as MongoServerError & { writeErrors?: unknown }).writeErrors;
  return Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors as { code?: number; index?: number }] : [];
}

/** The index in its batch of the first operation a bulk write refused (0 when the error does not say). */
function firstFailedIndex(error: unknown): number {
  const indexes = writeErrorsOf(error as MongoServerError)
    .map((entry) => entry.index)
    .filter((index): index is number => typeof index === 'number');
  return indexes.length > 0 ? Math.min(...indexes) : 0;
}

/** A bulk write that failed only because some documents were there already (E11000 on a unique key). */
function onlyDuplicates(error: unknown): boolean {
  if (!(error instanceof MongoServerError)) return false;
  const list = writeErrorsOf(error);
  if (list.length === 0) return error.code === DUPLICATE_KEY;
  return (
    list.every((entry: { code?: number }) => entry.code === DUPLICATE_KEY) && !(error as { writeConcernError?: unknown }).writeConcernError
  );
}
