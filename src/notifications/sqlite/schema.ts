// The tables of notifications.db. Leases on due webhook deliveries, e-mails, Kafka messages and the
// journal are leases/sqlite-leases.ts tables (webhook_claims, email_claims, kafka_claims,
// journal_claims), created by that adapter.
export const DELIVERY_SCHEMA = `
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
  CREATE TABLE IF NOT EXISTS emails (
    event_id TEXT PRIMARY KEY,
    service_ref TEXT NOT NULL,
    result TEXT NOT NULL,
    detail TEXT NOT NULL,
    message_id TEXT,
    recorded_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS kafka_published (event_id TEXT PRIMARY KEY, recorded_at INTEGER NOT NULL);
  -- a file made by an earlier version also has the columns holder and lease_until, unused and left alone
  CREATE TABLE IF NOT EXISTS outcome_journal (id INTEGER PRIMARY KEY, stream TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL);
`;
