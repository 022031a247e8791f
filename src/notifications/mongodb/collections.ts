// The collections of the MongoDB delivery store, their documents and indexes. Writes are acknowledged by
// a majority, journaled: "delivered" and the checkpoints are what stop a resend.
import type { Collection, Db, ObjectId } from 'mongodb';
import type { EmailResult, WebhookDeliveryState } from '../delivery-store.js';
import { ensureIndexes } from '../../checkpoints/mongodb-checkpoint-store.js';
import type { LeaseDoc, MarkerDoc } from '../../leases/mongodb-leases.js';

// The leases' collections keep the names they were first given (`*_claims`), which stores in use hold.
export const DELIVERY_COLLECTIONS = {
  checkpoints: 'notification_checkpoints',
  deliveries: 'webhook_deliveries',
  webhookLeases: 'webhook_claims',
  journalLeases: 'journal_claims',
  emailLeases: 'email_claims',
  emails: 'emails',
  kafkaLeases: 'kafka_claims',
  kafkaPublished: 'kafka_published',
  journal: 'notification_journal',
  counters: 'notification_counters',
  logIdentity: 'notification_log_identity',
  leaseMarkers: 'notification_claim_markers',
  idRanges: 'notification_id_ranges',
} as const;

export interface CheckpointDoc {
  _id: string;
  position: bigint;
}

export interface AttemptDoc {
  attempt: number;
  at: number;
  duration_ms: number;
  result: string;
  status: number | null;
  error: string | null;
  next_attempt_at: number | null;
}

export interface DeliveryDoc {
  _id: number;
  envelope_id: string;
  event_position: bigint;
  company_group: string;
  url: string;
  body: string;
  state: WebhookDeliveryState;
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  /** The attempts live in their delivery: one update records an attempt and its effect (at most retries + 1 of them). */
  attempt_log: AttemptDoc[];
}

export interface EmailDoc {
  _id: string;
  service_ref: string;
  result: EmailResult;
  detail: string;
  message_id: string | null;
  recorded_at: number;
}

export interface PublishedDoc {
  _id: string;
  recorded_at: number;
}

export interface JournalDoc {
  _id: ObjectId;
  stream: string;
  type: string;
  /** JSON text: the event's data exactly as it will be appended, whatever its shape. */
  data: string;
}

export interface CounterDoc {
  _id: string;
  seq: number;
}

/** Ids `start` (in the `_id`, `<sequence>#<start>`) to `end` taken by one caller. */
export interface IdRangeDoc {
  _id: string;
  end: number;
}

export interface DeliveryCollections {
  checkpoints: Collection<CheckpointDoc>;
  identity: Collection<{ _id: string; log_id: string }>;
  deliveries: Collection<DeliveryDoc>;
  webhookLeases: Collection<LeaseDoc>;
  journalLeases: Collection<LeaseDoc>;
  emailLeases: Collection<LeaseDoc>;
  emails: Collection<EmailDoc>;
  kafkaLeases: Collection<LeaseDoc>;
  kafkaPublished: Collection<PublishedDoc>;
  journal: Collection<JournalDoc>;
  counters: Collection<CounterDoc>;
  markers: Collection<MarkerDoc>;
  idRanges: Collection<IdRangeDoc>;
}

export async function deliveryCollections(db: Db): Promise<DeliveryCollections> {
  const options = { useBigInt64: true, writeConcern: { w: 'majority' as const, journal: true } };
  const names = DELIVERY_COLLECTIONS;
  const collections: DeliveryCollections = {
    checkpoints: db.collection<CheckpointDoc>(names.checkpoints, options),
    identity: db.collection<{ _id: string; log_id: string }>(names.logIdentity, options),
    deliveries: db.collection<DeliveryDoc>(names.deliveries, options),
    webhookLeases: db.collection<LeaseDoc>(names.webhookLeases, options),
    journalLeases: db.collection<LeaseDoc>(names.journalLeases, options),
    emailLeases: db.collection<LeaseDoc>(names.emailLeases, options),
    emails: db.collection<EmailDoc>(names.emails, options),
    kafkaLeases: db.collection<LeaseDoc>(names.kafkaLeases, options),
    kafkaPublished: db.collection<PublishedDoc>(names.kafkaPublished, options),
    journal: db.collection<JournalDoc>(names.journal, options),
    counters: db.collection<CounterDoc>(names.counters, options),
    markers: db.collection<MarkerDoc>(names.leaseMarkers, options),
    idRanges: db.collection<IdRangeDoc>(names.idRanges, options),
  };
  await ensureIndexes(collections.deliveries, [
    { key: { envelope_id: 1, url: 1 }, name: 'envelope_url', unique: true },
    { key: { state: 1, next_attempt_at: 1, _id: 1 }, name: 'due' },
  ]);
  // releaseAll finds a holder's leases among one document per delivery or event ever sent
  for (const leases of [collections.webhookLeases, collections.emailLeases, collections.kafkaLeases])
    await ensureIndexes(leases, [{ key: { holder: 1 }, name: 'holder' }]);
  return collections;
}
