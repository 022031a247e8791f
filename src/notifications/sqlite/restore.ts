// DeliveryRestore in notifications.db: one transaction puts back deliveries, e-mail records and
// checkpoints folded from the log.
import type { DeliveryRestore, RestoreState } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';
import { INSERT_EMAIL } from './email-records.js';

export function sqliteRestore(store: DeliveryDatabase): DeliveryRestore {
  const { db, wal, guard } = store;
  const anyCheckpoint = db.prepare<[], bigint>('SELECT 1 FROM checkpoints LIMIT 1').pluck();
  const insertEmail = db.prepare(INSERT_EMAIL);
  const insertDelivery = db.prepare(`
    INSERT INTO webhook_deliveries (envelope_id, event_position, company_group, url, body, state, attempts, next_attempt_at, last_status, last_error, created_at, updated_at)
    VALUES (@envelopeId, @eventPosition, @companyGroup, @url, @body, @state, @attempts, @now, @lastStatus, @lastError, @now, @now)
    ON CONFLICT (envelope_id, url) DO NOTHING`);
  const restore = db.transaction((state: RestoreState, now: number) => {
    for (const {
      envelopeId,
      eventPosition,
      companyGroup,
      url,
      body,
      state: deliveryState,
      attempts,
      lastStatus,
      lastError,
    } of state.webhooks) {
      insertDelivery.run({
        envelopeId,
        eventPosition,
        companyGroup,
        url,
        body,
        state: deliveryState,
        attempts,
        lastStatus,
        lastError,
        now,
      });
    }
    for (const { eventId, serviceRef, result, detail, messageId } of state.emails)
      insertEmail.run({ eventId, serviceRef, result, detail, messageId, now });
    for (const [consumer, position] of Object.entries(state.checkpoints))
      if (position !== undefined) store.moveCheckpoint(consumer, position);
  });
  return {
    async isEmpty() {
      guard();
      return anyCheckpoint.get() === undefined;
    },
    async restore(state) {
      guard();
      restore.immediate(state, Date.now());
      await wal.sync();
    },
  };
}
