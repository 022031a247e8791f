// Which storage runs, chosen by environment: the embedded SQLite files by default, KurrentDB for the
// log when EVENTSTORE_CONNECTION_STRING is set, MongoDB for read models and checkpoints when
// MONGODB_URL is set. The service and `npm run replay` both open their storage here.
import type { CheckpointStore } from './checkpoints/checkpoint-store.js';
import { openMongoCheckpointStore } from './checkpoints/mongodb-checkpoint-store.js';
import { openSqliteCheckpointStore } from './checkpoints/sqlite-checkpoint-store.js';
import type { EventStore } from './eventstore/event-store.js';
import { openKurrentDbEventStore } from './eventstore/kurrentdb-event-store.js';
import { openSqliteEventStore } from './eventstore/sqlite-event-store.js';
import { openMongoOrderReadModel } from './read-models/mongodb-order-read-model.js';
import type { OrderReadModel } from './read-models/order-read-model.js';
import { openSqliteOrderReadModel, type SqliteReadModelOptions } from './read-models/sqlite-order-read-model.js';
import { join } from 'node:path';

export interface BackendSettings {
  dataDir: string;
  eventStoreConnectionString?: string | undefined;
  mongodbUrl?: string | undefined;
  /** The embedded store's append limit; KurrentDB applies its own MaxAppendSize. */
  maxAppendBytes?: number | undefined;
  /** false: the SQLite files are opened without PRAGMA quick_check (which reads each file whole). */
  quickCheck?: boolean | undefined;
}

export function openEventStore(settings: BackendSettings): EventStore {
  if (settings.eventStoreConnectionString) return openKurrentDbEventStore(settings.eventStoreConnectionString);
  return openSqliteEventStore(settings.dataDir, {
    ...(settings.maxAppendBytes === undefined ? {} : { maxAppendBytes: settings.maxAppendBytes }),
    quickCheck: settings.quickCheck ?? true,
  });
}

/** `scratch` opens an empty read model beside the live one (for replay), under that name. */
export function openOrderReadModel(settings: BackendSettings, scratch?: string, options: SqliteReadModelOptions = {}): Promise<OrderReadModel> {
  if (settings.mongodbUrl) return openMongoOrderReadModel(settings.mongodbUrl, scratch);
  return Promise.resolve(scratch ? openSqliteOrderReadModel(scratch) : openSqliteOrderReadModel(settings.dataDir, undefined, { quickCheck: settings.quickCheck ?? true, ...options }));
}

/** What start-up reasons and replay call each store, so that an operator knows which file or server is meant. */
export function storageNames(settings: BackendSettings): { log: string; readModel: string; checkpoints: string; notifications: string } {
  return {
    log: settings.eventStoreConnectionString ? 'the KurrentDB event log' : join(settings.dataDir, 'events.db'),
    readModel: settings.mongodbUrl ? 'the MongoDB order read model' : join(settings.dataDir, 'read-models.db'),
    checkpoints: settings.mongodbUrl ? 'the MongoDB consumer checkpoints' : join(settings.dataDir, 'checkpoints.db'),
    notifications: join(settings.dataDir, 'notifications.db'),
  };
}

export function openCheckpointStore(settings: BackendSettings): Promise<CheckpointStore> {
  return settings.mongodbUrl ? openMongoCheckpointStore(settings.mongodbUrl) : Promise.resolve(openSqliteCheckpointStore(settings.dataDir, settings.quickCheck ?? true));
}

export function describeBackends(settings: BackendSettings): string {
  const log = settings.eventStoreConnectionString ? 'KurrentDB' : `SQLite in ${settings.dataDir}`;
  const readModels = settings.mongodbUrl ? 'MongoDB' : `SQLite in ${settings.dataDir}`;
  return `event log: ${log}; read models and checkpoints: ${readModels}`;
}
