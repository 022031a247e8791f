// DeliveryStore in `<dataDir>/notifications.db`. "Delivered" and the checkpoints are what stop a resend,
// so they must survive power loss as well as a crash: every write resolves once the -wal file is fsynced.
// The fsync runs off the main thread (storage/wal-sync.ts, synchronous=NORMAL): with FULL, a few commits
// per planned order blocked the event loop for as long as all the submits' own work (issue 27).
import Database from 'better-sqlite3';
import { openInWalMode } from '../storage/open-in-wal-mode.js';
import { walSync } from '../storage/wal-sync.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type {
  AttemptOutcome, DeliveryStore, EmailRecord, EmailResult, JournalEvent, NewWebhookDelivery, RecordedAttempt, RestoreState, StoredWebhookDelivery, WebhookDeliveryState,
} from './delivery-store.js';
import { EMAIL, KAFKA, WEBHOOKS } from './delivery-store.js';

export const NOTIFICATIONS_FILE = 'notifications.db';

interface DeliveryRow {
  id: bigint;
  envelope_id: string;
  event_position: bigint;
  company_group: string;
  url: string;
  body: string;
  state: string;
  attempts: bigint;
  next_attempt_at: bigint;
  last_status: bigint | null;
  last_error: string | null;
}

interface AttemptRow {
  delivery_id: bigint;
  attempt: bigint;
  at: bigint;
  duration_ms: bigint;
  result: string;
  status: bigint | null;
  error: string | null;
  next_attempt_at: bigint | null;
}

interface EmailRow {
  event_id: string;
  service_ref: string;
  result: string;
  detail: string;
  message_id: string | null;
}

const DELIVERY_COLUMNS = 'id, envelope_id, event_position, company_group, url, body, state, attempts, next_attempt_at, last_status, last_error';

