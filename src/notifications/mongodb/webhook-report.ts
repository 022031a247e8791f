// WebhookReport in MongoDB: reads only.
import type { WebhookDeliveryState, WebhookReport } from '../delivery-store.js';
import type { DeliveryCollections } from './collections.js';
import { toAttempt, toDelivery } from './webhook-documents.js';

export function mongoWebhookReport({ deliveries }: DeliveryCollections): WebhookReport {
  return {
    async counts() {
      const counts: Record<WebhookDeliveryState, number> = { pending: 0, delivered: 0, failed: 0 };
      for (const row of await deliveries
        .aggregate<{ _id: WebhookDeliveryState; count: number }>([{ $group: { _id: '$state', count: { $sum: 1 } } }])
        .toArray()) {
        counts[row._id] = Number(row.count);
      }
      return counts;
    },
    async deliveries() {
      return (await deliveries.find({}, { sort: { _id: 1 }, projection: { attempt_log: 0 } }).toArray()).map(toDelivery);
    },
    async attempts(deliveryId) {
      const document = await deliveries.findOne({ _id: deliveryId }, { projection: { attempt_log: 1 } });
      return (document?.attempt_log ?? []).map((entry) => toAttempt(deliveryId, entry)).sort((a, b) => a.attempt - b.attempt);
    },
  };
}
