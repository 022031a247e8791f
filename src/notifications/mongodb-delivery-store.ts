// DeliveryStore in MongoDB (MONGODB_URL), for replicas that share no disk. A standalone mongod is
// enough: no multi-document transaction is used, like the other MongoDB adapters. Instead:
// - Every claim is decided by a unique `_id`, which every MongoDB-protocol server enforces atomically:
//   an insert that meets E11000 is the "no", and only the replica whose insert went in writes the claim.
//   A due webhook delivery is claimed by the marker `<delivery id>@<the due time it was found at>`, then
//   its due time is moved to the lease's end; an e-mail or a Kafka message by inserting its claim
//   document (`_id` = event id), or, once that claim's lease ran out, by the marker
//   `<collection>:<event id>#<next generation>`, then the claim is moved to that generation; journal
//   entries the same way, one by one (`journal:<entry id>#<generation>`). On MongoDB conditional updates
//   alone would do (a single-document update is atomic); the markers make the claims hold where they are
//   not: FerretDB 1.x reads and writes whole documents, so two concurrent updates of one document can
//   both match and the later one undo the earlier (docs/production-backends.md). Markers are a few
//   bytes each, one per webhook attempt or claim taken over, and are kept.
// - A webhook attempt, its outcome and the delivery's new state are one document update (the attempts
//   live in the delivery's `attempt_log`, at most retries + 1 of them).
// - Where the port says "one transaction" (records + journal + checkpoint), the writes are ordered so
//   that every prefix is harmless: journal events first (they describe something already done), then
//   the records (idempotent: unique keys, $setOnInsert), then the checkpoint ($max) last. A crash in
//   between makes the consumer handle the batch again: nothing recorded is sent again, and a journal
//   event may reach the log twice, which the fold (delivery-outcomes.ts) ignores.
// Writes are acknowledged by a majority, journaled: "delivered" and the checkpoints are what stop a
// resend, as synchronous=FULL is for the SQLite store.
import { randomUUID } from 'node:crypto';
import { MongoServerError, ObjectId, type AnyBulkWriteOperation, type Collection, type Db } from 'mongodb';
import { connectMongo, databaseName, ensureIndexes, fromStoredPosition, toStoredPosition } from '../checkpoints/mongodb-checkpoint-store.js';
import type {
  AttemptOutcome, DeliveryStore, EmailResult, JournalEvent, RecordedAttempt, StoredWebhookDelivery, WebhookDeliveryState,
} from './delivery-store.js';
import { EMAIL, KAFKA, WEBHOOKS } from './delivery-store.js';
import { firstToMark, insertedFirst, takeLease, type LeaseDoc, type MarkerDoc } from '../storage/mongodb-lease.js';
import { DUPLICATE_KEY, isDuplicateKey } from '../storage/mongodb-duplicate-key.js';

export const DELIVERY_COLLECTIONS = {
  checkpoints: 'notification_checkpoints',
  deliveries: 'webhook_deliveries',
  emailClaims: 'email_claims',
  emails: 'emails',
  kafkaClaims: 'kafka_claims',
  kafkaPublished: 'kafka_published',
  journal: 'notification_journal',
  counters: 'notification_counters',
  logIdentity: 'notification_log_identity',
  claimMarkers: 'notification_claim_markers',
  idRanges: 'notification_id_ranges',
} as const;

interface CheckpointDoc {
  _id: string;
  position: bigint;
}

interface AttemptDoc {
  attempt: number;
  at: number;
  duration_ms: number;
  result: string;
  status: number | null;
  error: string | null;
  next_attempt_at: number | null;
}

interface DeliveryDoc {
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
  attempt_log: AttemptDoc[];
}

type ClaimDoc = LeaseDoc;

interface EmailDoc {
  _id: string;
  service_ref: string;
  result: EmailResult;
  detail: string;
  message_id: string | null;
  recorded_at: number;
}

interface PublishedDoc {
  _id: string;
  recorded_at: number;
}

interface JournalDoc {
  _id: ObjectId;
  stream: string;
  type: string;
  /** JSON text: the event's data exactly as it will be appended, whatever its shape. */
  data: string;
  holder: string | null;
  lease_until: number;
  /** Taken over this many times: each takeover is decided by the marker of its generation. */
  generation?: number;
}

