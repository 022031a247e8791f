// The event store port: what every consumer of the log needs (commands, projections, reactors, the
// notifications). Every backend (embedded SQLite, PostgreSQL, KurrentDB) implements it, and one contract
// suite runs against each of them. The hash chain's reads are a port of their own (hashed-log.ts).

/** What an append expects the stream to look like before it writes. */
export type ExpectedRevision = { kind: 'no_stream' } | { kind: 'exact'; revision: bigint } | { kind: 'any' };

export const NO_STREAM: ExpectedRevision = { kind: 'no_stream' };
export const ANY: ExpectedRevision = { kind: 'any' };
export const exactly = (revision: bigint): ExpectedRevision => ({ kind: 'exact', revision });

/** An event as the domain produces it, before it is stored. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** An event as stored: its place in its stream and in the whole log. */
export interface RecordedEvent<Type extends string = string, Data = unknown> {
  /** UUID given at append; unique across the log. */
  id: string;
  stream: string;
  type: Type;
  data: Data;
  /** 0-based position of the event in its stream. */
  revision: bigint;
  /** Position in the whole log; strictly increasing in commit order, not necessarily contiguous. */
  position: bigint;
  /** When the event was stored, UTC. */
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event written. */
  nextRevision: bigint;
  /** Log position of the last event written. */
  position: bigint;
}

/** The stream was not in the state the append expected; nothing was written. The caller may re-read and retry. */
export class WrongExpectedRevision extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${stream}: expected ${describe(expected)}, actual ${actual === 'no_stream' ? 'no stream' : actual}`);
    this.name = 'WrongExpectedRevision';
  }
}

/** The append is over the store's size limit (KurrentDB's MaxAppendSize, the embedded store's maxAppendBytes); nothing was written. */
export class AppendTooLarge extends Error {
  constructor(
    readonly stream: string,
    /** Undefined when the server does not say. */
    readonly bytes: number | undefined,
    readonly limit: number,
  ) {
    super(`append to ${stream}${bytes === undefined ? '' : ` of ${bytes} bytes`} is over the event store's limit of ${limit} bytes`);
    this.name = 'AppendTooLarge';
  }
}

/** Whether a stream at `actual` is what `expected` asks for. */
export function revisionMatches(expected: ExpectedRevision, actual: bigint | undefined): boolean {
  switch (expected.kind) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === undefined;
    case 'exact':
      return actual === expected.revision;
  }
}

function describe(expected: ExpectedRevision): string {
  return expected.kind === 'exact' ? `revision ${expected.revision}` : expected.kind.replace('_', ' ');
}

export interface Subscription {
  /** Stops delivery; resolves once no handler call is running. */
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Deliver events with position strictly greater than this; undefined = from the start of the log. */
  after?: bigint;
  /** Called with consecutive batches in log order; the next batch waits for the returned promise. */
  handle(events: RecordedEvent[]): Promise<void> | void;
  /** Called when delivery stops because handle threw or the store failed. */
  onError?(error: unknown): void;
  /** Only deliver events whose type is in this list (all when omitted). */
  types?: readonly string[];
  /**
   * Of `types`, the ones whose commits should wake the subscription at once (all of them when
   * omitted). The others are delivered at its next look, woken by one of these or by its poll: for
   * events that may wait, so that their commits do not each cost every replica a read.
   */
  wakeOn?: readonly string[];
}

export interface AppendOptions {
  /**
   * `durable` (the default): resolve once the events are on disk. `committed`: resolve once later appends
   * see them (revision checks, positions), possibly before they are on disk. Only for events that matter
   * through what is appended after them (an order id, for the order that carries it): a log is made durable
   * in order, so the later append's durable acknowledgement covers this one, and no reader is handed an
   * event before it is on disk. A store whose appends are durable when committed ignores it.
   */
  settle?: 'durable' | 'committed';
}

/** Closing is not a consumer's business: whoever opened the store closes it (the adapters' `close`). */
export interface EventStore {
  /**
   * Appends events atomically to one stream. Resolves only once the events are durable:
   * an acknowledged append survives a crash of the process (unless `options.settle` says otherwise).
   * @throws WrongExpectedRevision when the stream is not as expected.
   */
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult>;
  /** All events of a stream in revision order; an empty array when the stream does not exist. */
  readStream(stream: string): Promise<RecordedEvent[]>;
  /** The last event of a stream, read from its end (cost independent of its length); undefined when it does not exist. */
  readLastEvent(stream: string): Promise<RecordedEvent | undefined>;
  /** Events of the whole log with position > after, in log order, at most `limit` of them. */
  readAll(after?: bigint, limit?: number): Promise<RecordedEvent[]>;
  /** Position of the last event in the log (undefined when empty): how far consumers have to go to be caught up. */
  headPosition(): Promise<bigint | undefined>;
  /** Catch-up subscription: history from `after`, then live events as they are appended. */
  subscribe(options: SubscribeOptions): Subscription;
  /**
   * Where the log's server can carry them (PostgreSQL's NOTIFY), announcements between replicas of how
   * far a consumer of the log has got; absent elsewhere, and then readers poll.
   */
  readonly progress?: ProgressSignals;
}

/**
 * A hint, never the truth: an announcement may be lost (a connection that broke), so who listens still
 * reads the consumer's own checkpoint now and then. It spares the replicas that wait on another's
 * consumer (read-your-writes on a replica that does not project) from asking its checkpoint every few
 * milliseconds.
 */
export interface ProgressSignals {
  /** Whether announcements are being heard now. */
  readonly listening: boolean;
  /** Tells every replica that consumer `name` has got to `position` (its checkpoint is stored). */
  announce(name: string, position: bigint): Promise<void>;
  /** Calls `heard` with each position announced for `name`, by any replica; returns how to stop. */
  listen(name: string, heard: (position: bigint) => void): () => void;
}
