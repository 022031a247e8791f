// Delivery outcomes as events in the log, so that losing the delivery store (notifications.db deleted,
// a MongoDB database dropped) never resends what the log shows as delivered. Each channel has its own
// stream; the delivery store keeps the events in a journal, written with the outcome it describes, until
// they are appended (outcome-journal.ts). When the store is found empty while these streams exist, its
// state is folded back from them (restore-deliveries.ts) before any consumer starts.
//
// Events stay small: ids, urls, positions and at most a short reason; never a body or a plan. None has
// an `order_id`, so the order read model and its replay pass over them. Positions are decimal strings:
// JSON has no 64-bit integers and KurrentDB positions pass 2^53.
import type { EmailRecord, EmailResult, WebhookDeliveryState } from './delivery-records.js';

export const WEBHOOK_OUTCOMES_STREAM = 'notifications-webhooks';
export const EMAIL_OUTCOMES_STREAM = 'notifications-email';
export const KAFKA_OUTCOMES_STREAM = 'notifications-kafka';
export const OUTCOME_STREAMS = [WEBHOOK_OUTCOMES_STREAM, EMAIL_OUTCOMES_STREAM, KAFKA_OUTCOMES_STREAM] as const;

/** Reasons and server replies are cut to this many characters in the log; the store keeps them whole. */
export const MAX_DETAIL = 200;
/** Deliveries per WebhooksQueued event: a catch-up batch of thousands of events becomes several events. */
export const MAX_QUEUED_PER_EVENT = 100;

/** An event for the log, as the delivery store's journal holds it until it is appended. */
export interface JournalEvent {
  stream: string;
  type: string;
  data: unknown;
}

export interface QueuedDelivery {
  /** Log position of the OrderPlanned; the body is derived from it again on a restore. */
  event: string;
  envelope_id: string;
  url: string;
}

/** The webhooks consumer has handled the log up to `through` and queued these deliveries. */
export interface WebhooksQueued {
  type: 'WebhooksQueued';
  data: { through: string; deliveries: QueuedDelivery[] };
}
export interface WebhookDelivered {
  type: 'WebhookDelivered';
  data: { envelope_id: string; event: string; url: string; status: number; attempts: number };
}
export interface WebhookFailed {
  type: 'WebhookFailed';
  data: { envelope_id: string; event: string; url: string; status: number | null; error: string; attempts: number };
}
/** `result` sent (SMTP) or written (.eml in the outbox). */
export interface EmailSent {
  type: 'EmailSent';
  data: { event_id: string; event: string; service_ref: string; result: 'sent' | 'written'; message_id: string | null; detail: string };
}
/** `result` skipped (send_email false, no recipients) or failed (refused for good, PDF not rendered). */
export interface EmailNotSent {
  type: 'EmailNotSent';
  data: { event_id: string; event: string; service_ref: string; result: 'skipped' | 'failed'; message_id: string | null; detail: string };
}
/** This process published `events` OrderPlanned events of the batch `first`..`through`; the rest of it was published by others. */
export interface KafkaPublished {
  type: 'KafkaPublished';
  data: { first: string; through: string; events: number };
}

export type DeliveryOutcomeEvent = WebhooksQueued | WebhookDelivered | WebhookFailed | EmailSent | EmailNotSent | KafkaPublished;

const cut = (text: string): string => (text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text);

export function webhooksQueuedEvents(
  deliveries: readonly { envelopeId: string; eventPosition: bigint; url: string }[],
  through: bigint,
): JournalEvent[] {
  const queued = deliveries.map((d): QueuedDelivery => ({ event: String(d.eventPosition), envelope_id: d.envelopeId, url: d.url }));
  const events: JournalEvent[] = [];
  // Always at least one: `through` is the consumer's checkpoint, restored from the last of these.
  for (let i = 0; i === 0 || i < queued.length; i += MAX_QUEUED_PER_EVENT) {
    const data: WebhooksQueued['data'] = { through: String(through), deliveries: queued.slice(i, i + MAX_QUEUED_PER_EVENT) };
    events.push({ stream: WEBHOOK_OUTCOMES_STREAM, type: 'WebhooksQueued', data });
  }
  return events;
}

export function webhookOutcomeEvent(
  delivery: { envelopeId: string; eventPosition: bigint; url: string },
  attempt: number,
  outcome: { result: 'delivered'; status: number } | { result: 'retry' } | { result: 'failed'; status: number | null; error: string },
): JournalEvent[] {
  if (outcome.result === 'retry') return [];
  if (outcome.result === 'delivered') {
    const data: WebhookDelivered['data'] = {
      envelope_id: delivery.envelopeId,
      event: String(delivery.eventPosition),
      url: delivery.url,
      status: outcome.status,
      attempts: attempt,
    };
    return [{ stream: WEBHOOK_OUTCOMES_STREAM, type: 'WebhookDelivered', data }];
  }
  const data: WebhookFailed['data'] = {
    envelope_id: delivery.envelopeId,
    event: String(delivery.eventPosition),
    url: delivery.url,
    status: outcome.status,
    error: cut(outcome.error),
    attempts: attempt,
  };
  return [{ stream: WEBHOOK_OUTCOMES_STREAM, type: 'WebhookFailed', data }];
}

