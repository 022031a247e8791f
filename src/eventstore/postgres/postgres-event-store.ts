// The event store port on PostgreSQL through node-postgres (`pg`): the log for replicas on several
// machines. One table, `events` (postgres-schema.ts); positions, the hash chain and the order of
// commits as on SQLite: positions rise by one along the log and become visible in position order, so a
// follower reading "position > cursor" never skips an event that commits later.
//
// Appends are group-committed: those issued while a batch is in flight go together in the next, one
// call of the append function, which checks each append's expected revision, takes positions, stamps
// the time and chains the hashes under the writers' lock, on the server (postgres-schema.ts says why).
// A commit is durable when acknowledged (synchronous_commit=on, set on every connection). A call whose
// answer is lost (a reset, a partition) is sent again with the same event ids, which makes it
// idempotent; one that gets no answer within the call deadline fails with StorageUnavailable (HTTP 503):
// its events may or may not be in the log, and a caller that retries finds them by its expected revision.
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  ProgressSignals,
  SubscribeOptions,
  Subscription,
} from '../event-store.js';
import { EVENT_COLUMNS, HASHED_COLUMNS, toHashedEvent, toRecordedEvent, type EventRow, type HashedRow } from '../sql/event-rows.js';
import { GENESIS, type HashedEvent } from '../hash-chain.js';
import type { HashedLog } from '../hashed-log.js';
import { PollingSubscription, type SubscriptionSource } from '../sql/polling-subscription.js';
import { RecentEvents } from '../sql/recent-events.js';
import { listenForCommits, type CommitListener } from './postgres-commit-listener.js';
import { connectLog, isUnreachable, unavailable, type LogConnection, type PostgresConnectionOptions } from './postgres-connection.js';
import { batchArguments, dollarQuoted, outcomesOf, type AppendOutcome } from './postgres-append-batch.js';
import { ensureSchema, PROGRESS_CHANNEL } from './postgres-schema.js';
import { DEFAULT_MAX_APPEND_BYTES, prepareAppend, type QueuedAppend } from '../prepare-append.js';
import { LiveSubscriptions } from '../live-subscriptions.js';

export interface PostgresEventStoreOptions extends PostgresConnectionOptions {
  /**
   * How often a caught-up subscription looks for commits while it cannot hear of them (the LISTEN
   * connection is down). Default 500 ms. While it hears of them it looks only every `quietPollMs`.
   */
  pollIntervalMs?: number;
  /** How often it looks while commits are announced (a missed announcement costs this much latency). Default 5 s. */
  quietPollMs?: number;
  /** Most events handed to a subscription handler at once. Default 500. */
  pageSize?: number;
  /** Largest append (its events' data, serialized) accepted; larger ones throw AppendTooLarge. Default 4 MiB. */
  maxAppendBytes?: number;
  /** Where the store reports what it recovers from by itself (a lost LISTEN connection). */
  log?: (message: string, error?: unknown) => void;
}

interface Waiting {
  append: QueuedAppend;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

const HEAD = 'SELECT max(position) AS head FROM events';

/** Creates the table and functions if missing, then opens the store. `url`: a libpq URL (POSTGRES_URL). */
export async function openPostgresEventStore(url: string, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
  const log = options.log ?? (() => {});
  const connection = connectLog(url, options, (error) => log('event log: an idle PostgreSQL connection failed', error));
  let schema: string;
  try {
    schema = await ensureSchema(connection);
  } catch (error) {
    await connection.end().catch(() => {});
    throw isUnreachable(error) ? unavailable(error) : error;
  }
  return new PostgresEventStore(connection, schema, options);
}

export class PostgresEventStore implements EventStore, HashedLog {
  readonly chainScope = 'log';
  readonly #connection: LogConnection;
  readonly #pollIntervalMs: number;
  readonly #quietPollMs: number;
  readonly #pageSize: number;
  readonly #maxAppendBytes: number;
  readonly #subscriptions = new LiveSubscriptions<PollingSubscription>();
  readonly #listener: CommitListener;
  readonly #progressListeners = new Map<string, Set<(position: bigint) => void>>();
  readonly progress: ProgressSignals;
  readonly #source: SubscriptionSource;
  /** The newest events, read once for every subscription of this process (sql/recent-events.ts). */
  readonly #recent: RecentEvents;
  readonly #log: (message: string, error?: unknown) => void;
  /** A read of the log's tail in flight, shared by every subscription that needs it. */
  #tailRead: Promise<void> | undefined;
  /** A head known to be visible: from a commit's announcement, an own append or a query. */
  #knownHead = 0n;
  #queue: Waiting[] = [];
  #inFlight: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** Group-commit counters: calls that wrote a batch, appends they carried, calls sent again after a lost answer. */
  readonly stats = { commits: 0, appends: 0, resent: 0 };

