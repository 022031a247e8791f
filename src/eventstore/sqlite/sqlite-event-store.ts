import type Database from 'better-sqlite3';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store.js';
import { GENESIS, type HashedEvent } from '../hash-chain.js';
import type { HashedLog } from '../hashed-log.js';
import { nowMicros } from '../recorded-at.js';
import { legacyChainer } from './sqlite-hash-chain.js';
import { prepareAppendBatch, type AppendOutcome } from './sqlite-append-batch.js';
import { DEFAULT_MAX_APPEND_BYTES, prepareAppend, type QueuedAppend } from '../prepare-append.js';
import { EVENT_COLUMNS, HASHED_COLUMNS, toHashedEvent, toRecordedEvent, type EventRow, type HashedRow } from '../sql/event-rows.js';
import { openEventsDatabase } from './sqlite-schema.js';
import { PollingSubscription, type SubscriptionSource } from '../sql/polling-subscription.js';
import { RecentEvents } from '../sql/recent-events.js';
import { walSync, type FileSync, type WalSync } from '../../storage/wal-sync.js';
import type { WalCheckpointer } from '../../storage/wal-checkpointer.js';
import { INTEGER_PARAM, TEXT_PARAM } from '../../storage/sqlite-parameters.js';
import { LiveSubscriptions } from '../live-subscriptions.js';

export interface SqliteEventStoreOptions {
  /** How often a caught-up subscription looks for events appended by other processes. Default 200 ms. */
  pollIntervalMs?: number;
  /** Most events handed to a subscription handler at once. Default 500. */
  pageSize?: number;
  /** Largest append (its events' data, serialized) accepted; larger ones throw AppendTooLarge. Default 4 MiB. */
  maxAppendBytes?: number;
  /** PRAGMA quick_check when opening (reads the whole file, in time proportional to its size). Default true. */
  quickCheck?: boolean;
  /** How the -wal file is made durable; fs.fdatasync. Tests give their own to see what waits for it. */
  fileSync?: FileSync;
  /** Checkpoints the file off the main thread (the service's); without it SQLite checkpoints in the commits. */
  walCheckpointer?: WalCheckpointer | undefined;
}

/** Opens the embedded store in `<dataDir>/events.db`, creating the directory and file if missing. */
export function openSqliteEventStore(dataDir: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
  return new SqliteEventStore(openEventsDatabase(dataDir, options.quickCheck ?? true), options);
}

interface Waiting {
  append: QueuedAppend;
  settle: NonNullable<AppendOptions['settle']>;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/**
 * EventStore on one SQLite connection. better-sqlite3 is synchronous, so the connection is only ever used
 * by one piece of code at a time; appends are queued and written by a group commit once per event-loop
 * turn (see #flush), reads run directly. Nothing is acknowledged, and no event is read, before it is on
 * disk: the -wal file is fsynced off the main thread (storage/wal-sync.ts) and reads wait for that.
 */
export class SqliteEventStore implements EventStore, HashedLog {
  readonly #db: Database.Database;
  readonly #writeBatch: (batch: readonly QueuedAppend[], recordedAt: bigint) => AppendOutcome[];
  readonly #readStream: Database.Statement<[string], EventRow>;
  readonly #readAll: Database.Statement<[bigint, number], EventRow>;
  readonly #readLast: Database.Statement<[string], EventRow>;
  readonly #head: Database.Statement<[], { head: bigint | null }>;
  readonly #readHashed: Database.Statement<[bigint, number], HashedRow>;
  readonly #readStreamHashed: Database.Statement<[string], HashedRow>;
  readonly #hashBefore: Database.Statement<[bigint], Buffer | null>;
  readonly #readHeadHashed: Database.Statement<[], HashedRow>;
  readonly #chainLegacy: () => number;
  readonly chainScope = 'log';
  readonly #source: SubscriptionSource;
  readonly #pollIntervalMs: number;
  readonly #pageSize: number;
  readonly #maxAppendBytes: number;
  readonly #subscriptions = new LiveSubscriptions<PollingSubscription>();
  /** What this process committed last, parsed once for all its subscriptions. */
  readonly #recent: RecentEvents;
  readonly #wal: WalSync;
  readonly #letGoOfCheckpoints: () => Promise<void>;
  /** Every event up to here is on disk (fsynced by this process); events past it are read only after an fsync. */
  #durableThrough = 0n;
  /** The last position this process committed: its fsync is the one `#acknowledged` waits for. */
  #committedThrough = 0n;
  /** The acknowledgement of the last commit, settled once its fsync returned. */
  #acknowledged: Promise<void> = Promise.resolve();
  #queue: Waiting[] = [];
  #flushScheduled: NodeJS.Immediate | undefined;
  #closing: Promise<void> | undefined;
  /** Group-commit counters: transactions written and appends they carried (failed checks included). */
  readonly stats = { commits: 0, appends: 0 };

