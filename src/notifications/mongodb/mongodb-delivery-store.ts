// DeliveryStore in MongoDB (MONGODB_URL), for replicas that share no disk, one file per port in this
// folder. A standalone mongod is enough: no multi-document transaction is used, like the other MongoDB
// adapters. Instead:
// - Every lease is decided by a unique `_id`, which every MongoDB-protocol server enforces atomically:
//   an insert that meets E11000 is the "no" (insertedFirst, storage/mongodb-duplicate-key.ts). Every
//   lease (a due webhook, an e-mail, a Kafka message, the journal) is in a leases/mongodb-leases.ts
//   collection.
// - Where the port says "one transaction" (records + journal + checkpoint), the writes are ordered so
//   that every prefix is harmless: journal events first (they describe something already done), then
//   the records (idempotent: unique keys, $setOnInsert), then the checkpoint ($max) last. A crash in
//   between makes the consumer handle the batch again: nothing recorded is sent again, and a journal
//   event may reach the log twice, which the fold (delivery-outcomes.ts) ignores.
import { connectMongo, databaseName } from '../../checkpoints/mongodb-checkpoint-store.js';
import { mongoLeases } from '../../leases/mongodb-leases.js';
import type { DeliveryStore } from '../delivery-store.js';
import { mongoCheckpoints } from './checkpoints.js';
import { deliveryCollections } from './collections.js';
import { mongoEmailRecords } from './email-records.js';
import { mongoJournalQueue } from './journal-queue.js';
import { mongoKafkaRecords } from './kafka-records.js';
import { mongoRestore } from './restore.js';
import { mongoWebhookQueue } from './webhook-queue.js';
import { mongoWebhookReport } from './webhook-report.js';

export { DELIVERY_COLLECTIONS } from './collections.js';

export async function openMongoDeliveryStore(url: string, dbName?: string): Promise<DeliveryStore> {
  const client = await connectMongo(url);
  try {
    const collections = await deliveryCollections(client.db(databaseName(url, dbName)));
    return {
      checkpoints: mongoCheckpoints(collections),
      webhooks: mongoWebhookQueue(collections),
      webhookLeases: mongoLeases(collections.webhookLeases, collections.markers),
      webhookReport: mongoWebhookReport(collections),
      emails: mongoEmailRecords(collections),
      emailLeases: mongoLeases(collections.emailLeases, collections.markers),
      kafka: mongoKafkaRecords(collections),
      kafkaLeases: mongoLeases(collections.kafkaLeases, collections.markers),
      journal: mongoJournalQueue(collections),
      journalLeases: mongoLeases(collections.journalLeases, collections.markers),
      restore: mongoRestore(collections),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
