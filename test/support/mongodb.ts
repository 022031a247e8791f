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

/** The same server's URL naming another database (the path of `mongodb://host:port/<database>?options`). */
export function databaseUrl(url: string, database: string): string {
  return url.replace(/\/[^/?]*(\?|$)/, `/${database}$1`);
}
