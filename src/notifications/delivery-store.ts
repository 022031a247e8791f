// What the notification consumers remember between runs, as one narrow port per concern: each
// consumer's checkpoint in the log, the webhook deliveries still to make (and what happened to each
// attempt), the e-mails and Kafka messages already dealt with, the leases that keep replicas from
// sending one thing twice at once, and the journal of outcome events still to append to the log
// (delivery-outcomes.ts). A consumer is given the ports it uses and no others.
// Effects and checkpoints that must move together are one call. An adapter makes each such call one
// transaction, or, where it has none, writes the journal events first and the checkpoint last: every
// step is idempotent, so a crash in between leaves at most a journal event appended twice (the fold
// ignores duplicates) or a batch that is handled again (nothing recorded is sent again).
// Adapters: sqlite/ (one file per port over notifications.db) and mongodb/ (one per port over its collections).
import type { JournalEvent, RestoredDeliveries } from './delivery-outcomes.js';
import type { EmailRecord, EmailResult, WebhookDeliveryState } from './delivery-records.js';
import type { LeaseStore } from '../leases/lease-store.js';

export type { EmailRecord, EmailResult, JournalEvent, RestoredDeliveries, WebhookDeliveryState };

/** Consumer names; each has its own checkpoint. */
export const WEBHOOKS = 'webhooks';
export const KAFKA = 'kafka';
export const EMAIL = 'email';

export interface NewWebhookDelivery {
  /** The envelope id, sent as `webhook-id`; the same for every endpoint and every attempt. */
  envelopeId: string;
  /** Log position of the event it announces. */
  eventPosition: bigint;
  companyGroup: string;
  url: string;
  /** The exact request body. */
  body: string;
}

export interface StoredWebhookDelivery extends NewWebhookDelivery {
  id: number;
  state: WebhookDeliveryState;
  /** Attempts whose outcome was recorded. */
  attempts: number;
  /** Epoch ms it is due (again): a delivery is not held in its own record but by its lease. */
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
}

export type AttemptOutcome =
  | { result: 'delivered'; status: number }
  | { result: 'retry'; status: number | null; error: string; nextAttemptAt: number }
  | { result: 'failed'; status: number | null; error: string };

export interface RecordedAttempt {
  deliveryId: number;
  attempt: number;
  /** Epoch ms the attempt started. */
  at: number;
  durationMs: number;
  outcome: AttemptOutcome;
}

/** A restored webhook: pending ones carry what sending needs again; settled ones keep what is known. */
export type RestoreState = Omit<RestoredDeliveries, 'webhooks'> & {
  webhooks: (RestoredDeliveries['webhooks'][number] & { companyGroup: string; body: string })[];
};

/** A journal event waiting to be appended to the log; `id` orders entries and names them for `journalAppended`. */
export interface JournalEntry extends JournalEvent {
  id: string;
}

/** Each consumer's position in the log, and which log the positions count in. */
export interface ConsumerCheckpoints {
  /** The id of the first event of the log the checkpoints count in; undefined until bound. */
  logIdentity(): Promise<string | undefined>;
  bindToLog(logId: string): Promise<void>;
  checkpoint(consumer: string): Promise<bigint | undefined>;
  /** Moves a checkpoint forward; a lower position than the stored one is ignored. */
  saveCheckpoint(consumer: string, position: bigint): Promise<void>;
}

/** A pending delivery as the queue lists those due: what a replica needs to try its lease. */
export interface DueDelivery {
  id: number;
  /** Epoch ms it fell due. */
  nextAttemptAt: number;
}

/**
 * The webhook deliveries still to make, as the delivery loop uses them. The queue says what is due and
 * when; who sends a due delivery is decided by its lease (`webhookLeases`, leases/leased-queue.ts), not here.
 */
