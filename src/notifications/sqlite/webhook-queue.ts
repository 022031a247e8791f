// WebhookQueue in notifications.db: deliveries in `webhook_deliveries`, attempts in `webhook_attempts`.
import type { NewWebhookDelivery, RecordedAttempt, WebhookDeliveryState, WebhookQueue } from '../delivery-store.js';
import { WEBHOOKS, type JournalEvent } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';
import { DELIVERY_COLUMNS, toDelivery, type DeliveryRow } from './webhook-rows.js';
import { INTEGER_PARAM } from '../../storage/sqlite-parameters.js';

export function sqliteWebhookQueue(store: DeliveryDatabase): WebhookQueue {
  const { db, wal, guard } = store;
  const insertDelivery = db.prepare(`
    INSERT INTO webhook_deliveries (envelope_id, event_position, company_group, url, body, state, next_attempt_at, created_at, updated_at)
    VALUES (@envelopeId, @eventPosition, @companyGroup, @url, @body, 'pending', @now, @now, @now)
    ON CONFLICT (envelope_id, url) DO NOTHING`);
  const due = db.prepare<[number, number, number, number], { id: bigint; next_attempt_at: bigint }>(`
    SELECT id, next_attempt_at FROM webhook_deliveries
     WHERE state = 'pending' AND next_attempt_at <= ? AND (next_attempt_at, id) > (?, ?)
     ORDER BY next_attempt_at, id LIMIT ${INTEGER_PARAM}`);
  const dueNow = db.prepare<[number, number], DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ? AND state = 'pending' AND next_attempt_at <= ?`,
  );
  const updateDelivery = db.prepare(`
    UPDATE webhook_deliveries
       SET state = @state, attempts = attempts + 1, next_attempt_at = @nextAttemptAt, last_status = @status, last_error = @error, updated_at = @now
     WHERE id = @id AND state = 'pending'`);
  const insertAttempt = db.prepare(`
    INSERT OR IGNORE INTO webhook_attempts (delivery_id, attempt, at, duration_ms, result, status, error, next_attempt_at)
    VALUES (@deliveryId, @attempt, @at, @durationMs, @result, @status, @error, @nextAttemptAt)`);
  const nextDue = db
    .prepare<[number], bigint | null>("SELECT min(next_attempt_at) FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at > ?")
    .pluck();

  const enqueue = db.transaction(
    (deliveries: readonly NewWebhookDelivery[], checkpoint: bigint, now: number, journal: readonly JournalEvent[]) => {
      for (const delivery of deliveries) insertDelivery.run({ ...delivery, now });
      store.journal(journal);
      store.moveCheckpoint(WEBHOOKS, checkpoint);
    },
  );
  const recordAttempt = db.transaction((attempt: RecordedAttempt, now: number, journal: readonly JournalEvent[]) => {
    const { outcome } = attempt;
    const state: WebhookDeliveryState = outcome.result === 'retry' ? 'pending' : outcome.result;
    const error = outcome.result === 'delivered' ? null : outcome.error;
    const nextAttemptAt = outcome.result === 'retry' ? outcome.nextAttemptAt : null;
    const changed = updateDelivery.run({
      id: attempt.deliveryId,
      state,
      nextAttemptAt: nextAttemptAt ?? now,
      status: outcome.status,
      error,
      now,
    }).changes;
    // Settled already (by another replica's attempt): this one changes nothing.
    if (changed === 0) return;
    store.journal(journal);
    insertAttempt.run({
      deliveryId: attempt.deliveryId,
      attempt: attempt.attempt,
      at: attempt.at,
      durationMs: Math.round(attempt.durationMs),
      result: outcome.result,
      status: outcome.status,
      error,
      nextAttemptAt,
    });
  });

  return {
    async enqueue(deliveries, checkpoint, now, journal = []) {
      guard();
      enqueue.immediate(deliveries, checkpoint, now, journal);
      await wal.sync();
    },
    async due(now, limit, after) {
      guard();
      // (-1, -1) before every delivery: due times and ids are never negative.
      return due
        .all(now, after?.nextAttemptAt ?? -1, after?.id ?? -1, limit)
        .map((row) => ({ id: Number(row.id), nextAttemptAt: Number(row.next_attempt_at) }));
    },
    async dueNow(id, now) {
      guard();
      const row = dueNow.get(id, now);
      return row && toDelivery(row);
    },
    async recordAttempt(attempt, journal = []) {
      guard();
      recordAttempt.immediate(attempt, Date.now(), journal);
      await wal.sync();
    },
    async nextDueAfter(now) {
      guard();
      const due = nextDue.get(now);
      return due === null || due === undefined ? undefined : Number(due);
    },
  };
}
