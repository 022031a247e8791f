// EmailRecords in MongoDB: `emails`, one document per event (`$setOnInsert`: the first record stands).
import type { EmailRecord, EmailRecords } from '../delivery-store.js';
import { EMAIL } from '../delivery-store.js';
import { saveCheckpoint } from './checkpoints.js';
import type { DeliveryCollections, EmailDoc } from './collections.js';
import { writeJournal } from './journal-queue.js';

export function mongoEmailRecords(collections: DeliveryCollections): EmailRecords {
  const { emails } = collections;
  return {
    async find(eventId) {
      const row = await emails.findOne({ _id: eventId });
      return row
        ? { eventId: row._id, serviceRef: row.service_ref, result: row.result, detail: row.detail, messageId: row.message_id ?? null }
        : undefined;
    },
    async record(record, checkpoint, events = []) {
      await writeJournal(collections.journal, events);
      await emails.updateOne({ _id: record.eventId }, emailInsert(record, Date.now()), { upsert: true });
      await saveCheckpoint(collections.checkpoints, EMAIL, checkpoint);
    },
  };
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
