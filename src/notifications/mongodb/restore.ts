// DeliveryRestore in MongoDB: deliveries and e-mail records first, checkpoints last, so the store
// counts as empty until everything else is back.
import type { DeliveryRestore } from '../delivery-store.js';
import { bulkIgnoringDuplicates } from './bulk-writes.js';
import { saveCheckpoint } from './checkpoints.js';
import type { DeliveryCollections } from './collections.js';
import { emailInsert } from './email-records.js';
import { insertDeliveries } from './webhook-inserts.js';

export function mongoRestore(collections: DeliveryCollections): DeliveryRestore {
  return {
    async isEmpty() {
      return (await collections.checkpoints.findOne({}, { projection: { _id: 1 } })) === null;
    },
    async restore(state) {
      const now = Date.now();
      await insertDeliveries(collections, state.webhooks, now);
      await bulkIgnoringDuplicates(
        collections.emails,
        state.emails.map((email) => ({
          updateOne: { filter: { _id: email.eventId }, update: emailInsert(email, now), upsert: true },
        })),
      );
      for (const [consumer, position] of Object.entries(state.checkpoints)) {
        if (position !== undefined) await saveCheckpoint(collections.checkpoints, consumer, position);
      }
    },
  };
}
