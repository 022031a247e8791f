// Which storage runs, chosen by environment: the embedded SQLite files by default, KurrentDB for the
// log when EVENTSTORE_CONNECTION_STRING is set, PostgreSQL for it when POSTGRES_URL is set, MongoDB for read models and checkpoints when
// MONGODB_URL is set (the notification delivery store too, so that replicas sharing no disk share
// their leases). The service and `npm run replay` both open their storage here; a server's driver is loaded
// only when that server is configured, so that the embedded default starts without them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from './checkpoints/checkpoint-store.js';
import { openSqliteCheckpointStore } from './checkpoints/sqlite-checkpoint-store.js';
import type { EventStore } from './eventstore/event-store.js';
import type { HashedLog } from './eventstore/hashed-log.js';
import { POSTGRES_LOG } from './eventstore/postgres/postgres-log-name.js';
import { openSqliteEventStore } from './eventstore/sqlite/sqlite-event-store.js';
import type { OrderReadModel } from './orders/read-model/order-read-model.js';
import { openSqliteOrderReadModel, type SqliteReadModelOptions } from './orders/read-model/sqlite-order-read-model.js';
import type { DeliveryStore } from './notifications/delivery-store.js';
import type { WorkLeaseStore } from './leases/work-lease-store.js';
import { openSqliteWorkLeaseStore } from './leases/sqlite-work-leases.js';
import { openSqliteDeliveryStore } from './notifications/sqlite/sqlite-delivery-store.js';
import type { WalCheckpointer } from './storage/wal-checkpointer.js';

export interface BackendSettings {
  dataDir: string;
  eventStoreConnectionString?: string | undefined;
  /** A libpq URL: the log on PostgreSQL. */
  postgresUrl?: string | undefined;
  mongodbUrl?: string | undefined;
  /** The embedded store's append limit; KurrentDB applies its own MaxAppendSize. */
  maxAppendBytes?: number | undefined;
  /** The embedded log's page: at most this many events per batch a consumer handles. */
  logPageSize?: number | undefined;
  /** false: the SQLite files are opened without PRAGMA quick_check (which reads each file whole). */
  quickCheck?: boolean | undefined;
  /** How long a request waits for the read models (ORDERS_VISIBLE_WITHIN_MS): also how long one waits for a MongoDB server that went away. */
  visibleWithinMs?: number | undefined;
  /** The service's: checkpoints the SQLite files off the main thread. Tools leave it out, and SQLite checkpoints in their commits. */
  walCheckpointer?: WalCheckpointer | undefined;
}

/** The log as its owner holds it: the event store port for its consumers, the hash chain's reads for the checks, and close. */
export type OpenedLog = EventStore & HashedLog & { close(): Promise<void> };

export async function openEventStore(settings: BackendSettings, log?: (message: string, error?: unknown) => void): Promise<OpenedLog> {
  if (settings.eventStoreConnectionString) {
    const { openKurrentDbEventStore } = await import('./eventstore/kurrentdb/kurrentdb-event-store.js');
    return openKurrentDbEventStore(settings.eventStoreConnectionString);
  }
  if (settings.postgresUrl) {
    const { openPostgresEventStore } = await import('./eventstore/postgres/postgres-event-store.js');
    return openPostgresEventStore(settings.postgresUrl, {
      ...(settings.maxAppendBytes === undefined ? {} : { maxAppendBytes: settings.maxAppendBytes }),
      ...(settings.logPageSize === undefined ? {} : { pageSize: settings.logPageSize }),
      ...(log ? { log } : {}),
    });
  }
  return openSqliteEventStore(settings.dataDir, {
    ...(settings.maxAppendBytes === undefined ? {} : { maxAppendBytes: settings.maxAppendBytes }),
    ...(settings.logPageSize === undefined ? {} : { pageSize: settings.logPageSize }),
    quickCheck: settings.quickCheck ?? true,
    walCheckpointer: settings.walCheckpointer,
  });
}

export async function openOrderReadModel(settings: BackendSettings, options: SqliteReadModelOptions = {}): Promise<OrderReadModel> {
  if (settings.mongodbUrl) {
    const { openMongoOrderReadModel } = await import('./orders/read-model/mongodb-order-read-model.js');
    return openMongoOrderReadModel(settings.mongodbUrl, undefined, { serverSelectionTimeoutMS: settings.visibleWithinMs });
  }
  return openSqliteOrderReadModel(settings.dataDir, undefined, {
    quickCheck: settings.quickCheck ?? true,
    walCheckpointer: settings.walCheckpointer,
    ...options,
  });
}

