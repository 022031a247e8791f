// WebhookReport in notifications.db: reads only.
import type { WebhookDeliveryState, WebhookReport } from '../delivery-store.js';
import type { DeliveryDatabase } from './delivery-database.js';
import { DELIVERY_COLUMNS, toAttempt, toDelivery, type AttemptRow, type DeliveryRow } from './webhook-rows.js';
import { INTEGER_PARAM } from '../../storage/sqlite-parameters.js';

export function sqliteWebhookReport({ db, guard }: DeliveryDatabase): WebhookReport {
  const countByState = db.prepare<[], { state: WebhookDeliveryState; count: bigint }>(
    'SELECT state, count(*) AS count FROM webhook_deliveries GROUP BY state',
  );
  const allDeliveries = db.prepare<[], DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries ORDER BY id`);
  const attemptsOf = db.prepare<[number], AttemptRow>(
    `SELECT * FROM webhook_attempts WHERE delivery_id = ${INTEGER_PARAM} ORDER BY attempt`,
  );
  return {
    async counts() {
      guard();
      const counts: Record<WebhookDeliveryState, number> = { pending: 0, delivered: 0, failed: 0 };
      for (const { state, count } of countByState.all()) counts[state] = Number(count);
      return counts;
    },
    async deliveries() {
      guard();
      return allDeliveries.all().map(toDelivery);
    },
    async attempts(deliveryId) {
      guard();
      return attemptsOf.all(deliveryId).map(toAttempt);
    },
  };
}
