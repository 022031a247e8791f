// EmailRecords in MongoDB: `emails`, one document per event (`$setOnInsert`: the first record stands).
import type { EmailRecord, EmailRecords } from '../delivery-store.js';
import { EMAIL } from '../delivery-store.js';
import { saveCheckpoint } from './checkpoints.js';
import type { DeliveryCollections, EmailDoc } from './collections.js';
import { writeJournal } from './journal-queue.js';

export function mongoEmailRecords(collections: DeliveryCollections): EmailRecords {
  const { emails } = collections;
  const records: EmailRecords = {
    async find(eventId) {
      const row = await emails.findOne({ _id: eventId });
      return row
        ? { eventId: row._id, serviceRef: row.service_ref, result: row.result, detail: row.detail, messageId: row.message_id ?? null }
        : undefined;
    },
    record: (record, checkpoint, journal = []) => records.recordAll([{ record, journal }], checkpoint),
    // In this order, each write idempotent: a crash between them leaves what the next try completes.
    async recordAll(batch, checkpoint) {
      await writeJournal(
        collections.journal,
        batch.flatMap(({ journal }) => journal),
      );
      const now = Date.now();
      if (batch.length > 0)
        await emails.bulkWrite(
          batch.map(({ record }) => ({ updateOne: { filter: { _id: record.eventId }, update: emailInsert(record, now), upsert: true } })),
          { ordered: true },
        );
      await saveCheckpoint(collections.checkpoints, EMAIL, checkpoint);
    },
  };
  return records;
}

/** The update that inserts an e-mail record and leaves one already there as it is. */
export function emailInsert(record: EmailRecord, now: number): { $setOnInsert: Omit<EmailDoc, '_id'> } {
  return {
    $setOnInsert: {
      service_ref: record.serviceRef,
      result: record.result,
      detail: record.detail,
      message_id: record.messageId,
      recorded_at: now,
    },
  };
}
