// Rows of webhook_deliveries and webhook_attempts, and the port's values they are read into.
import type { AttemptOutcome, RecordedAttempt, StoredWebhookDelivery, WebhookDeliveryState } from '../delivery-store.js';

export interface DeliveryRow {
  id: bigint;
  envelope_id: string;
  event_position: bigint;
  company_group: string;
  url: string;
  body: string;
  state: string;
  attempts: bigint;
  next_attempt_at: bigint;
  last_status: bigint | null;
  last_error: string | null;
}

export interface AttemptRow {
  delivery_id: bigint;
  attempt: bigint;
  at: bigint;
  duration_ms: bigint;
  result: string;
  status: bigint | null;
  error: string | null;
  next_attempt_at: bigint | null;
}

export const DELIVERY_COLUMNS =
  'id, envelope_id, event_position, company_group, url, body, state, attempts, next_attempt_at, last_status, last_error';

export function toDelivery(row: DeliveryRow): StoredWebhookDelivery {
  return {
    id: Number(row.id),
    envelopeId: row.envelope_id,
    eventPosition: row.event_position,
    companyGroup: row.company_group,
    url: row.url,
    body: row.body,
    state: row.state as WebhookDeliveryState,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
  };
}

export function toAttempt(row: AttemptRow): RecordedAttempt {
  const status = row.status === null ? null : Number(row.status);
  const error = row.error ?? '';
  let outcome: AttemptOutcome;
  if (row.result === 'delivered') outcome = { result: 'delivered', status: status ?? 0 };
  else if (row.result === 'retry') outcome = { result: 'retry', status, error, nextAttemptAt: Number(row.next_attempt_at ?? 0n) };
  else outcome = { result: 'failed', status, error };
  return {
    deliveryId: Number(row.delivery_id),
    attempt: Number(row.attempt),
    at: Number(row.at),
    durationMs: Number(row.duration_ms),
    outcome,
  };
}
