// Inserting webhook deliveries (queued, or put back by a restore) with ids in insertion order, as the
// SQLite store's rowids (unused ones are skipped, never reused).
import type { WebhookDeliveryState } from '../delivery-store.js';
import { toStoredPosition } from '../../checkpoints/mongodb-checkpoint-store.js';
import { insertedFirst } from '../../storage/mongodb-duplicate-key.js';
import { isDuplicateKey } from '../../storage/mongodb-duplicate-key.js';
import { bulkIgnoringDuplicates } from './bulk-writes.js';
import { DELIVERY_COLLECTIONS, type DeliveryCollections } from './collections.js';

export interface DeliveryToInsert {
  envelopeId: string;
  eventPosition: bigint;
  companyGroup: string;
  url: string;
  body: string;
  state?: WebhookDeliveryState;
  attempts?: number;
  lastStatus?: number | null;
  lastError?: string | null;
}

/** A delivery already there for the same envelope and url is left as it is. */
export async function insertDeliveries(collections: DeliveryCollections, rows: readonly DeliveryToInsert[], now: number): Promise<void> {
  const ids = await takeIds(collections, rows.length);
  await bulkIgnoringDuplicates(
    collections.deliveries,
    rows.map((row, i) => ({
      updateOne: {
        filter: { envelope_id: row.envelopeId, url: row.url },
        update: {
          $setOnInsert: {
            _id: ids[i]!,
            envelope_id: row.envelopeId,
            event_position: toStoredPosition(row.eventPosition),
            company_group: row.companyGroup,
            url: row.url,
            body: row.body,
            state: row.state ?? 'pending',
            attempts: row.attempts ?? 0,
            next_attempt_at: now,
            last_status: row.lastStatus ?? null,
            last_error: row.lastError ?? null,
            created_at: now,
            updated_at: now,
            attempt_log: [],
          },
        },
        upsert: true,
      },
    })),
  );
}

// Ids are taken in ranges, each decided by inserting the document of its first id, which holds its
// last: a caller whose insert meets another's range moves on past it. The counter is only a hint of
// where the free ids start (every value it holds is some range's last id, so a stale one costs a few
// steps, never an overlap). On MongoDB `$inc` alone would do; on FerretDB 1.x two replicas' `$inc` read
// the same value and handed out the same ids, and the insert, which ignores duplicates, then dropped
// whole deliveries: webhooks never sent.
async function takeIds({ counters, idRanges }: DeliveryCollections, count: number): Promise<number[]> {
  if (count === 0) return [];
  const sequence = DELIVERY_COLLECTIONS.deliveries;
  let start = Number((await counters.findOne({ _id: sequence }))?.seq ?? 0) + 1;
  while (!(await insertedFirst(idRanges, { _id: `${sequence}#${start}`, end: start + count - 1 }))) {
    const taken = await idRanges.findOne({ _id: `${sequence}#${start}` });
    if (taken) start = Number(taken.end) + 1;
  }
  const end = start + count - 1;
  try {
    await counters.updateOne({ _id: sequence }, { $max: { seq: end } }, { upsert: true });
  } catch (error) {
    // Two first upserts at once: the other's hint is as good.
    if (!isDuplicateKey(error)) throw error;
  }
  return Array.from({ length: count }, (_, i) => start + i);
}
