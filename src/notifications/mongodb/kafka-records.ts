// KafkaRecords in MongoDB: `kafka_published`, one document per event.
import type { KafkaRecords } from '../delivery-store.js';
import { KAFKA } from '../delivery-store.js';
import { bulkIgnoringDuplicates } from './bulk-writes.js';
import { saveCheckpoint } from './checkpoints.js';
import type { DeliveryCollections } from './collections.js';
import { writeJournal } from './journal-queue.js';

export function mongoKafkaRecords(collections: DeliveryCollections): KafkaRecords {
  const { kafkaPublished } = collections;
  return {
    async published(eventId) {
      return (await kafkaPublished.findOne({ _id: eventId }, { projection: { _id: 1 } })) !== null;
    },
    async recordPublished(eventIds, checkpoint, events = []) {
      await writeJournal(collections.journal, events);
      const now = Date.now();
      await bulkIgnoringDuplicates(
        kafkaPublished,
        eventIds.map((id) => ({ updateOne: { filter: { _id: id }, update: { $setOnInsert: { recorded_at: now } }, upsert: true } })),
      );
      await saveCheckpoint(collections.checkpoints, KAFKA, checkpoint);
    },
  };
}
