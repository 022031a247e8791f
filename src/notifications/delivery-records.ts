// What became of a notification, as both the delivery store (delivery-store.ts) and the fold of the
// outcome events (delivery-outcomes.ts) name it: each of those two stands on these, neither on the other.

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

export type EmailResult = 'sent' | 'written' | 'skipped' | 'failed';

export interface EmailRecord {
  eventId: string;
  serviceRef: string;
  result: EmailResult;
  /** Server response, file path, or why it was skipped or failed. */
  detail: string;
  messageId: string | null;
}
