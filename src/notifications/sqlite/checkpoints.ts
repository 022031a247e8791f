// ConsumerCheckpoints in notifications.db: the `checkpoints` and `log_identity` tables.
import type { ConsumerCheckpoints } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';

export function sqliteCheckpoints(store: DeliveryDatabase): ConsumerCheckpoints {
  const { db, wal, guard } = store;
  const read = db.prepare<[string], bigint>('SELECT position FROM checkpoints WHERE consumer = ?').pluck();
  const readIdentity = db.prepare<[], string>('SELECT log_id FROM log_identity').pluck();
  const bind = db.prepare<[string]>(
    'INSERT INTO log_identity (only, log_id) VALUES (1, ?) ON CONFLICT (only) DO UPDATE SET log_id = excluded.log_id',
  );
  return {
    async logIdentity() {
      guard();
      return readIdentity.get();
    },
    async bindToLog(logId) {
      guard();
      bind.run(logId);
      await wal.sync();
    },
    async checkpoint(consumer) {
      guard();
      return read.get(consumer) ?? undefined;
    },
    async saveCheckpoint(consumer, position) {
      guard();
      store.moveCheckpoint(consumer, position);
      await wal.sync();
    },
  };
}
