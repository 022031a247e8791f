// DeliveryStore in `<dataDir>/notifications.db`, one file per port in this folder. "Delivered" and the
// checkpoints are what stop a resend, so they must survive power loss as well as a crash: every write
// resolves once the -wal file is fsynced. The fsync runs off the main thread (storage/wal-sync.ts,
// synchronous=NORMAL), because with FULL the commits of the consumers blocked the event loop that
// serves the submits.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openInWalMode } from '../../storage/open-in-wal-mode.js';
import { walSync } from '../../storage/wal-sync.js';
import type { WalCheckpointer } from '../../storage/wal-checkpointer.js';
import { sqliteLeases } from '../../leases/sqlite-leases.js';
import type { DeliveryStore } from '../delivery-store.js';
import { sqliteCheckpoints } from './checkpoints.js';
import { deliveryDatabase } from './delivery-database.js';
import { sqliteEmailRecords } from './email-records.js';
import { sqliteJournalQueue } from './journal-queue.js';
import { sqliteKafkaRecords } from './kafka-records.js';
import { sqliteRestore } from './restore.js';
import { DELIVERY_SCHEMA } from './schema.js';
import { sqliteWebhookQueue } from './webhook-queue.js';
import { sqliteWebhookReport } from './webhook-report.js';

export const NOTIFICATIONS_FILE = 'notifications.db';

export function openSqliteDeliveryStore(dataDir: string, walCheckpointer?: WalCheckpointer): DeliveryStore {
  mkdirSync(dataDir, { recursive: true });
  const db = openInWalMode(join(dataDir, NOTIFICATIONS_FILE));
  db.pragma('synchronous = NORMAL');
  // Several consumers (and possibly processes) share the file; wait for the write lock, don't fail.
  db.pragma('busy_timeout = 5000');
  db.defaultSafeIntegers(true);
  db.exec(DELIVERY_SCHEMA);
  const wal = walSync(db);
  const letGoOfCheckpoints = walCheckpointer?.takeOver(db);
  let closed = false;
  const store = deliveryDatabase(db, wal, () => closed);
  // A lease taken or let go is durable before it is acted on, like every other write of this store.
  const leases = (table: string, keyColumn = 'event_id') => sqliteLeases(db, { table, keyColumn, durable: () => wal.sync() });
  return {
    checkpoints: sqliteCheckpoints(store),
    webhooks: sqliteWebhookQueue(store),
    webhookLeases: leases('webhook_claims', 'delivery_id'),
    webhookReport: sqliteWebhookReport(store),
    emails: sqliteEmailRecords(store),
    emailLeases: leases('email_claims'),
    kafka: sqliteKafkaRecords(store),
    kafkaLeases: leases('kafka_claims'),
    journal: sqliteJournalQueue(store),
    journalLeases: leases('journal_claims', 'key'),
    restore: sqliteRestore(store),
    async close() {
      if (closed) return;
      closed = true;
      await wal.close();
      await letGoOfCheckpoints?.();
      db.close();
    },
  };
}
