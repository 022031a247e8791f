// Webhook delivery documents read into the port's values.
import type { AttemptOutcome, RecordedAttempt, StoredWebhookDelivery } from '../delivery-store.js';
import { fromStoredPosition } from '../../checkpoints/mongodb-checkpoint-store.js';
import type { AttemptDoc, DeliveryDoc } from './collections.js';

export function toDelivery(document: Omit<DeliveryDoc, 'attempt_log'>): StoredWebhookDelivery {
  return {
    id: Number(document._id),
    envelopeId: document.envelope_id,
    eventPosition: fromStoredPosition(document.event_position),
    companyGroup: document.company_group,
    url: document.url,
    body: document.body,
    state: document.state,
    attempts: Number(document.attempts),
    nextAttemptAt: Number(document.next_attempt_at),
    // `?? null`: a null written by $setOnInsert may come back missing (FerretDB 1.24 leaves such fields out).
    lastStatus: document.last_status == null ? null : Number(document.last_status),
    lastError: document.last_error ?? null,
  };
}

export function toAttempt(deliveryId: number, entry: AttemptDoc): RecordedAttempt {
  const status = entry.status === null ? null : Number(entry.status);
  const error = entry.error ?? '';
  let outcome: AttemptOutcome;
  if (entry.result === 'delivered') outcome = { result: 'delivered', status: status ?? 0 };
  else if (entry.result === 'retry') outcome = { result: 'retry', status, error, nextAttemptAt: Number(entry.next_attempt_at ?? 0) };
  else outcome = { result: 'failed', status, error };
  return { deliveryId, attempt: Number(entry.attempt), at: Number(entry.at), durationMs: Number(entry.duration_ms), outcome };
}

export function toAttemptDoc(attempt: RecordedAttempt): AttemptDoc {
  const { outcome } = attempt;
  return {
    attempt: attempt.attempt,
    at: attempt.at,
    duration_ms: Math.round(attempt.durationMs),
    result: outcome.result,
    status: outcome.status,
    error: outcome.result === 'delivered' ? null : outcome.error,
    next_attempt_at: outcome.result === 'retry' ? outcome.nextAttemptAt : null,
  };
}
