// Before any notification consumer starts: a delivery store found empty (deleted, or a new database)
// while the log holds delivery outcomes is filled back from them, so that nothing the log shows as
// delivered, sent or published goes out again. Costs three look-ups when there is nothing to do; a
// restore reads the three outcome streams whole, once.
import type { EventStore } from '../eventstore/event-store.js';
import type { DeliveryStore, RestoreState } from './delivery-store.js';
import { foldDeliveryOutcomes, OUTCOME_STREAMS } from './delivery-outcomes.js';
import type { Log } from './notification-consumer.js';
import { envelopeBody, envelopeIdFor, isAnnounced } from './ready-envelope.js';

export interface RestoreSummary {
  webhooks: number;
  pendingWebhooks: number;
  emails: number;
  checkpoints: RestoreState['checkpoints'];
}

export async function restoreDeliveries(
  store: EventStore,
  deliveries: Pick<DeliveryStore, 'restore'>,
  log: Log,
): Promise<RestoreSummary | undefined> {
  if (!(await deliveries.restore.isEmpty())) return undefined;
  const last = await Promise.all(OUTCOME_STREAMS.map((stream) => store.readLastEvent(stream)));
  if (last.every((event) => event === undefined)) return undefined;

  const events = (await Promise.all(OUTCOME_STREAMS.map((stream) => store.readStream(stream)))).flat();
  const folded = foldDeliveryOutcomes(events);
  const webhooks: RestoreState['webhooks'] = [];
  for (const webhook of folded.webhooks) {
    if (webhook.state !== 'pending') {
      // Never sent again: what it was sent with is not needed (nor kept in the log).
      webhooks.push({ ...webhook, companyGroup: '', body: '' });
      continue;
    }
    // Queued and not settled when the store was lost: queued again, with the body derived from the event as before.
    const [event] = await store.readAll(webhook.eventPosition === 0n ? undefined : webhook.eventPosition - 1n, 1);
    if (event && event.position === webhook.eventPosition && isAnnounced(event) && envelopeIdFor(event) === webhook.envelopeId) {
      webhooks.push({ ...webhook, companyGroup: event.data.company_group, body: envelopeBody(event) });
    } else {
      webhooks.push({
        ...webhook,
        state: 'failed',
        companyGroup: '',
        body: '',
        lastError: `restored from the log, but its event is not at position ${webhook.eventPosition}`,
      });
    }
  }
  await deliveries.restore.restore({ checkpoints: folded.checkpoints, webhooks, emails: folded.emails });
  const summary: RestoreSummary = {
    webhooks: webhooks.length,
    pendingWebhooks: webhooks.filter((webhook) => webhook.state === 'pending').length,
    emails: folded.emails.length,
    checkpoints: folded.checkpoints,
  };
  const at = Object.entries(folded.checkpoints)
    .map(([consumer, position]) => `${consumer} at ${position}`)
    .join(', ');
  log(
    `notifications: the delivery store was empty but the log holds delivery outcomes: restored ${summary.webhooks} webhook deliveries ` +
      `(${summary.pendingWebhooks} still to send), ${summary.emails} e-mail records and the checkpoints (${at || 'none'}) from ${events.length} events`,
    undefined,
    'warn',
  );
  return summary;
}
