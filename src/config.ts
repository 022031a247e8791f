// Configuration comes from the environment only; every variable is documented in docs/configuration.md.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_KAFKA_TOPIC } from './notifications/kafka-message.js';
import type { NotificationsConfig } from './notifications/notifications-config.js';

/** Planner threads run this much nicer than the main thread (lower-thread-priority.ts). */
export const DEFAULT_PLANNER_NICENESS = 10;
/** ORDERS_EMAIL_YIELD_MS's default: an e-mail waits at most this long for a saturated main thread. */
export const DEFAULT_EMAIL_YIELD_MS = 2000;
/** ORDERS_NOTIFICATIONS_LINGER_MS's default: a readiness message waits at most this long for others to go with it. */
export const DEFAULT_NOTIFICATIONS_LINGER_MS = 20;

export const DEMO_SEED_FILE = fileURLToPath(new URL('../../demo/master-data.json', import.meta.url));

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** undefined: no seed document is applied at start-up. */
  seedFile: string | undefined;
  adminKey: string | undefined;
  plannerThreads: number;
  /** Niceness of the planner threads (ORDERS_PLANNER_NICENESS, 0 to 19): they yield the CPU to the main thread. */
  plannerNiceness?: number | undefined;
  /** How long a replica's lease on an order it plans lasts unless renewed: how soon another replica takes over the orders of one that died. */
  planningLeaseMs: number;
  /**
   * How long a replica holds the lease of work one replica does for all (projecting the shared read
   * model, scrubbing it, the notifications) unless it renews it: how soon another takes over when it dies.
   */
  singletonLeaseMs: number;
  plannerTimeLimitMs: number;
  /** Where people reach the service (viewer links); undefined: the address it listens on. */
  publicUrl?: string | undefined;
  /** Signs viewer links; undefined: a secret generated once into the data directory. */
  shareSecret?: string | undefined;
  /** Signs log digests (ORDERS_AUDIT_KEY, PKCS#8 PEM Ed25519); undefined: a key made once into the data directory. */
  auditKey?: string | undefined;
  /** How long a viewer link stays valid. */
  shareLinkDays?: number;
  /** PRAGMA quick_check on every SQLite file at start-up (ORDERS_STARTUP_QUICK_CHECK, default true). */
  quickCheck?: boolean | undefined;
  /** Largest append the embedded event store accepts (KurrentDB's own limit applies there). */
  maxAppendBytes?: number | undefined;
  /** Events the embedded log hands a consumer per batch (ORDERS_LOG_PAGE_SIZE). */
  logPageSize?: number | undefined;
  /** Orders the read-model scrubber compares with the log per second (ORDERS_SCRUB_ORDERS_PER_SECOND); 0 or undefined: no scrubber. */
  scrubOrdersPerSecond?: number | undefined;
  /** How long a request waits for the read models to show what it stored before answering 503. */
  visibleWithinMs: number;
  /** How long a shutdown may take in all; requests in flight get half of it. */
  shutdownTimeoutMs: number;
  /** Set: the log is on KurrentDB. */
  eventStoreConnectionString?: string | undefined;
  /** Set (a libpq URL): the log is on PostgreSQL. */
  postgresUrl?: string | undefined;
  /** Set: read models and checkpoints are on MongoDB. */
  mongodbUrl?: string | undefined;
  notifications: NotificationsConfig;
  /** LOG_LEVEL: pino level, `silent` to `trace`. */
  logLevel?: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  // Unset: the demo lane, so that `npm start` is useful on its own; set to empty: no seed at all.
  const seedFile = env.ORDERS_SEED_FILE === undefined ? DEMO_SEED_FILE : env.ORDERS_SEED_FILE.trim() || undefined;
  return {
    port: integer(env, 'PORT', 8000, 0, 65535),
    // Loopback unless told otherwise: a developer's `npm start` is not published to the network by accident.
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.ORDERS_DATA_DIR ?? './data'),
    seedFile: seedFile && resolve(seedFile),
    adminKey: env.ORDERS_ADMIN_KEY || undefined,
    // As many as the cores this process may use (availableParallelism follows the CPU affinity mask,
    // and Node's cgroup-aware count where it gives one): the threads run at a lower priority than the
    // main thread, so it keeps a core for HTTP, projections and the log while they plan (docs/benchmarks.md).
    plannerThreads: integer(env, 'ORDERS_PLANNER_THREADS', availableParallelism(), 1, 64),
    plannerNiceness: integer(env, 'ORDERS_PLANNER_NICENESS', DEFAULT_PLANNER_NICENESS, 0, 19),
    plannerTimeLimitMs: integer(env, 'ORDERS_PLANNER_TIME_LIMIT_MS', 10_000, 100, 600_000),
    planningLeaseMs: integer(env, 'ORDERS_PLANNING_LEASE_MS', 10_000, 500, 3_600_000),
    singletonLeaseMs: integer(env, 'ORDERS_LEASE_MS', 3_000, 300, 600_000),
    publicUrl: publicUrl(env.ORDERS_PUBLIC_URL),
    shareSecret: env.ORDERS_SHARE_SECRET || undefined,
    auditKey: env.ORDERS_AUDIT_KEY || undefined,
    shareLinkDays: integer(env, 'ORDERS_SHARE_LINK_DAYS', 30, 1, 365),
    quickCheck: flag(env, 'ORDERS_STARTUP_QUICK_CHECK', true),
    scrubOrdersPerSecond: integer(env, 'ORDERS_SCRUB_ORDERS_PER_SECOND', 50, 0, 100_000),
    maxAppendBytes: integer(env, 'ORDERS_MAX_APPEND_BYTES', 4 * 1024 * 1024, 64 * 1024, 64 * 1024 * 1024),
    logPageSize: integer(env, 'ORDERS_LOG_PAGE_SIZE', 500, 1, 10_000),
    visibleWithinMs: integer(env, 'ORDERS_VISIBLE_WITHIN_MS', 5000, 100, 600_000),
    shutdownTimeoutMs: integer(env, 'ORDERS_SHUTDOWN_TIMEOUT_MS', 10_000, 1000, 600_000),
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || undefined,
    postgresUrl: postgresUrl(env),
    mongodbUrl: env.MONGODB_URL || undefined,
    notifications: notificationsConfigFromEnv(env),
    logLevel: env.LOG_LEVEL || 'info',
  };
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

