// WebhookQueue in MongoDB: `webhook_deliveries`, each with its attempts. A due delivery is claimed by
// the marker `<delivery id>@<the due time it was found at>`, then its due time is moved to the hold's
// end: of the replicas that found it due at the same moment, only the one whose marker went in first
// writes (FerretDB 1.x writes whole documents, so a loser's write could undo the winner's record).
// A marker names the hold it was taken in, counted from the due time: a replica that died between its
// marker and the move of the due time leaves the delivery due at the same time with its marker in, and
// one hold later the next hold's marker goes in and the delivery is taken again (sent at least once, as
// every webhook is, never lost). Markers are a few bytes each, one per attempt, and are kept.
import type { WebhookQueue } from '../delivery-store.js';
import { WEBHOOKS } from '../delivery-store.js';
import { firstToMark } from '../../storage/mongodb-lease.js';
import { saveCheckpoint } from './checkpoints.js';
import type { DeliveryCollections } from './collections.js';
import { writeJournal } from './journal-queue.js';
import { insertDeliveries } from './webhook-inserts.js';
import { toAttemptDoc, toDelivery } from './webhook-documents.js';

/** How many due deliveries one claim looks at: enough for replicas racing for the first ones. */
const CANDIDATES = 8;

export function mongoWebhookQueue(collections: DeliveryCollections): WebhookQueue {
  const { deliveries, markers } = collections;
  return {
    async enqueue(rows, checkpoint, now, events = []) {
      await writeJournal(collections.journal, events);
      await insertDeliveries(collections, rows, now);
      await saveCheckpoint(collections.checkpoints, WEBHOOKS, checkpoint);
    },
    async claimDue(now, leaseUntil) {
      const candidates = await deliveries
        .find({ state: 'pending', next_attempt_at: { $lte: now } }, { sort: { next_attempt_at: 1, _id: 1 }, limit: CANDIDATES })
        .toArray();
      const holdMs = Math.max(1, leaseUntil - now);
      for (const due of candidates) {
        const hold = Math.floor((now - Number(due.next_attempt_at)) / holdMs);
        if (!(await firstToMark(markers, `${due._id}@${due.next_attempt_at}#${hold}`, now))) continue;
        const taken = await deliveries.updateOne(
          { _id: due._id, state: 'pending', next_attempt_at: due.next_attempt_at },
          { $set: { next_attempt_at: leaseUntil, updated_at: now } },
        );
        if (taken.matchedCount === 1) return toDelivery({ ...due, next_attempt_at: leaseUntil, updated_at: now });
      }
      return undefined;
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
    async nextDueAt() {
      const [next] = await deliveries
        .find({ state: 'pending' }, { sort: { next_attempt_at: 1 }, limit: 1, projection: { next_attempt_at: 1 } })
        .toArray();
      return next ? Number(next.next_attempt_at) : undefined;
    },
  };
}
