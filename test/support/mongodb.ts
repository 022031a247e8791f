// Contract tests against a real MongoDB (MONGODB_URL) use a database of their own per test and
// drop it afterwards: the suite never touches data it did not create.
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';

export function scratchDatabaseName(prefix: string): string {
  return `${prefix}_${randomUUID().slice(0, 8)}`;
}

export async function dropDatabase(url: string, dbName: string): Promise<void> {
  const client = await new MongoClient(url).connect();
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}

/**
 * The reason a test of concurrent single-document updates cannot hold on this server, or undefined on
 * MongoDB. FerretDB (the stand-in the suite runs on here) answers buildInfo with `ferretdbVersion`, and
 * its 1.x does not make a single-document update atomic under concurrency (its documented gap).
 */
export async function nonAtomicUpdatesGap(url: string): Promise<string | undefined> {
  const client = await new MongoClient(url).connect();
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    if (info.ferretdbVersion === undefined) return undefined;
    const version = String(info.ferretdbVersion);
    return `FerretDB${version === 'unknown' ? '' : ` ${version}`} (MongoDB ${String(info.version)} protocol) does not make a single-document update atomic under concurrency (FerretDB 1.x known gap); the guarantee is argued from MongoDB's documentation in docs/production-backends.md`;
  } finally {
    await client.close();
  }
}