  /** `schema`: the log's, which its commit and progress announcements name (postgres-schema.ts). */
  constructor(connection: LogConnection, schema: string, options: PostgresEventStoreOptions = {}) {
    this.#connection = connection;
    this.#log = options.log ?? (() => {});
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#quietPollMs = Math.max(this.#pollIntervalMs, options.quietPollMs ?? 5_000);
    this.#pageSize = options.pageSize ?? 500;
    this.#maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    if (!(this.#pollIntervalMs > 0) || !Number.isInteger(this.#pageSize) || this.#pageSize < 1) {
      throw new RangeError('pollIntervalMs must be > 0 and pageSize a positive integer');
    }
    this.#recent = new RecentEvents({ events: 2 * this.#pageSize, dataChars: 16 * 1024 * 1024 });
    this.#source = {
      // Committed is durable here, and visible in position order: the highest visible position is a
      // durable head. Woken by a commit's announcement, the head it named is known without asking;
      // what came since is announced too, or found by the next poll.
      durableHead: async (after, lookInLog) => {
        if (!lookInLog) return this.#knownHead > after ? this.#knownHead : after;
        const [row] = await connection.query<{ head: bigint | null }>(HEAD);
        const head = row?.head ?? 0n;
        if (head > this.#knownHead) this.#knownHead = head;
        return head;
      },
      readPage: (after, upTo, limit, types) => this.#readPage(after, upTo, limit, types),
    };
    this.#listener = listenForCommits(
      () => connection.dedicatedClient(),
      schema,
      (types, head) => {
        const wakeAll = () => {
          for (const subscription of this.#subscriptions) subscription.wake(types);
        };
        if (head !== undefined) {
          if (head > this.#knownHead) this.#knownHead = head;
          wakeAll();
          return;
        }
        // Listening again: what was committed meanwhile went unannounced; the head is asked for first.
        connection
          .query<{ head: bigint | null }>(HEAD)
          .then(
            ([row]) => {
              if ((row?.head ?? 0n) > this.#knownHead) this.#knownHead = row!.head!;
            },
            () => {},
          )
          .finally(wakeAll);
      },
      options.log ?? (() => {}),
      (name, position) => {
        for (const heard of this.#progressListeners.get(name) ?? []) heard(position);
      },
    );
    const store = this;
    this.progress = {
      get listening() {
        return store.#listener.listening;
      },
      announce: async (name, position) => {
        await this.#query('SELECT pg_notify($1, $2)', [PROGRESS_CHANNEL, `${name};${position};${schema}`]);
      },
      listen: (name, heard) => {
        const listeners = this.#progressListeners.get(name) ?? new Set();
        this.#progressListeners.set(name, listeners.add(heard));
        return () => void listeners.delete(heard);
      },
    };
  }

  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, _options?: AppendOptions): Promise<AppendResult> {
    if (this.#closing) return Promise.reject(new Error('event store is closed'));
    let append: QueuedAppend;
    try {
      append = prepareAppend(stream, events, expected, this.#maxAppendBytes);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ append, resolve, reject });
      this.#inFlight ??= this.#writeBatches();
    });
  }

  readStream(stream: string): Promise<RecordedEvent[]> {
    return this.#events('WHERE stream = $1 ORDER BY revision', [stream]);
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | undefined> {
    return (await this.#events('WHERE stream = $1 ORDER BY revision DESC LIMIT 1', [stream]))[0];
  }

  readAll(after?: bigint, limit?: number): Promise<RecordedEvent[]> {
    if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) {
      return Promise.reject(new RangeError(`limit must be a non-negative integer, got ${limit}`));
    }
    return this.#events('WHERE position > $1 ORDER BY position LIMIT $2', [after ?? 0n, limit ?? null]);
  }

  async headPosition(): Promise<bigint | undefined> {
    const [row] = await this.#query<{ head: bigint | null }>(HEAD);
    return row?.head ?? undefined;
  }

  async readHashed(after?: bigint, limit?: number): Promise<HashedEvent[]> {
    const rows = await this.#query<HashedRow>(`SELECT ${HASHED_COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2`, [
      after ?? 0n,
      limit ?? null,
    ]);
    return rows.map(toHashedEvent);
  }

  async readHeadHashed(): Promise<HashedEvent | undefined> {
    const [row] = await this.#query<HashedRow>(`SELECT ${HASHED_COLUMNS} FROM events ORDER BY position DESC LIMIT 1`);
    return row && toHashedEvent(row);
  }

  async readStreamHashed(stream: string): Promise<(HashedEvent & { previousHash: string })[]> {
    const rows = await this.#query<HashedRow & { previous_hash: Buffer | null }>(
      `SELECT ${HASHED_COLUMNS.split(', ')
        .map((column) => `e.${column}`)
        .join(', ')},
              (SELECT p.hash FROM events p WHERE p.position < e.position ORDER BY p.position DESC LIMIT 1) AS previous_hash
         FROM events e WHERE e.stream = $1 ORDER BY e.revision`,
      [stream],
    );
    return rows.map((row) => ({ ...toHashedEvent(row), previousHash: row.previous_hash?.toString('hex') ?? GENESIS }));
  }