  constructor(db: Database.Database, options: SqliteEventStoreOptions = {}) {
    this.#db = db;
    this.#pollIntervalMs = options.pollIntervalMs ?? 200;
    this.#pageSize = options.pageSize ?? 500;
    this.#maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    if (!(this.#pollIntervalMs > 0) || !Number.isInteger(this.#pageSize) || this.#pageSize < 1) {
      throw new RangeError('pollIntervalMs must be > 0 and pageSize a positive integer');
    }
    this.#wal = walSync(db, options.fileSync);
    this.#letGoOfCheckpoints = options.walCheckpointer?.takeOver(db) ?? (async () => {});
    this.#writeBatch = prepareAppendBatch(db);
    this.#readStream = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ${TEXT_PARAM} ORDER BY revision`);
    // The (stream, revision) unique index, walked from its end.
    this.#readLast = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ${TEXT_PARAM} ORDER BY revision DESC LIMIT 1`);
    this.#readAll = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ${INTEGER_PARAM}`);
    this.#head = db.prepare<[], { head: bigint | null }>('SELECT max(position) AS head FROM events').safeIntegers(true);
    // Two pages for each subscription, however far behind the others it is; data of at most a few big appends.
    this.#recent = new RecentEvents({ events: 2 * this.#pageSize, dataChars: 16 * 1024 * 1024 });
    this.#source = subscriptionSource(
      db,
      this.#recent,
      () => this.#durableThrough,
      (position) => this.#durableUpTo(position),
    );
    this.#readHashed = db.prepare(`SELECT ${HASHED_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ${INTEGER_PARAM}`);
    this.#readStreamHashed = db.prepare(`SELECT ${HASHED_COLUMNS} FROM events WHERE stream = ${TEXT_PARAM} ORDER BY revision`);
    this.#hashBefore = db
      .prepare<[bigint], Buffer | null>('SELECT hash FROM events WHERE position < ? ORDER BY position DESC LIMIT 1')
      .pluck();
    this.#readHeadHashed = db.prepare(`SELECT ${HASHED_COLUMNS} FROM events ORDER BY position DESC LIMIT 1`);
    this.#chainLegacy = legacyChainer(db);
  }

  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    if (this.#closing) return Promise.reject(new Error('event store is closed'));
    let append: QueuedAppend;
    try {
      append = prepareAppend(stream, events, expected, this.#maxAppendBytes);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ append, settle: options.settle ?? 'durable', resolve, reject });
      // setImmediate runs after the I/O callbacks of this loop turn: every append issued by the requests
      // handled in this turn (and by the continuations of the previous commit) goes into one transaction.
      this.#flushScheduled ??= setImmediate(() => this.#flush());
    });
  }

  async readStream(stream: string): Promise<RecordedEvent[]> {
    this.#assertOpen();
    return (await this.#durable(this.#readStream.all(stream))).map(toRecordedEvent);
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | undefined> {
    this.#assertOpen();
    const row = this.#readLast.get(stream);
    if (row) await this.#durableUpTo(row.position);
    return row && toRecordedEvent(row);
  }

  async readAll(after?: bigint, limit?: number): Promise<RecordedEvent[]> {
    this.#assertOpen();
    if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) {
      throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    }
    // LIMIT -1 is "no limit" in SQLite.
    return (await this.#durable(this.#readAll.all(after ?? 0n, limit ?? -1))).map(toRecordedEvent);
  }

  async headPosition(): Promise<bigint | undefined> {
    this.#assertOpen();
    const head = this.#head.get()?.head ?? undefined;
    if (head !== undefined) await this.#durableUpTo(head);
    return head;
  }

  async readHashed(after?: bigint, limit?: number): Promise<HashedEvent[]> {
    this.#assertOpen();
    return (await this.#durable(this.#readHashed.all(after ?? 0n, limit ?? -1))).map(toHashedEvent);
  }

  async readHeadHashed(): Promise<HashedEvent | undefined> {
    this.#assertOpen();
    const row = this.#readHeadHashed.get();
    if (row) await this.#durableUpTo(row.position);
    return row && toHashedEvent(row);
  }

  async readStreamHashed(stream: string): Promise<(HashedEvent & { previousHash: string })[]> {
    this.#assertOpen();
    return (await this.#durable(this.#readStreamHashed.all(stream))).map((row) => {
      const previous = this.#hashBefore.get(row.position);
      return { ...toHashedEvent(row), previousHash: previous?.toString('hex') ?? GENESIS };
    });
  }

  async chainLegacyEvents(): Promise<number> {
    this.#assertOpen();
    const chained = this.#chainLegacy();
    await this.#wal.sync();
    return chained;
  }

  subscribe(options: SubscribeOptions): Subscription {
    this.#assertOpen();
    const timing = { pollIntervalMs: this.#pollIntervalMs, pageSize: this.#pageSize };
    return this.#subscriptions.open((stopped) => new PollingSubscription(this.#source, options, timing, stopped));
  }

  /** Writes the appends already queued, stops every subscription (waiting for running handlers), closes the file. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#flushScheduled) clearImmediate(this.#flushScheduled);
      this.#flush();
      await this.#acknowledged;
      await this.#subscriptions.stopAll();
      await this.#wal.close();
      await this.#letGoOfCheckpoints();
      this.#db.close();
    })();
    return this.#closing;
  }

  /**
   * The group commit: every queued append in one transaction; each caller's promise settles once an fsync
   * that started after the COMMIT has returned. The next batch is written while that fsync runs.
   */
  #flush(): void {
    this.#flushScheduled = undefined;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    let outcomes: AppendOutcome[];
    try {
      outcomes = this.#writeBatch(
        batch.map((waiting) => waiting.append),
        nowMicros(),
      );
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    for (const outcome of outcomes) if (outcome?.ok) this.#recent.add(outcome.rows);
    this.stats.commits += 1;
    this.stats.appends += batch.length;
    let through = 0n;
    for (const outcome of outcomes) if (outcome?.ok && outcome.result.position > through) through = outcome.result.position;
    if (through > this.#committedThrough) this.#committedThrough = through;
    const types = new Set<string>();
    batch.forEach((waiting, i) => {
      if (outcomes[i]?.ok) for (const event of waiting.append.events) types.add(event.type);
    });
    const settle = (synced: { error: unknown } | undefined) =>
      batch.forEach((waiting, i) => {
        const outcome = outcomes[i];
        if (waiting.settle === 'committed' && outcome?.ok) return;
        if (!outcome?.ok) waiting.reject(outcome ? outcome.error : new Error('append lost from batch'));
        else if (synced) waiting.reject(synced.error);
        else waiting.resolve(outcome.result);
      });
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if (waiting.settle === 'committed' && outcome?.ok) waiting.resolve(outcome.result);
    });
    // Only after the fsync are the appends acknowledged, and the subscriptions told of them.
    this.#acknowledged = this.#wal.sync().then(
      () => {
        if (through > this.#durableThrough) this.#durableThrough = through;
        settle(undefined);
        for (const subscription of this.#subscriptions) subscription.wake(types);
      },
      (error: unknown) => settle({ error }),
    );
  }

  /** Rows as read, once every one of them is on disk: what is read may be acted on or acknowledged. */
  async #durable<T extends { position: bigint }>(rows: T[]): Promise<T[]> {
    let last = 0n;
    for (const row of rows) if (row.position > last) last = row.position;
    await this.#durableUpTo(last);
    return rows;
  }

  /**
   * Events up to `position` were committed (by this process, or another one on the file) and read: the
   * fsync acknowledging this process's commits, or else one started now, covers them.
   */
  async #durableUpTo(position: bigint): Promise<void> {
    if (position <= this.#durableThrough) return;
    // Committed here: the fsync that acknowledges this process's last commit covers it; no other is needed.
    if (position <= this.#committedThrough) await this.#acknowledged;
    if (position <= this.#durableThrough) return;
    await this.#wal.sync();
    if (position > this.#durableThrough) this.#durableThrough = position;
  }

  #assertOpen(): void {
    if (this.#closing) throw new Error('event store is closed');
  }
}

function subscriptionSource(
  db: Database.Database,
  recent: RecentEvents,
  durableThrough: () => bigint,
  durableUpTo: (position: bigint) => Promise<void>,
): SubscriptionSource {
  const head = db.prepare<[], bigint | null>('SELECT max(position) FROM events').pluck();
  const page = db.prepare<[bigint, bigint, number], EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ${INTEGER_PARAM}`,
  );
  const typedPage = db.prepare<[bigint, bigint, string, number], EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events
      WHERE position > ? AND position <= ? AND type IN (SELECT value FROM json_each(?))
      ORDER BY position LIMIT ${INTEGER_PARAM}`,
  );
  return {
    async durableHead(after, lookInFile) {
      const durable = durableThrough();
      if (!lookInFile) return durable;
      const position = head.get() ?? 0n;
      // What is on disk already goes out now; the rest once the fsync in flight (it wakes the subscriptions) returns.
      if (position <= durable) return position;
      if (durable > after) return durable;
      await durableUpTo(position);
      return position;
    },
    readPage: (after, upTo, limit, types) =>
      recent.page(after, upTo, limit, types) ??
      (types === undefined ? page.all(after, upTo, limit) : typedPage.all(after, upTo, JSON.stringify(types), limit)).map(toRecordedEvent),
  };
}
