// ConsumerCheckpoints in MongoDB: `notification_checkpoints` (positions only move forward, by $max) and
// `notification_log_identity`.
import type { Collection } from 'mongodb';
import type { ConsumerCheckpoints } from '../delivery-store.js';
import { fromStoredPosition, toStoredPosition } from '../../checkpoints/mongodb-checkpoint-store.js';
import { upsertRacing } from '../../storage/mongodb-duplicate-key.js';
import type { CheckpointDoc, DeliveryCollections } from './collections.js';

export function mongoCheckpoints({ checkpoints, identity }: DeliveryCollections): ConsumerCheckpoints {
  return {
    async logIdentity() {
      return (await identity.findOne({ _id: 'log' }))?.log_id;
    },
    async bindToLog(logId) {
      await upsertRacing(() => identity.updateOne({ _id: 'log' }, { $set: { log_id: logId } }, { upsert: true }));
    },
    async checkpoint(consumer) {
      const document = await checkpoints.findOne({ _id: consumer });
      return document ? fromStoredPosition(document.position) : undefined;
    },
    saveCheckpoint: (consumer, position) => saveCheckpoint(checkpoints, consumer, position),
  };
}

/** Moves a checkpoint forward; the last write of every port call that moves one. */
export async function saveCheckpoint(checkpoints: Collection<CheckpointDoc>, consumer: string, position: bigint): Promise<void> {
  await upsertRacing(() => checkpoints.updateOne({ _id: consumer }, { $max: { position: toStoredPosition(position) } }, { upsert: true }));
}