export function emailOutcomeEvent(record: EmailRecord, position: bigint): JournalEvent {
  const common = {
    event_id: record.eventId,
    event: String(position),
    service_ref: record.serviceRef,
    message_id: record.messageId,
    detail: cut(record.detail),
  };
  if (record.result === 'sent' || record.result === 'written') {
    const data: EmailSent['data'] = { ...common, result: record.result };
    return { stream: EMAIL_OUTCOMES_STREAM, type: 'EmailSent', data };
  }
  const data: EmailNotSent['data'] = { ...common, result: record.result };
  return { stream: EMAIL_OUTCOMES_STREAM, type: 'EmailNotSent', data };
}

export function kafkaPublishedEvent(first: bigint, through: bigint, events: number): JournalEvent {
  const data: KafkaPublished['data'] = { first: String(first), through: String(through), events };
  return { stream: KAFKA_OUTCOMES_STREAM, type: 'KafkaPublished', data };
}

/** A webhook delivery as the log shows it; `pending` ones are queued again (their body rebuilt from the event). */
export interface RestoredWebhook {
  envelopeId: string;
  eventPosition: bigint;
  url: string;
  state: WebhookDeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
}

export interface RestoredDeliveries {
  checkpoints: { webhooks?: bigint; email?: bigint; kafka?: bigint };
  /** By event position, then url: the same whatever order the events came in. */
  webhooks: RestoredWebhook[];
  /** By event position. */
  emails: (EmailRecord & { position: bigint })[];
}

/**
 * Pure fold of the outcome streams into the delivery store's state. Independent of order and of
 * duplicates (a journal entry appended twice after a crash): delivered beats failed beats pending, and
 * checkpoints are maxima. Unknown types and malformed data are passed over, so a newer version's events
 * do not stop an older one from restoring.
 */
export function foldDeliveryOutcomes(events: readonly { type: string; data: unknown }[]): RestoredDeliveries {
  const checkpoints: RestoredDeliveries['checkpoints'] = {};
  const webhooks = new Map<string, RestoredWebhook>();
  const emails = new Map<string, EmailRecord & { position: bigint }>();
  const max = (current: bigint | undefined, value: bigint) => (current === undefined || value > current ? value : current);
  const key = (envelopeId: string, url: string) => `${envelopeId}\n${url}`;
  const settle = (
    data: { envelope_id: string; event: string; url: string; attempts: number },
    state: 'delivered' | 'failed',
    status: number | null,
    error: string | null,
  ) => {
    let found = webhooks.get(key(data.envelope_id, data.url));
    if (!found) {
      // Its WebhooksQueued was lost (the store went before that journal entry was appended).
      const at = position(data.event);
      if (at === undefined) return;
      found = pendingWebhook(data.envelope_id, at, data.url);
      webhooks.set(key(data.envelope_id, data.url), found);
    }
    if (found.state === 'delivered' || (found.state === 'failed' && state === 'failed')) return;
    Object.assign(found, { state, attempts: data.attempts, lastStatus: status, lastError: error });
  };
  // Outcomes may precede their WebhooksQueued (two replicas journal independently): two passes.
  const outcomes: (WebhookDelivered | WebhookFailed)[] = [];
  for (const event of events as DeliveryOutcomeEvent[]) {
    const data = event.data as unknown;
    if (typeof data !== 'object' || data === null) continue;
    switch (event.type) {
      case 'WebhooksQueued': {
        const through = position(event.data.through);
        if (through === undefined || !Array.isArray(event.data.deliveries)) break;
        checkpoints.webhooks = max(checkpoints.webhooks, through);
        for (const queued of event.data.deliveries) {
          const at = position(queued?.event);
          if (at === undefined || typeof queued.envelope_id !== 'string' || typeof queued.url !== 'string') continue;
          const k = key(queued.envelope_id, queued.url);
          if (!webhooks.has(k)) webhooks.set(k, pendingWebhook(queued.envelope_id, at, queued.url));
        }
        break;
      }
      case 'WebhookDelivered':
      case 'WebhookFailed':
        if (typeof event.data.envelope_id === 'string' && typeof event.data.url === 'string') outcomes.push(event);
        break;
      case 'EmailSent':
      case 'EmailNotSent': {
        const at = position(event.data.event);
        if (at === undefined || typeof event.data.event_id !== 'string') break;
        checkpoints.email = max(checkpoints.email, at);
        if (!emails.has(event.data.event_id)) {
          emails.set(event.data.event_id, {
            eventId: event.data.event_id,
            serviceRef: String(event.data.service_ref),
            result: event.data.result as EmailResult,
            detail: String(event.data.detail ?? ''),
            messageId: typeof event.data.message_id === 'string' ? event.data.message_id : null,
            position: at,
          });
        }
        break;
      }
      case 'KafkaPublished': {
        const through = position(event.data.through);
        if (through !== undefined) checkpoints.kafka = max(checkpoints.kafka, through);
        break;
      }
      default:
        break;
    }
  }
  for (const event of outcomes) {
    if (event.type === 'WebhookDelivered') settle(event.data, 'delivered', event.data.status, null);
    else settle(event.data, 'failed', event.data.status, event.data.error);
  }
  const byPosition = (a: { position: bigint }, b: { position: bigint }) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);
  return {
    checkpoints,
    webhooks: [...webhooks.values()].sort(
      (a, b) => byPosition({ position: a.eventPosition }, { position: b.eventPosition }) || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0),
    ),
    emails: [...emails.values()].sort(byPosition),
  };
}

/** A webhook delivery as queued, before any outcome. */
function pendingWebhook(envelopeId: string, eventPosition: bigint, url: string): RestoredWebhook {
  return { envelopeId, eventPosition, url, state: 'pending', attempts: 0, lastStatus: null, lastError: null };
}

function position(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !/^\d{1,19}$/.test(value)) return undefined;
  return BigInt(value);
}
