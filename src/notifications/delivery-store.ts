// What the notification consumers remember between runs: each consumer's checkpoint in the log, the
// webhook deliveries still to make (and what happened to each attempt), and the e-mails already dealt
// with. Effects and checkpoints that must move together are one call, so an adapter can make them
// one transaction.

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

export type EmailResult = 'sent' | 'written' | 'skipped' | 'failed';

export interface EmailRecord {
  eventId: string;
  serviceRef: string;
  result: EmailResult;
  /** Server response, file path, or why it was skipped or failed. */
  detail: string;
  messageId: string | null;
}

export interface DeliveryStore {
  checkpoint(consumer: string): Promise<bigint | undefined>;
  /** Moves a checkpoint forward; a lower position than the stored one is ignored. */
  saveCheckpoint(consumer: string, position: bigint): Promise<void>;

  /**
   * Records pending deliveries, due now, and moves the `webhooks` checkpoint, in one transaction.
   * A delivery already recorded for the same envelope and url is left as it is.
   */
  enqueueWebhooks(deliveries: readonly NewWebhookDelivery[], checkpoint: bigint, now: number): Promise<void>;
  /**
   * Takes the pending delivery that has been due longest and holds it until `leaseUntil`: neither
   * this loop nor another process sends it again before then, and if this process dies mid-attempt
   * it becomes due again when the hold runs out.
   */
  claimDueWebhook(now: number, leaseUntil: number): Promise<StoredWebhookDelivery | undefined>;
  /** Records an attempt and its effect on the delivery; ignored unless the delivery is still pending. */
  recordWebhookAttempt(attempt: RecordedAttempt): Promise<void>;
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
  recordEmail(record: EmailRecord, checkpoint: bigint): Promise<void>;

  close(): Promise<void>;
}