export interface WebhookQueue {
  /**
   * Records pending deliveries, due now, and moves the `webhooks` checkpoint, in one transaction.
   * A delivery already recorded for the same envelope and url is left as it is.
   */
  enqueue(deliveries: readonly NewWebhookDelivery[], checkpoint: bigint, now: number, journal?: readonly JournalEvent[]): Promise<void>;
  /**
   * Up to `limit` pending deliveries due at `now`, the one due longest first (then by id), after `after`
   * in that order when given: held ones among them, since holds are leases.
   */
  due(now: number, limit: number, after?: DueDelivery): Promise<DueDelivery[]>;
  /** The delivery as it stands, if it is still pending and due at `now`. */
  dueNow(id: number, now: number): Promise<StoredWebhookDelivery | undefined>;
  /**
   * Records an attempt and its effect on the delivery, with its journal events; ignored unless the
   * delivery is still pending (an adapter without transactions may then still have journaled them: they
   * describe an attempt that was made, and the fold lets `delivered` win).
   */
  recordAttempt(attempt: RecordedAttempt, journal?: readonly JournalEvent[]): Promise<void>;
  /** When the first pending delivery not yet due at `now` falls due (epoch ms), if any. */
  nextDueAfter(now: number): Promise<number | undefined>;
}

/** What operators, gauges and tests read of the webhook deliveries. */
export interface WebhookReport {
  /** How many deliveries are in each state: the backlog is `pending`. */
  counts(): Promise<Record<WebhookDeliveryState, number>>;
  /** Every delivery in insertion order. */
  deliveries(): Promise<StoredWebhookDelivery[]>;
  attempts(deliveryId: number): Promise<RecordedAttempt[]>;
}

/** What became of each event's e-mail. */
export interface EmailRecords {
  find(eventId: string): Promise<EmailRecord | undefined>;
  /** Records what became of an event's e-mail and moves the `email` checkpoint, in one transaction. */
  record(record: EmailRecord, checkpoint: bigint, journal?: readonly JournalEvent[]): Promise<void>;
  /**
   * The same for several events at once, in one transaction: the e-mails a run of orders did not ask
   * for. One commit for a run, not one per order: a log restored with many such orders is caught up
   * without a durable commit for each.
   */
  recordAll(records: readonly { record: EmailRecord; journal: readonly JournalEvent[] }[], checkpoint: bigint): Promise<void>;
}

/** Which events' Kafka messages are published. */
export interface KafkaRecords {
  published(eventId: string): Promise<boolean>;
  /** Records these events' messages as published and moves the `kafka` checkpoint, in one transaction. */
  recordPublished(eventIds: readonly string[], checkpoint: bigint, journal?: readonly JournalEvent[]): Promise<void>;
}

/**
 * The outcome events waiting to be appended to the log (outcome-journal.ts). Which replica appends them
 * is decided by the journal's lease (`journalLeases`), not here.
 */
export interface JournalQueue {
  /** Up to `limit` entries, oldest first. */
  oldest(limit: number): Promise<JournalEntry[]>;
  /** Removes entries once they are in the log. */
  appended(ids: readonly string[]): Promise<void>;
}

/** Putting back a lost store from the log's outcome events (restore-deliveries.ts). */
export interface DeliveryRestore {
  /** No consumer has a checkpoint: a new store, or one that was lost. */
  isEmpty(): Promise<boolean>;
  /**
   * Puts back state folded from the log's outcome events: deliveries (pending ones with their body),
   * e-mail records and checkpoints. Leaves alone what is already there; checkpoints only move forward.
   * The checkpoints are written last, so a store that is no longer empty has everything else.
   */
  restore(state: RestoreState): Promise<void>;
}

/** The ports of one store, opened and closed together by the composition root. */
export interface DeliveryStore {
  checkpoints: ConsumerCheckpoints;
  webhooks: WebhookQueue;
  /** Leases on sending a due webhook delivery, keyed by delivery id (leases/leased-queue.ts). */
  webhookLeases: LeaseStore;
  webhookReport: WebhookReport;
  emails: EmailRecords;
  /** Leases on sending an event's e-mail, keyed by event id. */
  emailLeases: LeaseStore;
  kafka: KafkaRecords;
  /** Leases on publishing an event's Kafka message, keyed by event id. */
  kafkaLeases: LeaseStore;
  journal: JournalQueue;
  /** The lease on appending the journal to the log: one key for the whole journal (outcome-journal.ts). */
  journalLeases: LeaseStore;
  restore: DeliveryRestore;
  close(): Promise<void>;
}
