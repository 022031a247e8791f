// Checkpoints of the log's consumers (the planning reactor and the like) in MongoDB: one document per
// consumer, `{ _id: consumer, position }` in the `consumer_checkpoints` collection.
//
// Positions are BSON int64. KurrentDB commit positions are byte offsets in its transaction log: they
// pass 2^53 (a JS number's exact range) on big logs but never 2^63 (the server keeps them as signed
// 64-bit numbers). The driver writes a bigint as int64 and, with `useBigInt64`, reads int64 back as
// bigint, so positions stay exact and MongoDB compares them as numbers ($max, $lt), which a string
// would not. The helpers here are shared with the MongoDB order read model.
import {
  Long,
  MongoClient,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerSelectionError,
  type Collection,
  type Document,
  type IndexDescription,
} from 'mongodb';
import type { CheckpointStore } from './checkpoint-store.js';
import { upsertRacing } from '../storage/mongodb-duplicate-key.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A position as written: checked to fit BSON int64 (the driver would silently wrap a bigger bigint). */
export function toStoredPosition(position: bigint): bigint {
  if (typeof position !== 'bigint') throw new TypeError(`position must be a bigint, got ${typeof position}`);
  if (position < INT64_MIN || position > INT64_MAX) throw new RangeError(`position ${position} does not fit a 64-bit signed integer`);
  return position;
}

/** A position as read: a bigint when read with useBigInt64; a number or Long if someone wrote it by hand. */
export function fromStoredPosition(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (value instanceof Long) return value.toBigInt();
  throw new TypeError(`stored position is not an integer: ${String(value)}`);
}

/**
 * Which database to use: the one asked for, else the one the URL names (`mongodb://host/orders`), else
 * `orders`. (The driver alone would fall back to `test`.)
 */
export function databaseName(url: string, dbName?: string): string {
  if (dbName !== undefined && dbName !== '') return dbName;
  // mongodb[+srv]://[user:pass@]host[:port][,host[:port]...][/[database][?options]]; user and password are
  // percent-encoded, so the first `/` after the scheme starts the path.
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url);
  const fromUrl = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  return fromUrl || 'orders';
}

/**
 * Connects at once, so that a wrong URL or an unreachable server fails start-up rather than the first
 * request. `serverSelectionTimeoutMS` bounds how long a call waits for a server that has gone away (the
 * driver's default is 30 s); one set in the URL wins.
 */
export async function connectMongo(url: string, options: { serverSelectionTimeoutMS?: number | undefined } = {}): Promise<MongoClient> {
  const fromUrl = /[?&]serverSelectionTimeoutMS=/i.test(url);
  const client = new MongoClient(
    url,
    !fromUrl && options.serverSelectionTimeoutMS !== undefined ? { serverSelectionTimeoutMS: options.serverSelectionTimeoutMS } : {},
  );
  await client.connect();
  return client;
}

/** The driver's errors that mean the server is not there (down, unreachable, no server to select), not a refusal. */
export function isMongoUnreachable(error: unknown): boolean {
  return error instanceof MongoNetworkError || error instanceof MongoServerSelectionError || error instanceof MongoNotConnectedError;
}

/**
 * Creates the indexes a collection needs, idempotently (every replica runs it at start). One index per
 * call: the same on MongoDB, and FerretDB 1.24 drops the connection when one createIndexes call names
 * several indexes that exist already.
 */
export async function ensureIndexes<T extends Document>(collection: Collection<T>, indexes: readonly IndexDescription[]): Promise<void> {
  for (const { key, ...options } of indexes) await collection.createIndex(key as Document, options);
}

interface CheckpointDocument {
  _id: string;
  position: bigint;
}

export const CONSUMER_CHECKPOINTS = 'consumer_checkpoints';
const LOG_IDENTITY = '$log';

export async function openMongoCheckpointStore(url: string, dbName?: string): Promise<CheckpointStore> {
  const client = await connectMongo(url);
  // Like the SQLite store's synchronous=FULL: a save is acknowledged once journaled on a majority.
  const collection: Collection<CheckpointDocument> = client
    .db(databaseName(url, dbName))
    .collection<CheckpointDocument>(CONSUMER_CHECKPOINTS, { useBigInt64: true, writeConcern: { w: 'majority', journal: true } });
  // One more document in the same collection, under a name no consumer has (consumers are plain words).
  const identity = client
    .db(databaseName(url, dbName))
    .collection<{ _id: string; log_id: string }>(CONSUMER_CHECKPOINTS, { writeConcern: { w: 'majority', journal: true } });
  return {
    async load(consumer) {
      const document = await collection.findOne({ _id: consumer }, { projection: { position: 1 } });
      return document ? fromStoredPosition(document.position) : undefined;
    },
    async all() {
      const rows = await collection.find({ _id: { $ne: LOG_IDENTITY } }).toArray();
      return new Map(rows.map((row) => [row._id, fromStoredPosition(row.position)]));
    },
    async logIdentity() {
      return (await identity.findOne({ _id: LOG_IDENTITY }))?.log_id;
    },
    async bindToLog(logId) {
      await upsertRacing(() => identity.updateOne({ _id: LOG_IDENTITY }, { $set: { log_id: logId } }, { upsert: true }));
    },
    async save(consumer, position) {
      // Last write wins, as in the SQLite store: the consumer decides what its checkpoint is.
      await upsertRacing(() =>
        collection.updateOne({ _id: consumer }, { $set: { position: toStoredPosition(position) } }, { upsert: true }),
      );
    },
    async close() {
      await client.close();
    },
  };
}