/** What start-up reasons and replay call each store, so that an operator knows which file or server is meant. */
export function storageNames(settings: BackendSettings): { log: string; readModel: string; checkpoints: string; notifications: string } {
  return {
    log: settings.eventStoreConnectionString
      ? 'the KurrentDB event log'
      : settings.postgresUrl
        ? POSTGRES_LOG
        : join(settings.dataDir, 'events.db'),
    readModel: settings.mongodbUrl ? 'the MongoDB order read model' : join(settings.dataDir, 'read-models.db'),
    checkpoints: settings.mongodbUrl ? 'the MongoDB consumer checkpoints' : join(settings.dataDir, 'checkpoints.db'),
    notifications: settings.mongodbUrl ? 'the MongoDB notification delivery store' : join(settings.dataDir, 'notifications.db'),
  };
}

export interface ScratchOrderReadModel {
  readModel: OrderReadModel;
  /** Closes the read model and deletes its storage. */
  remove(): Promise<void>;
}

/** An empty order read model beside the live one, for replay: a scratch directory (SQLite) or database (MongoDB). */
export async function openScratchOrderReadModel(settings: BackendSettings): Promise<ScratchOrderReadModel> {
  const { mongodbUrl } = settings;
  if (mongodbUrl) {
    const [{ MongoClient }, { openMongoOrderReadModel }] = await Promise.all([
      import('mongodb'),
      import('./orders/read-model/mongodb-order-read-model.js'),
    ]);
    const database = `orders_replay_${Date.now()}`;
    const readModel = await openMongoOrderReadModel(mongodbUrl, database);
    return {
      readModel,
      async remove() {
        await readModel.close();
        const client = await MongoClient.connect(mongodbUrl);
        try {
          await client.db(database).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  }
  const directory = mkdtempSync(join(tmpdir(), 'orders-replay-'));
  const readModel = openSqliteOrderReadModel(directory);
  return {
    readModel,
    async remove() {
      await readModel.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export async function openCheckpointStore(settings: BackendSettings): Promise<CheckpointStore> {
  if (settings.mongodbUrl) {
    const { openMongoCheckpointStore } = await import('./checkpoints/mongodb-checkpoint-store.js');
    return openMongoCheckpointStore(settings.mongodbUrl);
  }
  return openSqliteCheckpointStore(settings.dataDir, settings.quickCheck ?? true, settings.walCheckpointer);
}

/**
 * Where replicas lease the planning of an order or a consolidation window, and the singleton work:
 * beside the log when it is on PostgreSQL (one statement a lease), else shared as the checkpoints are.
 */
export async function openWorkLeaseStore(settings: BackendSettings): Promise<WorkLeaseStore> {
  if (settings.postgresUrl) {
    const { openPostgresWorkLeaseStore } = await import('./leases/postgres-work-leases.js');
    return openPostgresWorkLeaseStore(settings.postgresUrl);
  }
  if (settings.mongodbUrl) {
    const { openMongoWorkLeaseStore } = await import('./leases/mongodb-work-leases.js');
    return openMongoWorkLeaseStore(settings.mongodbUrl);
  }
  return openSqliteWorkLeaseStore(settings.dataDir, settings.walCheckpointer);
}

export async function openDeliveryStore(settings: BackendSettings): Promise<DeliveryStore> {
  if (settings.mongodbUrl) {
    const { openMongoDeliveryStore } = await import('./notifications/mongodb/mongodb-delivery-store.js');
    return openMongoDeliveryStore(settings.mongodbUrl);
  }
  return openSqliteDeliveryStore(settings.dataDir, settings.walCheckpointer);
}

export function describeBackends(settings: BackendSettings): string {
  const log = settings.eventStoreConnectionString
    ? 'KurrentDB'
    : settings.postgresUrl
      ? `PostgreSQL at ${redactedUrl(settings.postgresUrl)}`
      : `SQLite in ${settings.dataDir}`;
  const readModels = settings.mongodbUrl ? 'MongoDB' : `SQLite in ${settings.dataDir}`;
  if (settings.postgresUrl) {
    return `event log and leases: ${log}; read models, checkpoints and delivery state: ${readModels}`;
  }
  return `event log: ${log}; read models, checkpoints, leases and delivery state: ${readModels}`;
}

/** A URL as it may be logged: without its password. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'a URL that does not parse';
  }
}
