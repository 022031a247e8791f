// EmailRecords in notifications.db: the `emails` table.
import type { EmailRecord, EmailRecords, EmailResult, JournalEvent } from '../delivery-store.js';
import { EMAIL } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';

interface EmailRow {
  event_id: string;
  service_ref: string;
  result: string;
  detail: string;
  message_id: string | null;
}

export const INSERT_EMAIL = `
  INSERT INTO emails (event_id, service_ref, result, detail, message_id, recorded_at) VALUES (@eventId, @serviceRef, @result, @detail, @messageId, @now)
  ON CONFLICT (event_id) DO NOTHING`;

export function sqliteEmailRecords(store: DeliveryDatabase): EmailRecords {
  const { db, wal, guard } = store;
  const read = db.prepare<[string], EmailRow>('SELECT event_id, service_ref, result, detail, message_id FROM emails WHERE event_id = ?');
  const insert = db.prepare(INSERT_EMAIL);
  const recordAll = db.transaction(
    (records: readonly { record: EmailRecord; journal: readonly JournalEvent[] }[], checkpoint: bigint, now: number) => {
      // Recorded already (by another replica): its journal events are in the journal already.
      for (const { record, journal } of records) if (insert.run({ ...record, now }).changes > 0) store.journal(journal);
      store.moveCheckpoint(EMAIL, checkpoint);
    },
  );
  const records: EmailRecords = {
    async find(eventId) {
      guard();
      const row = read.get(eventId);
      return (
        row && {
          eventId: row.event_id,
          serviceRef: row.service_ref,
          result: row.result as EmailResult,
          detail: row.detail,
          messageId: row.message_id,
        }
      );
    },
    record: (record, checkpoint, journal = []) => records.recordAll([{ record, journal }], checkpoint),
    async recordAll(batch, checkpoint) {
      guard();
      recordAll.immediate(batch, checkpoint, Date.now());
      await wal.sync();
    },
  };
  return records;
}
