// JournalQueue in notifications.db: the `outcome_journal` table, oldest entry first.
import type { JournalQueue } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';
import { INTEGER_PARAM } from '../../storage/sqlite-parameters.js';

export function sqliteJournalQueue({ db, wal, guard }: DeliveryDatabase): JournalQueue {
  const oldest = db.prepare<[number], { id: bigint; stream: string; type: string; data: string }>(
    `SELECT id, stream, type, data FROM outcome_journal ORDER BY id LIMIT ${INTEGER_PARAM}`,
  );
  const remove = db.prepare<[bigint]>('DELETE FROM outcome_journal WHERE id = ?');
  const appended = db.transaction((ids: readonly string[]) => {
    for (const id of ids) remove.run(BigInt(id));
  });
  return {
    async oldest(limit) {
      guard();
      return oldest
        .all(limit)
        .map((row) => ({ id: String(row.id), stream: row.stream, type: row.type, data: JSON.parse(row.data) as unknown }));
    },
    async appended(ids) {
      guard();
      appended.immediate(ids);
      await wal.sync();
    },
  };
}