export function notificationsConfigFromEnv(env: NodeJS.ProcessEnv = process.env): NotificationsConfig {
  const brokers = (env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  return {
    kafkaBrokers: brokers.length > 0 ? brokers : undefined,
    kafkaTopic: env.ORDERS_KAFKA_TOPIC?.trim() || DEFAULT_KAFKA_TOPIC,
    kafkaPartitions: integer(env, 'ORDERS_KAFKA_PARTITIONS', 6, 1, 10_000),
    kafkaReplicationFactor: env.ORDERS_KAFKA_REPLICATION_FACTOR ? integer(env, 'ORDERS_KAFKA_REPLICATION_FACTOR', 1, 1, 32) : undefined,
    smtpUrl: env.ORDERS_SMTP_URL?.trim() || undefined,
    mailFrom: env.ORDERS_MAIL_FROM?.trim() || undefined,
    webhookRetryDelaysMs: retryDelays(env.ORDERS_WEBHOOK_RETRY_DELAYS_MS),
    emailYieldMs: integer(env, 'ORDERS_EMAIL_YIELD_MS', DEFAULT_EMAIL_YIELD_MS, 0, 60_000),
    lingerMs: integer(env, 'ORDERS_NOTIFICATIONS_LINGER_MS', DEFAULT_NOTIFICATIONS_LINGER_MS, 0, 1000),
  };
}

function retryDelays(raw: string | undefined): number[] | undefined {
  if (!raw?.trim()) return undefined;
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.some((delay) => !Number.isInteger(delay) || delay < 0)) {
    throw new Error(`ORDERS_WEBHOOK_RETRY_DELAYS_MS must be comma-separated whole milliseconds, got "${raw}"`);
  }
  return delays;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** An http(s) origin, optionally with a path prefix (behind a proxy); no query, no trailing slash. */
function publicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`ORDERS_PUBLIC_URL must be an absolute http or https URL, got "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new Error(`ORDERS_PUBLIC_URL must be an http or https URL without query, fragment or credentials, got "${raw}"`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** POSTGRES_URL, a libpq URL; refused beside EVENTSTORE_CONNECTION_STRING: one log, not two. */
function postgresUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.POSTGRES_URL?.trim();
  if (!raw) return undefined;
  if (env.EVENTSTORE_CONNECTION_STRING)
    throw new Error('POSTGRES_URL and EVENTSTORE_CONNECTION_STRING are both set: the event log is on one of them; unset the other');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('POSTGRES_URL must be a libpq URL, postgres://user:password@host:port/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new Error(`POSTGRES_URL must start with postgres:// or postgresql://, got "${url.protocol}//..."`);
  return raw;
}
