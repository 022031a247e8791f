// Which storage runs, chosen by environment: the embedded SQLite files by default, KurrentDB for the
// log when EVENTSTORE_CONNECTION_STRING is set, MongoDB for read models and checkpoints when
// MONGODB_URL is set. The service and `npm run replay` both open their storage here.
import type { CheckpointStore } from './checkpoints/checkpoint-store.js';
import { openMongoCheckpointStore } from './checkpoints/mongodb-checkpoint-store.js';
import { openSqliteCheckpointStore } from './checkpoints/sqlite-checkpoint-store.js';
import type { EventStore } from './eventstore/event-store.js';
import { openKurrentDbEventStore } from './eventstore/kurrentdb-event-store.js';
import { openSqliteEventStore } from './eventstore/sqlite-event-store.js';
import { openMongoOrderReadModel } from './orders/read-model/mongodb-order-read-model.js';
import type { OrderReadModel } from './orders/read-model/order-read-model.js';
import { openSqliteOrderReadModel } from './orders/read-model/sqlite-order-read-model.js';

export interface BackendSettings {
  dataDir: string;
  eventStoreConnectionString?: string | undefined;
  mongodbUrl?: string | undefined;
}

export function openEventStore(settings: BackendSettings): EventStore {
  return settings.eventStoreConnectionString ? openKurrentDbEventStore(settings.eventStoreConnectionString) : openSqliteEventStore(settings.dataDir);
}

/** `scratch` opens an empty read model beside the live one (for replay), under that name. */
export function openOrderReadModel(settings: BackendSettings, scratch?: string): Promise<OrderReadModel> {
  if (settings.mongodbUrl) return openMongoOrderReadModel(settings.mongodbUrl, scratch);
  return Promise.resolve(scratch ? openSqliteOrderReadModel(scratch) : openSqliteOrderReadModel(settings.dataDir));
}

export function openCheckpointStore(settings: BackendSettings): Promise<CheckpointStore> {
  return settings.mongodbUrl ? openMongoCheckpointStore(settings.mongodbUrl) : Promise.resolve(openSqliteCheckpointStore(settings.dataDir));
}

export function describeBackends(settings: BackendSettings): string {
  const log = settings.eventStoreConnectionString ? 'KurrentDB' : `SQLite in ${settings.dataDir}`;
  const readModels = settings.mongodbUrl ? 'MongoDB' : `SQLite in ${settings.dataDir}`;
  return `event log: ${log}; read models and checkpoints: ${readModels}`;
}