interface CounterDoc {
  _id: string;
  seq: number;
}

/** Ids `start` (in the `_id`, `<sequence>#<start>`) to `end` taken by one caller. */
interface IdRangeDoc {
  _id: string;
  end: number;
}

const CHUNK = 1000;

export async function openMongoDeliveryStore(url: string, dbName?: string): Promise<DeliveryStore> {
  const client = await connectMongo(url);
  try {
    const db = client.db(databaseName(url, dbName));
    const store = await deliveryStoreIn(db);
    return { ...store, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function deliveryStoreIn(db: Db): Promise<Omit<DeliveryStore, 'close'>> {
  const options = { useBigInt64: true, writeConcern: { w: 'majority' as const, journal: true } };
  const checkpoints: Collection<CheckpointDoc> = db.collection<CheckpointDoc>(DELIVERY_COLLECTIONS.checkpoints, options);
  const deliveries = db.collection<DeliveryDoc>(DELIVERY_COLLECTIONS.deliveries, options);
  const emailClaims = db.collection<ClaimDoc>(DELIVERY_COLLECTIONS.emailClaims, options);
  const emails = db.collection<EmailDoc>(DELIVERY_COLLECTIONS.emails, options);
  const kafkaClaims = db.collection<ClaimDoc>(DELIVERY_COLLECTIONS.kafkaClaims, options);
  const kafkaPublished = db.collection<PublishedDoc>(DELIVERY_COLLECTIONS.kafkaPublished, options);
  const journal = db.collection<JournalDoc>(DELIVERY_COLLECTIONS.journal, options);
  const counters = db.collection<CounterDoc>(DELIVERY_COLLECTIONS.counters, options);
  const identity = db.collection<{ _id: string; log_id: string }>(DELIVERY_COLLECTIONS.logIdentity, options);
  const markers = db.collection<MarkerDoc>(DELIVERY_COLLECTIONS.claimMarkers, options);
  const idRanges = db.collection<IdRangeDoc>(DELIVERY_COLLECTIONS.idRanges, options);

  await ensureIndexes(deliveries, [
    { key: { envelope_id: 1, url: 1 }, name: 'envelope_url', unique: true },
    { key: { state: 1, next_attempt_at: 1, _id: 1 }, name: 'due' },
  ]);
  await ensureIndexes(journal, [{ key: { lease_until: 1, _id: 1 }, name: 'claimable' }]);

  const saveCheckpoint = async (consumer: string, position: bigint) => {
    const save = () => checkpoints.updateOne({ _id: consumer }, { $max: { position: toStoredPosition(position) } }, { upsert: true });
    try {
      await save();
    } catch (error) {
      // Two replicas upserting the first checkpoint at once: the second insert meets the first's `_id`
      // (MongoDB documents this for concurrent upserts too). The document is there now: update it.
      if (!isDuplicateKey(error)) throw error;
      await save();
    }
  };

  const writeJournal = async (events: readonly JournalEvent[] = []) => {
    if (events.length === 0) return;
    await journal.insertMany(
      events.map((event) => ({ _id: new ObjectId(), stream: event.stream, type: event.type, data: JSON.stringify(event.data), holder: null, lease_until: 0, generation: 0 })),
      { ordered: true },
    );
  };

  // Ids in insertion order, as the SQLite store's rowids (unused ones are skipped, never reused).
  // They are taken in ranges, each decided by inserting the document of its first id, which
  // holds its last: a caller whose insert meets another's range moves on past it. The counter is only
  // a hint of where the free ids start (every value it holds is some range's last id, so a stale one
  // costs a few steps, never an overlap). On MongoDB `$inc` alone would do; on FerretDB 1.x two
  // replicas' `$inc` read the same value and handed out the same ids (545 of 1,800 in a test here), and
  // the insert below, which ignores duplicates, then dropped whole deliveries: webhooks never sent.
  const takeIds = async (count: number): Promise<number[]> => {
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
  };

  /**
   * Writes that may meet documents already there: duplicates are what "leave it as it is" means. Every
   * operation given must be idempotent (an upsert of `$setOnInsert`), since some are sent again.
   */
  const bulkIgnoringDuplicates = async <T extends { _id: unknown }>(collection: Collection<T>, operations: AnyBulkWriteOperation<T>[]) => {
    for (let i = 0; i < operations.length; i += CHUNK) {
      let pending = operations.slice(i, i + CHUNK);
      while (pending.length > 0) {
        try {
          await collection.bulkWrite(pending, { ordered: false });
          break;
        } catch (error) {
          if (!onlyDuplicates(error)) throw error;
          // FerretDB 1.x ends an unordered bulk write at its first error, where MongoDB goes on: what
          // came after the first duplicate was never written, and two replicas enqueueing the same
          // event lost the deliveries behind it. So everything after it is sent again (on MongoDB,
          // writes that are there already: duplicates, or upserts that match and change nothing).
          pending = pending.slice(firstFailedIndex(error) + 1);
        }
      }
    }
  };

  const claim = (collection: Collection<ClaimDoc>, id: string, holder: string, now: number, leaseUntil: number): Promise<boolean> =>
    takeLease(collection, markers, id, holder, now, leaseUntil);

  const insertDeliveries = async (
    rows: readonly { envelopeId: string; eventPosition: bigint; companyGroup: string; url: string; body: string; state?: WebhookDeliveryState; attempts?: number; lastStatus?: number | null; lastError?: string | null }[],
    now: number,
  ) => {
    const ids = await takeIds(rows.length);
    await bulkIgnoringDuplicates(deliveries, rows.map((row, i) => ({
      updateOne: {
        filter: { envelope_id: row.envelopeId, url: row.url },
        update: {
          $setOnInsert: {
            _id: ids[i]!, envelope_id: row.envelopeId, event_position: toStoredPosition(row.eventPosition), company_group: row.companyGroup, url: row.url,
            body: row.body, state: row.state ?? 'pending', attempts: row.attempts ?? 0, next_attempt_at: now,
            last_status: row.lastStatus ?? null, last_error: row.lastError ?? null, created_at: now, updated_at: now, attempt_log: [],
          },
        },
        upsert: true,
      },
    })));
  };

  const withoutLog = { projection: { attempt_log: 0 } } as const;

  return {
    async logIdentity() {
      return (await identity.findOne({ _id: 'log' }))?.log_id;
    },
    async bindToLog(logId) {
      await identity.updateOne({ _id: 'log' }, { $set: { log_id: logId } }, { upsert: true });
    },
    async checkpoint(consumer) {
      const document = await checkpoints.findOne({ _id: consumer });
      return document ? fromStoredPosition(document.position) : undefined;
    },
    saveCheckpoint,
    async enqueueWebhooks(rows, checkpoint, now, events = []) {
      await writeJournal(events);
      await insertDeliveries(rows, now);
      await saveCheckpoint(WEBHOOKS, checkpoint);
    },
    async claimDueWebhook(now, leaseUntil) {
      // Read, then mark, then write: of the replicas that found a delivery due at the same moment, the one
      // that inserts its marker first moves its due time to the lease's end; the others write nothing
      // (FerretDB 1.x writes whole documents, so a loser's write could undo the winner's record).
      const candidates = await deliveries
        .find({ state: 'pending', next_attempt_at: { $lte: now } }, { sort: { next_attempt_at: 1, _id: 1 }, limit: 8 })
        .toArray();
      for (const due of candidates) {
        if (!(await firstToMark(markers, `${due._id}@${due.next_attempt_at}`, now))) continue;
        const taken = await deliveries.updateOne(
          { _id: due._id, state: 'pending', next_attempt_at: due.next_attempt_at },
          { $set: { next_attempt_at: leaseUntil, updated_at: now } },
        );
        if (taken.matchedCount === 1) return toDelivery({ ...due, next_attempt_at: leaseUntil, updated_at: now });
      }
      return undefined;
    },
    async recordWebhookAttempt(attempt, events = []) {
      const { outcome } = attempt;
      const now = Date.now();
      await writeJournal(events);
      const entry: AttemptDoc = {
        attempt: attempt.attempt,
        at: attempt.at,
        duration_ms: Math.round(attempt.durationMs),
        result: outcome.result,
        status: outcome.status,
        error: outcome.result === 'delivered' ? null : outcome.error,
        next_attempt_at: outcome.result === 'retry' ? outcome.nextAttemptAt : null,
      };
      await deliveries.updateOne(
        { _id: attempt.deliveryId, state: 'pending' },
        {
          $set: {
            state: outcome.result === 'retry' ? 'pending' : outcome.result,
            next_attempt_at: outcome.result === 'retry' ? outcome.nextAttemptAt : now,
            last_status: outcome.status,
            last_error: entry.error,
            updated_at: now,
          },
          $inc: { attempts: 1 },
          $push: { attempt_log: entry },
        },
      );
    },
    async nextWebhookDueAt() {
      const [next] = await deliveries.find({ state: 'pending' }, { sort: { next_attempt_at: 1 }, limit: 1, projection: { next_attempt_at: 1 } }).toArray();
      return next ? Number(next.next_attempt_at) : undefined;
    },
    async webhookDeliveryCounts() {
      const counts: Record<WebhookDeliveryState, number> = { pending: 0, delivered: 0, failed: 0 };
      for (const row of await deliveries.aggregate<{ _id: WebhookDeliveryState; count: number }>([{ $group: { _id: '$state', count: { $sum: 1 } } }]).toArray()) {
        counts[row._id] = Number(row.count);
      }
      return counts;
    },
    async webhookDeliveries() {
      return (await deliveries.find({}, { sort: { _id: 1 }, ...withoutLog }).toArray()).map(toDelivery);
    },
    async webhookAttempts(deliveryId) {
      const document = await deliveries.findOne({ _id: deliveryId }, { projection: { attempt_log: 1 } });
      return (document?.attempt_log ?? []).map((entry) => toAttempt(deliveryId, entry)).sort((a, b) => a.attempt - b.attempt);
    },
    async emailRecord(eventId) {
      const row = await emails.findOne({ _id: eventId });
      return row ? { eventId: row._id, serviceRef: row.service_ref, result: row.result, detail: row.detail, messageId: row.message_id ?? null } : undefined;
    },
    claimEmail: (eventId, holder, now, leaseUntil) => claim(emailClaims, eventId, holder, now, leaseUntil),
    async recordEmail(record, checkpoint, events = []) {
      await writeJournal(events);
      await emails.updateOne(
        { _id: record.eventId },
        { $setOnInsert: { service_ref: record.serviceRef, result: record.result, detail: record.detail, message_id: record.messageId, recorded_at: Date.now() } },
        { upsert: true },
      );
      await saveCheckpoint(EMAIL, checkpoint);
    },
    async kafkaPublished(eventId) {
      return (await kafkaPublished.findOne({ _id: eventId }, { projection: { _id: 1 } })) !== null;
    },
    claimKafka: (eventId, holder, now, leaseUntil) => claim(kafkaClaims, eventId, holder, now, leaseUntil),
    async recordKafkaPublished(eventIds, checkpoint, events = []) {
      await writeJournal(events);
      const now = Date.now();
      await bulkIgnoringDuplicates(kafkaPublished, eventIds.map((id) => ({ updateOne: { filter: { _id: id }, update: { $setOnInsert: { recorded_at: now } }, upsert: true } })));
      await saveCheckpoint(KAFKA, checkpoint);
    },
    async claimJournal(holder, now, leaseUntil, limit) {
      const claimable = { $or: [{ lease_until: { $lte: now } }, { holder }] };
      const candidates = await journal.find(claimable, { sort: { _id: 1 }, limit }).toArray();
      const taken: JournalDoc[] = [];
      // Entry by entry, as an e-mail claim: a renewal of this holder's own lease, or a move to the next
      // generation, written only by the replica whose marker of that generation went in first.
      for (const entry of candidates) {
        const generation = Number(entry.generation ?? 0);
        const asFound = { _id: entry._id, holder: entry.holder, lease_until: entry.lease_until, generation: entry.generation ?? { $exists: false } };
        if (entry.holder === holder && entry.lease_until > now) {
          if ((await journal.updateOne(asFound, { $set: { lease_until: leaseUntil } })).matchedCount === 1) taken.push(entry);
          continue;
        }
        if (!(await firstToMark(markers, `journal:${entry._id.toHexString()}#${generation + 1}`, now))) continue;
        const moved = await journal.updateOne({ _id: entry._id, generation: entry.generation ?? { $exists: false } }, { $set: { holder, lease_until: leaseUntil, generation: generation + 1 } });
        if (moved.matchedCount === 1) taken.push(entry);
      }
      return taken.map((entry) => ({ id: entry._id.toHexString(), stream: entry.stream, type: entry.type, data: JSON.parse(entry.data) as unknown }));
    },
    async releaseClaims(holder) {
      await emailClaims.updateMany({ holder }, { $set: { lease_until: 0 } });
      await kafkaClaims.updateMany({ holder }, { $set: { lease_until: 0 } });
      await journal.updateMany({ holder }, { $set: { holder: null, lease_until: 0 } });
    },
    async journalAppended(ids) {
      if (ids.length === 0) return;
      await journal.deleteMany({ _id: { $in: ids.map((id) => new ObjectId(id)) } });
    },
    async isEmpty() {
      return (await checkpoints.findOne({}, { projection: { _id: 1 } })) === null;
    },
    async restore(state) {
      const now = Date.now();
      await insertDeliveries(state.webhooks, now);
      await bulkIgnoringDuplicates(emails, state.emails.map((email) => ({
        updateOne: {
          filter: { _id: email.eventId },
          update: { $setOnInsert: { service_ref: email.serviceRef, result: email.result, detail: email.detail, message_id: email.messageId, recorded_at: now } },
          upsert: true,
        },
      })));
      // Last: the store counts as empty until a checkpoint is there.
      for (const [consumer, position] of Object.entries(state.checkpoints)) if (position !== undefined) await saveCheckpoint(consumer, position);
    },
  };
}

function writeErrorsOf(error: MongoServerError): { code?: number; index?: number }[] {
  const writeErrors = (error as MongoServerError & { writeErrors?: unknown }).writeErrors;
  return Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors as { code?: number; index?: number }] : [];
}

/** The index in its batch of the first operation a bulk write refused (0 when the error does not say). */
function firstFailedIndex(error: unknown): number {
  const indexes = writeErrorsOf(error as MongoServerError).map((entry) => entry.index).filter((index): index is number => typeof index === 'number');
  return indexes.length > 0 ? Math.min(...indexes) : 0;
}

/** A bulk write that failed only because some documents were there already (E11000 on a unique key). */
function onlyDuplicates(error: unknown): boolean {
  if (!(error instanceof MongoServerError)) return false;
  const list = writeErrorsOf(error);
  if (list.length === 0) return error.code === DUPLICATE_KEY;
  return list.every((entry: { code?: number }) => entry.code === DUPLICATE_KEY) && !(error as { writeConcernError?: unknown }).writeConcernError;
}

function toDelivery(document: Omit<DeliveryDoc, 'attempt_log'>): StoredWebhookDelivery {
  return {
    id: Number(document._id),
    envelopeId: document.envelope_id,
    eventPosition: fromStoredPosition(document.event_position),
    companyGroup: document.company_group,
    url: document.url,
    body: document.body,
    state: document.state,
    attempts: Number(document.attempts),
    nextAttemptAt: Number(document.next_attempt_at),
    // `?? null`: a null written by $setOnInsert may come back missing (FerretDB 1.24 leaves such fields out).
    lastStatus: document.last_status == null ? null : Number(document.last_status),
    lastError: document.last_error ?? null,
  };
}

function toAttempt(deliveryId: number, entry: AttemptDoc): RecordedAttempt {
  const status = entry.status === null ? null : Number(entry.status);
  const error = entry.error ?? '';
  let outcome: AttemptOutcome;
  if (entry.result === 'delivered') outcome = { result: 'delivered', status: status ?? 0 };
  else if (entry.result === 'retry') outcome = { result: 'retry', status, error, nextAttemptAt: Number(entry.next_attempt_at ?? 0) };
  else outcome = { result: 'failed', status, error };
  return { deliveryId, attempt: Number(entry.attempt), at: Number(entry.at), durationMs: Number(entry.duration_ms), outcome };
}
