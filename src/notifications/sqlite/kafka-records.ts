// KafkaRecords in notifications.db: the `kafka_published` table.
import type { JournalEvent, KafkaRecords } from '../delivery-store.js';
import { KAFKA } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';

export function sqliteKafkaRecords(store: DeliveryDatabase): KafkaRecords {
  const { db, wal, guard } = store;
  const read = db.prepare<[string], bigint>('SELECT 1 FROM kafka_published WHERE event_id = ?').pluck();
  const insert = db.prepare<[string, number]>(
    'INSERT INTO kafka_published (event_id, recorded_at) VALUES (?, ?) ON CONFLICT (event_id) DO NOTHING',
  );
  const record = db.transaction((eventIds: readonly string[], checkpoint: bigint, now: number, journal: readonly JournalEvent[]) => {
    for (const eventId of eventIds) insert.run(eventId, now);
    store.journal(journal);
    store.moveCheckpoint(KAFKA, checkpoint);
  });
  return {
    async published(eventId) {
      guard();
      return read.get(eventId) !== undefined;
    },
    async recordPublished(eventIds, checkpoint, journal = []) {
      guard();
      record.immediate(eventIds, checkpoint, Date.now(), journal);
      await wal.sync();
    },
  };
}
