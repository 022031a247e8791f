// JournalQueue in notifications.db: the `outcome_journal` table, each entry with its holder and hold.
import type { JournalQueue } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';

export function sqliteJournalQueue({ db, wal, guard }: DeliveryDatabase): JournalQueue {
  // One statement: choosing the entries and holding them cannot be split by another process.
  const claim = db.prepare<
    { holder: string; leaseUntil: number; now: number; limit: number },
    { id: bigint; stream: string; type: string; data: string }
  >(`
    UPDATE outcome_journal SET holder = @holder, lease_until = @leaseUntil
     WHERE id IN (SELECT id FROM outcome_journal WHERE lease_until <= @now OR holder = @holder ORDER BY id LIMIT @limit)
    RETURNING id, stream, type, data`);
  const remove = db.prepare<[bigint]>('DELETE FROM outcome_journal WHERE id = ?');
  const release = db.prepare<[string]>('UPDATE outcome_journal SET holder = NULL, lease_until = 0 WHERE holder = ?');
  const appended = db.transaction((ids: readonly string[]) => {
    for (const id of ids) remove.run(BigInt(id));
  });
  return {
    async claim(holder, now, leaseUntil, limit) {
      guard();
      const rows = claim.all({ holder, leaseUntil, now, limit }).sort((a, b) => (a.id < b.id ? -1 : 1));
      if (rows.length > 0) await wal.sync();
      return rows.map((row) => ({ id: String(row.id), stream: row.stream, type: row.type, data: JSON.parse(row.data) as unknown }));
    },
    async appended(ids) {
      guard();
      appended.immediate(ids);
      await wal.sync();
    },
    async release(holder) {
      guard();
      if (release.run(holder).changes > 0) await wal.sync();
    },
  };
}