  /** Every event of this log was hashed when written: there is nothing from before the chain. */
  async chainLegacyEvents(): Promise<number> {
    this.#assertOpen();
    return 0;
  }

  subscribe(options: SubscribeOptions): Subscription {
    this.#assertOpen();
    const store = this;
    const timing = {
      get pollIntervalMs() {
        return store.#listener.listening ? store.#quietPollMs : store.#pollIntervalMs;
      },
      pageSize: this.#pageSize,
    };
    return this.#subscriptions.open((stopped) => new PollingSubscription(this.#source, options, timing, stopped));
  }

  /** Writes the appends already queued, stops every subscription (waiting for running handlers), closes the connections. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#inFlight;
      await this.#subscriptions.stopAll();
      await this.#listener.close();
      await this.#connection.end();
    })();
    return this.#closing;
  }

  /** Writes batches while appends wait: what queues during one call goes in the next. */
  async #writeBatches(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        await this.#writeBatch(batch);
      }
    } finally {
      this.#inFlight = undefined;
    }
  }

  async #writeBatch(batch: Waiting[]): Promise<void> {
    const appends = batch.map((waiting) => waiting.append);
    let outcomes: AppendOutcome[];
    try {
      outcomes = outcomesOf(appends, await this.#write(appends));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    this.stats.commits += 1;
    this.stats.appends += batch.length;
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) waiting.resolve(outcome.result);
      else waiting.reject(outcome.error);
    });
  }

  /**
   * The one call that writes a batch, sent as one simple-protocol message: the server runs it whole
   * or not at all, and never waits for this process in between (postgres-schema.ts). When its answer
   * is lost, the same batch (the same event ids) is sent again until an answer comes or a call's
   * deadline has passed: appends already written are answered as written, the others are written now.
   */
  async #write(appends: readonly QueuedAppend[]): Promise<unknown> {
    const types = [...new Set(appends.flatMap((append) => append.events.map((event) => event.type)))].join(',');
    const { batch, data } = batchArguments(appends);
    const sql = `SELECT orders_append_events(${dollarQuoted(batch)}::jsonb, ARRAY[${data.map(dollarQuoted).join(',')}]::text[], ${dollarQuoted(types.length < 7000 ? types : '')}) AS outcomes`;
    let deadline: number | undefined;
    for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
      try {
        const [row] = await this.#connection.query<{ outcomes: unknown }>(sql);
        return row?.outcomes;
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        deadline ??= Date.now() + this.#connection.callTimeoutMs;
        if (Date.now() + pause > deadline) throw unavailable(error);
        this.stats.resent += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /**
   * A subscription's page. Subscriptions that follow the tail (nearly all of them, nearly always) are
   * served from the events read last, which one query reads for all of them; one far behind (catching
   * up from an old checkpoint) reads its own page, of its own types only.
   */
  async #readPage(after: bigint, upTo: bigint, limit: number, types: readonly string[] | undefined): Promise<RecordedEvent[]> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const page = this.#recent.page(after, upTo, limit, types);
      const gap = page && types === undefined ? gapIn(page, after) : undefined;
      if (page && gap === undefined) return page;
      if (gap !== undefined) {
        // Positions are dense: a page of every type runs from after + 1 without a gap. One that does not
        // is a fault of the ring; it is said, the ring is emptied and the page read from SQL.
        this.#log(`event log: the recent events skipped ${gap}; the page is read from the log`);
        this.#recent.clear();
        break;
      }
      const { first, last } = this.#recent;
      // Below what the ring holds: a page of its own.
      if (first !== undefined && after < first - 1n) break;
      await this.#readTail(last !== undefined && last >= after ? last : after, upTo);
    }
    const rows =
      types === undefined
        ? await this.#connection.query<EventRow>(
            `SELECT ${EVENT_COLUMNS} FROM events WHERE position > $1 AND position <= $2 ORDER BY position LIMIT $3`,
            [after, upTo, limit],
          )
        : await this.#connection.query<EventRow>(
            `SELECT ${EVENT_COLUMNS} FROM events WHERE position > $1 AND position <= $2 AND type = ANY($4) ORDER BY position LIMIT $3`,
            [after, upTo, limit, types],
          );
    return rows.map(toRecordedEvent);
  }

  /** Reads (from, upTo] into the recent events, once however many subscriptions ask at the same time. */
  async #readTail(from: bigint, upTo: bigint): Promise<void> {
    while (this.#tailRead) await this.#tailRead;
    if ((this.#recent.last ?? -1n) >= upTo) return;
    this.#tailRead = (async () => {
      const rows = await this.#connection.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE position > $1 AND position <= $2 ORDER BY position LIMIT $3`,
        [from, upTo, this.#pageSize],
      );
      this.#recent.add(rows);
    })().finally(() => {
      this.#tailRead = undefined;
    });
    await this.#tailRead;
  }

  async #events(where: string, values: unknown[]): Promise<RecordedEvent[]> {
    const rows = await this.#query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events ${where}`, values);
    return rows.map(toRecordedEvent);
  }

  async #query<Row extends object>(text: string, values?: unknown[]): Promise<Row[]> {
    this.#assertOpen();
    return this.#connection.query<Row>(text, values);
  }

  #assertOpen(): void {
    if (this.#closing) throw new Error('event store is closed');
  }
}

/** The first gap in a page that should hold every position after `after`, as text; undefined when there is none. */
function gapIn(page: readonly RecordedEvent[], after: bigint): string | undefined {
  let expected = after + 1n;
  for (const event of page) {
    if (event.position !== expected) return `positions ${expected} to ${event.position - 1n}`;
    expected += 1n;
  }
  return undefined;
}
