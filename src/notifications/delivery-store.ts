// What the notification consumers remember between runs: each consumer's checkpoint in the log, the
// webhook deliveries still to make (and what happened to each attempt), the e-mails and Kafka messages
// already dealt with, the claims that keep replicas from sending one thing twice, and the journal of
// outcome events still to append to the log (delivery-outcomes.ts). Effects and checkpoints that must
// move together are one call. An adapter makes each such call one transaction, or, where it has none,
// writes the journal events first and the checkpoint last: every step is idempotent, so a crash in
// between leaves at most a journal event appended twice (the fold ignores duplicates) or a batch that
// is handled again (nothing recorded is sent again).
import type { JournalEvent, RestoredDeliveries } from './delivery-outcomes.js';

export type { JournalEvent, RestoredDeliveries };

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

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

export interface StoredWebhookDelivery extends NewWebhookDelivery {
  id: number;
  state: WebhookDeliveryState;
  /** Attempts whose outcome was recorded. */
  attempts: number;
  /** Epoch ms; for a claimed delivery, when its claim runs out. */
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

export type EmailResult = 'sent' | 'written' | 'skipped' | 'failed';

export interface EmailRecord {
  eventId: string;
  serviceRef: string;
  result: EmailResult;
  /** Server response, file path, or why it was skipped or failed. */
  detail: string;
  messageId: string | null;
}

/** A journal event waiting to be appended to the log; `id` orders entries and names them for `journalAppended`. */
export interface JournalEntry extends JournalEvent {
  id: string;
}

export interface DeliveryStore {
  /** The id of the first event of the log its checkpoints count in; undefined until bound. */
  logIdentity(): Promise<string | undefined>;
  bindToLog(logId: string): Promise<void>;
  checkpoint(consumer: string): Promise<bigint | undefined>;
  /** Moves a checkpoint forward; a lower position than the stored one is ignored. */
  saveCheckpoint(consumer: string, position: bigint): Promise<void>;

  /**
   * Records pending deliveries, due now, and moves the `webhooks` checkpoint, in one transaction.
   * A delivery already recorded for the same envelope and url is left as it is.
   */
  enqueueWebhooks(deliveries: readonly NewWebhookDelivery[], checkpoint: bigint, now: number, journal?: readonly JournalEvent[]): Promise<void>;
  /**
   * Takes the pending delivery that has been due longest and holds it until `leaseUntil`: neither
   * this loop nor another process sends it again before then, and if this process dies mid-attempt
   * it becomes due again when the hold runs out.
   */
  claimDueWebhook(now: number, leaseUntil: number): Promise<StoredWebhookDelivery | undefined>;
  /**
   * Records an attempt and its effect on the delivery, with its journal events; ignored unless the
   * delivery is still pending (an adapter without transactions may then still have journaled them: they
   * describe an attempt that was made, and the fold lets `delivered` win).
   */
  recordWebhookAttempt(attempt: RecordedAttempt, journal?: readonly JournalEvent[]): Promise<void>;
  /** When the next pending delivery is due (epoch ms), if any is pending. */
  nextWebhookDueAt(): Promise<number | undefined>;
  /** How many deliveries are in each state: the backlog is `pending`. */
  webhookDeliveryCounts(): Promise<Record<WebhookDeliveryState, number>>;
  /** Every delivery in insertion order: for operators and tests. */
  webhookDeliveries(): Promise<StoredWebhookDelivery[]>;
  webhookAttempts(deliveryId: number): Promise<RecordedAttempt[]>;

  emailRecord(eventId: string): Promise<EmailRecord | undefined>;
  /**
   * Takes the right to send an event's e-mail until `leaseUntil` for `holder` (one id per running
   * sender): true when it holds it (no one did, it did already, or another holder's lease ran out),
   * false while another holder's lease runs. Two
   * processes on one store never send the same e-mail at once; a holder that dies lets it go when
   * its lease runs out.
   */
  claimEmail(eventId: string, holder: string, now: number, leaseUntil: number): Promise<boolean>;
  /** Records what became of an event's e-mail and moves the `email` checkpoint, in one transaction. */
  recordEmail(record: EmailRecord, checkpoint: bigint, journal?: readonly JournalEvent[]): Promise<void>;

  /** Whether the event's Kafka message is recorded as published. */
  kafkaPublished(eventId: string): Promise<boolean>;
  /** Like claimEmail, for an event's Kafka message. */
  claimKafka(eventId: string, holder: string, now: number, leaseUntil: number): Promise<boolean>;
  /** Records these events' messages as published and moves the `kafka` checkpoint, in one transaction. */
  recordKafkaPublished(eventIds: readonly string[], checkpoint: bigint, journal?: readonly JournalEvent[]): Promise<void>;

  /**
   * Takes up to `limit` journal entries no one else holds (or whose hold ran out), oldest first, for `holder`
   * until `leaseUntil`: two replicas do not append the same entries at once.
   */
  claimJournal(holder: string, now: number, leaseUntil: number, limit: number): Promise<JournalEntry[]>;
  /**
   * Lets go of every e-mail, Kafka and journal claim `holder` has: a replica that stops cleanly leaves
   * what it had not finished to the others at once, not when its leases run out.
   */
  releaseClaims(holder: string): Promise<void>;
  /** Removes entries once they are in the log. */
  journalAppended(ids: readonly string[]): Promise<void>;

  /** No consumer has a checkpoint: a new store, or one that was lost. */
  isEmpty(): Promise<boolean>;
  /**
   * Puts back state folded from the log's outcome events: deliveries (pending ones with their body),
   * e-mail records and checkpoints. Leaves alone what is already there; checkpoints only move forward.
   * The checkpoints are written last, so a store that is no longer empty has everything else.
   */
  restore(state: RestoreState): Promise<void>;

  close(): Promise<void>;
}
