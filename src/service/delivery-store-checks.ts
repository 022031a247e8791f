// The notification delivery store as the start-up check sees it: one more consumer of the log, whose
// checkpoints must not lie beyond the log's head and which is bound to one log. It reports damage as
// SQLite's own error: named here, so that start-up refuses it in one line naming the file.
import { EMAIL, KAFKA, WEBHOOKS, type DeliveryStore } from '../notifications/delivery-store.js';
import { damageIn } from '../storage/damaged-storage.js';

/** Runs calls on the store called `name`, damage they find thrown as DamagedStorage naming it. */
export function namingDamage(name: string): <T>(call: () => Promise<T>) => Promise<T> {
  return async (call) => {
    try {
      return await call();
    } catch (error) {
      throw damageIn(name, error);
    }
  };
}

export function deliveryStoreConsumer(name: string, deliveries: DeliveryStore) {
  const named = namingDamage(name);
  return {
    name,
    load: () => named(() => notificationCheckpoints(deliveries)),
    logIdentity: () => named(() => deliveries.checkpoints.logIdentity()),
    bindToLog: (logId: string) => named(() => deliveries.checkpoints.bindToLog(logId)),
  };
}

async function notificationCheckpoints(deliveries: DeliveryStore): Promise<Map<string, bigint>> {
  const positions = new Map<string, bigint>();
  for (const consumer of [WEBHOOKS, EMAIL, KAFKA]) {
    const position = await deliveries.checkpoints.checkpoint(consumer);
    if (position !== undefined) positions.set(consumer, position);
  }
  return positions;
}
