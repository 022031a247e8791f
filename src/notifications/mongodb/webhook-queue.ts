// WebhookQueue in MongoDB: `webhook_deliveries`, each with its attempts. Who sends a due delivery is its
// lease (the store's webhookLeases, leases/leased-queue.ts); the document keeps only when it is due.
import type { WebhookQueue } from '../delivery-store.js';
import { WEBHOOKS } from '../delivery-store.js';
import { saveCheckpoint } from './checkpoints.js';
import type { DeliveryCollections } from './collections.js';
import { writeJournal } from './journal-queue.js';
import { insertDeliveries } from './webhook-inserts.js';
import { toAttemptDoc, toDelivery } from './webhook-documents.js';

export function mongoWebhookQueue(collections: DeliveryCollections): WebhookQueue {
  const { deliveries } = collections;
  return {
    async enqueue(rows, checkpoint, now, events = []) {
      await writeJournal(collections.journal, events);
      await insertDeliveries(collections, rows, now);
      await saveCheckpoint(collections.checkpoints, WEBHOOKS, checkpoint);
    },
    async due(now, limit, after) {
      const afterThat = after
        ? { $or: [{ next_attempt_at: { $gt: after.nextAttemptAt } }, { next_attempt_at: after.nextAttemptAt, _id: { $gt: after.id } }] }
        : {};
      const found = await deliveries
        .find(
          { state: 'pending', next_attempt_at: { $lte: now }, ...afterThat },
          { sort: { next_attempt_at: 1, _id: 1 }, limit, projection: { next_attempt_at: 1 } },
        )
        .toArray();
      return found.map((due) => ({ id: Number(due._id), nextAttemptAt: Number(due.next_attempt_at) }));
    },
    async dueNow(id, now) {
      const found = await deliveries.findOne(
        { _id: id, state: 'pending', next_attempt_at: { $lte: now } },
        { projection: { attempt_log: 0 } },
      );
      return found ? toDelivery(found) : undefined;
    },
    async recordAttempt(attempt, events = []) {
      const { outcome } = attempt;
      const now = Date.now();
      await writeJournal(collections.journal, events);
      const entry = toAttemptDoc(attempt);
      // One document update: the attempt, its outcome and the delivery's new state go in together.
      await deliveries.updateOne(
        { _id: attempt.deliveryId, state: 'pending' },
        {
          $set: {
            state: outcome.result === 'retry' ? 'pending' : outcome.result,
            next_attempt_at: outcome.result === 'retry' ? outcome.nextAttemptAt : now,
            last_status: outcome.status,
            last_error: entry.error,
            updated_at: now,
          },
          $inc: { attempts: 1 },
          $push: { attempt_log: entry },
        },
      );
    },
    async nextDueAfter(now) {
      const [next] = await deliveries
        .find(
          { state: 'pending', next_attempt_at: { $gt: now } },
          { sort: { next_attempt_at: 1 }, limit: 1, projection: { next_attempt_at: 1 } },
        )
        .toArray();
      return next ? Number(next.next_attempt_at) : undefined;
    },
  };
}