export function openSqliteDeliveryStore(dataDir: string): DeliveryStore {
  mkdirSync(dataDir, { recursive: true });
  const db = openInWalMode(join(dataDir, NOTIFICATIONS_FILE));
  db.pragma('synchronous = NORMAL');
  // Several consumers (and possibly processes) share the file; wait for the write lock, don't fail.
  db.pragma('busy_timeout = 5000');
  db.defaultSafeIntegers(true);
  db.exec(`
    CREATE TABLE IF NOT EXISTS checkpoints (consumer TEXT PRIMARY KEY, position INTEGER NOT NULL);
    -- log_id: the id of the log's first event, naming the log the checkpoints count in
    CREATE TABLE IF NOT EXISTS log_identity (only INTEGER PRIMARY KEY CHECK (only = 1), log_id TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS webhook_deliveries (
      id INTEGER PRIMARY KEY,
      envelope_id TEXT NOT NULL,
      event_position INTEGER NOT NULL,
      company_group TEXT NOT NULL,
      url TEXT NOT NULL,
      body TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      last_status INTEGER,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (envelope_id, url)
    );
    CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
    CREATE TABLE IF NOT EXISTS webhook_attempts (
      delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id),
      attempt INTEGER NOT NULL,
      at INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL,
      result TEXT NOT NULL,
      status INTEGER,
      error TEXT,
      next_attempt_at INTEGER,
      PRIMARY KEY (delivery_id, attempt)
    );
    CREATE TABLE IF NOT EXISTS email_claims (event_id TEXT PRIMARY KEY, holder TEXT NOT NULL, lease_until INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS emails (
      event_id TEXT PRIMARY KEY,
      service_ref TEXT NOT NULL,
      result TEXT NOT NULL,
      detail TEXT NOT NULL,
      message_id TEXT,
      recorded_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS kafka_claims (event_id TEXT PRIMARY KEY, holder TEXT NOT NULL, lease_until INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS kafka_published (event_id TEXT PRIMARY KEY, recorded_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS outcome_journal (
      id INTEGER PRIMARY KEY,
      stream TEXT NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      holder TEXT,
      lease_until INTEGER NOT NULL DEFAULT 0
    );
  `);

  const readCheckpoint = db.prepare<[string], bigint>('SELECT position FROM checkpoints WHERE consumer = ?').pluck();
  const writeCheckpoint = db.prepare<[string, bigint]>(
    'INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = max(position, excluded.position)',
  );
  const insertDelivery = db.prepare(`
    INSERT INTO webhook_deliveries (envelope_id, event_position, company_group, url, body, state, next_attempt_at, created_at, updated_at)
    VALUES (@envelopeId, @eventPosition, @companyGroup, @url, @body, 'pending', @now, @now, @now)
    ON CONFLICT (envelope_id, url) DO NOTHING`);
  // One statement, so the choice and the hold cannot be split by another writer.
  const claim = db.prepare<[number, number, number], DeliveryRow>(`
    UPDATE webhook_deliveries SET next_attempt_at = ?, updated_at = ?
     WHERE id = (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1)
    RETURNING ${DELIVERY_COLUMNS}`);
  const updateDelivery = db.prepare(`
    UPDATE webhook_deliveries
       SET state = @state, attempts = attempts + 1, next_attempt_at = @nextAttemptAt, last_status = @status, last_error = @error, updated_at = @now
     WHERE id = @id AND state = 'pending'`);
  const insertAttempt = db.prepare(`
    INSERT OR IGNORE INTO webhook_attempts (delivery_id, attempt, at, duration_ms, result, status, error, next_attempt_at)
    VALUES (@deliveryId, @attempt, @at, @durationMs, @result, @status, @error, @nextAttemptAt)`);
  const nextDue = db.prepare<[], bigint | null>("SELECT min(next_attempt_at) FROM webhook_deliveries WHERE state = 'pending'").pluck();
  const countByState = db.prepare<[], { state: WebhookDeliveryState; count: bigint }>('SELECT state, count(*) AS count FROM webhook_deliveries GROUP BY state');
  const allDeliveries = db.prepare<[], DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries ORDER BY id`);
  const attemptsOf = db.prepare<[number], AttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt');
  const readEmail = db.prepare<[string], EmailRow>('SELECT event_id, service_ref, result, detail, message_id FROM emails WHERE event_id = ?');
  const insertEmail = db.prepare(`
    INSERT INTO emails (event_id, service_ref, result, detail, message_id, recorded_at) VALUES (@eventId, @serviceRef, @result, @detail, @messageId, @now)
    ON CONFLICT (event_id) DO NOTHING`);

  // One statement: taking a free or expired claim and seeing it taken cannot be split by another process.
  const claimEmailRow = db.prepare<[string, string, number, number], { event_id: string }>(`
    INSERT INTO email_claims (event_id, holder, lease_until) VALUES (?, ?, ?)
    ON CONFLICT (event_id) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
     WHERE email_claims.lease_until <= ? OR email_claims.holder = excluded.holder
    RETURNING event_id`);

  const claimKafkaRow = db.prepare<[string, string, number, number], { event_id: string }>(`
    INSERT INTO kafka_claims (event_id, holder, lease_until) VALUES (?, ?, ?)
    ON CONFLICT (event_id) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
     WHERE kafka_claims.lease_until <= ? OR kafka_claims.holder = excluded.holder
    RETURNING event_id`);
  const readPublished = db.prepare<[string], bigint>('SELECT 1 FROM kafka_published WHERE event_id = ?').pluck();
  const insertPublished = db.prepare<[string, number]>('INSERT INTO kafka_published (event_id, recorded_at) VALUES (?, ?) ON CONFLICT (event_id) DO NOTHING');
  const insertJournal = db.prepare<[string, string, string]>('INSERT INTO outcome_journal (stream, type, data) VALUES (?, ?, ?)');
  // One statement: choosing the entries and holding them cannot be split by another process.
  const claimJournalRows = db.prepare<{ holder: string; leaseUntil: number; now: number; limit: number }, { id: bigint; stream: string; type: string; data: string }>(`
    UPDATE outcome_journal SET holder = @holder, lease_until = @leaseUntil
     WHERE id IN (SELECT id FROM outcome_journal WHERE lease_until <= @now OR holder = @holder ORDER BY id LIMIT @limit)
    RETURNING id, stream, type, data`);
  const deleteJournal = db.prepare<[bigint]>('DELETE FROM outcome_journal WHERE id = ?');
  const release = db.transaction((holder: string) => {
    db.prepare('UPDATE email_claims SET lease_until = 0 WHERE holder = ?').run(holder);
    db.prepare('UPDATE kafka_claims SET lease_until = 0 WHERE holder = ?').run(holder);
    db.prepare('UPDATE outcome_journal SET holder = NULL, lease_until = 0 WHERE holder = ?').run(holder);
  });
  const anyCheckpoint = db.prepare<[], bigint>('SELECT 1 FROM checkpoints LIMIT 1').pluck();
  const restoreDelivery = db.prepare(`
    INSERT INTO webhook_deliveries (envelope_id, event_position, company_group, url, body, state, attempts, next_attempt_at, last_status, last_error, created_at, updated_at)
    VALUES (@envelopeId, @eventPosition, @companyGroup, @url, @body, @state, @attempts, @now, @lastStatus, @lastError, @now, @now)
    ON CONFLICT (envelope_id, url) DO NOTHING`);

  const journalAll = (journal: readonly JournalEvent[]) => {
    for (const event of journal) insertJournal.run(event.stream, event.type, JSON.stringify(event.data));
  };
  const enqueue = db.transaction((deliveries: readonly NewWebhookDelivery[], checkpoint: bigint, now: number, journal: readonly JournalEvent[]) => {
    for (const delivery of deliveries) insertDelivery.run({ ...delivery, now });
    journalAll(journal);
    writeCheckpoint.run(WEBHOOKS, checkpoint);
  });
  const recordPublished = db.transaction((eventIds: readonly string[], checkpoint: bigint, now: number, journal: readonly JournalEvent[]) => {
    for (const eventId of eventIds) insertPublished.run(eventId, now);
    journalAll(journal);
    writeCheckpoint.run(KAFKA, checkpoint);
  });
  const appended = db.transaction((ids: readonly string[]) => {
    for (const id of ids) deleteJournal.run(BigInt(id));
  });
  const restore = db.transaction((state: RestoreState, now: number) => {
    for (const webhook of state.webhooks) {
      restoreDelivery.run({
        envelopeId: webhook.envelopeId, eventPosition: webhook.eventPosition, companyGroup: webhook.companyGroup, url: webhook.url, body: webhook.body,
        state: webhook.state, attempts: webhook.attempts, lastStatus: webhook.lastStatus, lastError: webhook.lastError, now,
      });
    }
    for (const email of state.emails) insertEmail.run({ eventId: email.eventId, serviceRef: email.serviceRef, result: email.result, detail: email.detail, messageId: email.messageId, now });
    for (const [consumer, position] of Object.entries(state.checkpoints)) if (position !== undefined) writeCheckpoint.run(consumer, position);
  });
  const recordAttempt = db.transaction((attempt: RecordedAttempt, now: number, journal: readonly JournalEvent[]) => {
    const { outcome } = attempt;
    const state: WebhookDeliveryState = outcome.result === 'retry' ? 'pending' : outcome.result;
    const changed = updateDelivery.run({
      id: attempt.deliveryId,
      state,
      nextAttemptAt: outcome.result === 'retry' ? outcome.nextAttemptAt : now,
      status: outcome.status,
      error: outcome.result === 'delivered' ? null : outcome.error,
      now,
    }).changes;
    if (changed === 0) return;
    journalAll(journal);
    insertAttempt.run({
      deliveryId: attempt.deliveryId,
      attempt: attempt.attempt,
      at: attempt.at,
      durationMs: Math.round(attempt.durationMs),
      result: outcome.result,
      status: outcome.status,
      error: outcome.result === 'delivered' ? null : outcome.error,
      nextAttemptAt: outcome.result === 'retry' ? outcome.nextAttemptAt : null,
    });
  });
  const recordEmail = db.transaction((record: EmailRecord, checkpoint: bigint, now: number, journal: readonly JournalEvent[]) => {
    // Recorded already (by another replica): its journal events are in the journal already.
    if (insertEmail.run({ ...record, now }).changes > 0) journalAll(journal);
    writeCheckpoint.run(EMAIL, checkpoint);
  });

  const wal = walSync(db);
  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('delivery store is closed');
  };

  return {
    async checkpoint(consumer) {
      open();
      return readCheckpoint.get(consumer) ?? undefined;
    },
    async saveCheckpoint(consumer, position) {
      open();
      writeCheckpoint.run(consumer, position);
      await wal.sync();
    },
    async enqueueWebhooks(deliveries, checkpoint, now, journal = []) {
      open();
      enqueue.immediate(deliveries, checkpoint, now, journal);
      await wal.sync();
    },
    async claimDueWebhook(now, leaseUntil) {
      open();
      const row = claim.get(leaseUntil, now, now);
      if (row) await wal.sync();
      return row && toDelivery(row);
    },
    async recordWebhookAttempt(attempt, journal = []) {
      open();
      recordAttempt.immediate(attempt, Date.now(), journal);
      await wal.sync();
    },
    async nextWebhookDueAt() {
      open();
      const due = nextDue.get();
      return due === null || due === undefined ? undefined : Number(due);
    },
    async webhookDeliveryCounts() {
      open();
      const counts: Record<WebhookDeliveryState, number> = { pending: 0, delivered: 0, failed: 0 };
      for (const { state, count } of countByState.all()) counts[state] = Number(count);
      return counts;
    },
    async webhookDeliveries() {
      open();
      return allDeliveries.all().map(toDelivery);
    },
    async webhookAttempts(deliveryId) {
      open();
      return attemptsOf.all(deliveryId).map(toAttempt);
    },
    async emailRecord(eventId) {
      open();
      const row = readEmail.get(eventId);
      return row && { eventId: row.event_id, serviceRef: row.service_ref, result: row.result as EmailResult, detail: row.detail, messageId: row.message_id };
    },
    async claimEmail(eventId, holder, now, leaseUntil) {
      open();
      const claimed = claimEmailRow.get(eventId, holder, leaseUntil, now) !== undefined;
      if (claimed) await wal.sync();
      return claimed;
    },
    async recordEmail(record, checkpoint, journal = []) {
      open();
      recordEmail.immediate(record, checkpoint, Date.now(), journal);
      await wal.sync();
    },
    async kafkaPublished(eventId) {
      open();
      return readPublished.get(eventId) !== undefined;
    },
    async claimKafka(eventId, holder, now, leaseUntil) {
      open();
      const claimed = claimKafkaRow.get(eventId, holder, leaseUntil, now) !== undefined;
      if (claimed) await wal.sync();
      return claimed;
    },
    async recordKafkaPublished(eventIds, checkpoint, journal = []) {
      open();
      recordPublished.immediate(eventIds, checkpoint, Date.now(), journal);
      await wal.sync();
    },
    async claimJournal(holder, now, leaseUntil, limit) {
      open();
      const rows = claimJournalRows.all({ holder, leaseUntil, now, limit }).sort((a, b) => (a.id < b.id ? -1 : 1));
      if (rows.length > 0) await wal.sync();
      return rows.map((row) => ({ id: String(row.id), stream: row.stream, type: row.type, data: JSON.parse(row.data) as unknown }));
    },
    async releaseClaims(holder) {
      open();
      release.immediate(holder);
      await wal.sync();
    },
    async journalAppended(ids) {
      open();
      appended.immediate(ids);
      await wal.sync();
    },
    async isEmpty() {
      open();
      return anyCheckpoint.get() === undefined;
    },
    async restore(state) {
      open();
      restore.immediate(state, Date.now());
      await wal.sync();
    },
    async logIdentity() {
      return db.prepare<[], string>('SELECT log_id FROM log_identity').pluck().get();
    },
    async bindToLog(logId) {
      db.prepare('INSERT INTO log_identity (only, log_id) VALUES (1, ?) ON CONFLICT (only) DO UPDATE SET log_id = excluded.log_id').run(logId);
      await wal.sync();
    },
    async close() {
      if (closed) return;
      closed = true;
      await wal.close();
      db.close();
    },
  };
}

function toDelivery(row: DeliveryRow): StoredWebhookDelivery {
  return {
    id: Number(row.id),
    envelopeId: row.envelope_id,
    eventPosition: row.event_position,
    companyGroup: row.company_group,
    url: row.url,
    body: row.body,
    state: row.state as WebhookDeliveryState,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
  };
}

function toAttempt(row: AttemptRow): RecordedAttempt {
  const status = row.status === null ? null : Number(row.status);
  const error = row.error ?? '';
  let outcome: AttemptOutcome;
  if (row.result === 'delivered') outcome = { result: 'delivered', status: status ?? 0 };
  else if (row.result === 'retry') outcome = { result: 'retry', status, error, nextAttemptAt: Number(row.next_attempt_at ?? 0n) };
  else outcome = { result: 'failed', status, error };
  return { deliveryId: Number(row.delivery_id), attempt: Number(row.attempt), at: Number(row.at), durationMs: Number(row.duration_ms), outcome };
}
