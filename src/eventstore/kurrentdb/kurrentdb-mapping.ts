// Conversions between the event store port and @kurrent/kurrentdb-client. Pure functions, so that
// what the adapter sends and how it reads answers is unit-tested without a server.
//
// Positions: a KurrentDB $all position is {commit, prepare}. Events appended through the gRPC API are
// written as self-committing prepares, and the server reports such an event at commit = prepare = the
// record's own log position (AllReader: `new CommitEventRecord(eventRecord, prepare.LogPosition)`), so
// the commit position alone is unique and strictly increasing in log order; the port's `position` is
// that number. Only events of legacy explicit transactions (TCP API, removed in KurrentDB 25) share one
// commit position; this service never writes them.
import { randomUUID } from 'node:crypto';
import {
  ANY as KURRENT_ANY,
  ErrorType,
  NO_STREAM as KURRENT_NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  type AllStreamResolvedEvent,
  type AppendResult as KurrentAppendResult,
  type AppendStreamState,
  type Filter,
  type JSONEventData,
  type JSONType,
  type ReadPosition,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import {
  AppendTooLarge,
  WrongExpectedRevision,
  revisionMatches,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '../event-store.js';
import { assertHashable, eventHash, GENESIS, type HashedEvent } from '../hash-chain.js';

/** Largest value of a KurrentDB position or revision (unsigned 64-bit). */
export const MAX_UINT64 = 2n ** 64n - 1n;

/** The port's expected revision as the client's stream state. */
export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected?.kind) {
    case 'no_stream':
      return KURRENT_NO_STREAM;
    case 'any':
      return KURRENT_ANY;
    case 'exact':
      if (typeof expected.revision !== 'bigint' || expected.revision < 0n || expected.revision > MAX_UINT64) {
        throw new RangeError(`expected revision must be a bigint from 0 to 2^64-1, got ${String(expected.revision)}`);
      }
      return expected.revision;
    default:
      throw new TypeError('invalid expected revision');
  }
}

/** The client reports a missing stream as 'no_stream' or, in some paths, as revision -1. */
export function toActualRevision(current: bigint | 'no_stream' | string): bigint | 'no_stream' {
  return typeof current === 'bigint' && current >= 0n ? current : 'no_stream';
}

/** WrongExpectedVersionError (or an error of that type from another copy of the client) as the port's error; undefined for any other error. */
export function wrongExpectedRevisionFrom(error: unknown, stream: string, expected: ExpectedRevision): WrongExpectedRevision | undefined {
  const isWrongVersion =
    error instanceof WrongExpectedVersionError ||
    (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === ErrorType.WRONG_EXPECTED_VERSION);
  if (!isWrongVersion) return undefined;
  const actual = (error as { actualState?: unknown }).actualState;
  return new WrongExpectedRevision(stream, expected, typeof actual === 'bigint' ? toActualRevision(actual) : 'no_stream');
}

/** The server's append size limits (MaxAppendSize for the whole append, the record size for one event) as the port's AppendTooLarge. */
export function appendTooLargeFrom(error: unknown, stream: string): AppendTooLarge | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED)
    return new AppendTooLarge(stream, undefined, Number((error as { maxAppendSize?: unknown }).maxAppendSize));
  if (type === ErrorType.APPEND_RECORD_SIZE_EXCEEDED) {
    const { size, maxSize } = error as { size?: unknown; maxSize?: unknown };
    return new AppendTooLarge(stream, Number(size), Number(maxSize));
  }
  return undefined;
}

/** Reading a stream that was never written fails with StreamNotFoundError; the port answers []. */
export function isStreamNotFound(error: unknown): boolean {
  return (
    error instanceof StreamNotFoundError ||
    (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === ErrorType.STREAM_NOT_FOUND)
  );
}

/**
 * The client's append result as the port's. With `throwOnAppendFailure=false` in the connection string
 * the client resolves a failed check with success: false instead of throwing; that is the same conflict.
 */
export function toAppendResult(result: KurrentAppendResult, stream: string, expected: ExpectedRevision): AppendResult {
  if (!result.success) throw new WrongExpectedRevision(stream, expected, toActualRevision(result.nextExpectedRevision));
  // The server answers with the position of the append's last event (the record that ends the write).
  if (!result.position) throw new Error(`append to ${stream}: KurrentDB did not report the log position of the write`);
  return { nextRevision: result.nextExpectedRevision, position: result.position.commit };
}

/** Where a forward read must start to see every event with position > after; the event at `after` itself is skipped by the caller. */
export function readPositionFrom(after: bigint | undefined): ReadPosition {
  if (after === undefined || after < 0n) return START;
  if (after > MAX_UINT64) throw new RangeError(`position ${after} is beyond KurrentDB's 64-bit log`);
  return { commit: after, prepare: after };
}

/**
 * What part of $all the service sees: never KurrentDB's own events (their types start with `$`: stream
 * metadata, settings, statistics, the links system projections write), and, when `types` is given, only
 * events of those types. The server filters (fewer bytes on the wire); `accepts` applies the same rule
 * again on the client, so a regex subtlety on the server can never let a foreign event through.
 */
export interface LogView {
  filter: Filter;
  accepts(type: string): boolean;
}

export function logView(types?: readonly string[]): LogView {
  if (types === undefined) {
    return { filter: excludeSystemEvents(), accepts: (type) => !type.startsWith('$') };
  }
  const wanted = new Set(types.filter((type) => !type.startsWith('$')));
  return {
    filter: eventTypeFilter({ regex: exactTypesRegex([...wanted]) }),
    accepts: (type) => wanted.has(type),
  };
}

/** A regex (for the server's .NET engine) matching exactly these names; matching nothing for an empty list. */
export function exactTypesRegex(types: readonly string[]): string {
  if (types.length === 0) return '(?!)';
  return `^(?:${types.map(escapeRegex).join('|')})$`;
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|#\s-]/g, (c) => (/\s/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : `\\${c}`));
}

/**
 * Validates an append and builds the client's event data: the same checks, with the same error types, as
 * the embedded adapter, so that a bad append fails alike on every backend and before anything is sent.
 */
export function toEventData(stream: string, events: readonly NewEvent[]): JSONEventData[] {
  if (typeof stream !== 'string' || stream === '') throw new TypeError('stream must be a non-empty string');
  if (!Array.isArray(events) || events.length === 0) throw new RangeError(`append to ${stream}: at least one event is required`);
  return events.map((event, i) => {
    if (typeof event?.type !== 'string' || event.type === '') throw new TypeError(`append to ${stream}: event ${i} needs a non-empty type`);
    assertHashable(stream, event.type);
    // The client serializes with JSON.stringify too; doing it once here rejects bigint, cycles and
    // undefined (which the client would turn into a crash or an empty body) before the request.
    const json: unknown = JSON.stringify(event.data);
    if (typeof json !== 'string') throw new TypeError(`append to ${stream}: event ${i} (${event.type}) data is not JSON`);
    // Any JSON value is sent as written; the client's JSONType is narrower than what it serializes.
    return { id: randomUUID(), contentType: 'application/json', type: event.type, data: event.data as JSONType, metadata: undefined };
  });
}

/**
 * A resolved event from a read or subscription as the port's RecordedEvent; undefined when it carries no
 * event (an unresolved link). The position must be present: KurrentDB returns it on stream reads since 22.6.
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event) return undefined;
  if (!event.position)
    throw new Error(
      `KurrentDB returned event ${event.id} of ${event.streamId} without its log position (KurrentDB 22.6 or later is required)`,
    );
  return {
    id: event.id,
    stream: event.streamId,
    type: event.type,
    // Events this service wrote are JSON; another writer's binary event is passed on as its bytes.
    data: event.data,
    revision: event.revision,
    position: event.position.commit,
    recordedAt: event.created,
  };
}

// The hash chain on KurrentDB (README.md, Hash chain): appenders on several replicas write to $all at
// once and none of them knows which event the server will put before its own, so an event is chained to
// the previous event of its STREAM, which the appender does know: it reads the stream's last event and
// appends with that revision as the expected one, so two appenders can never chain onto the same event
// (the second fails with WrongExpectedRevision and, for an 'any' append, tries again on the new tail).
// The hash and the time hashed go in the event's metadata; the server's own timestamp is not known
// before the write.

/** What the chain needs of a stream's last event. */
export interface StreamTail {
  revision: bigint;
  /** Null for an event written before the chain existed: the stream's chain starts at the next one. */
  hash: string | null;
}

/** The stream state to append with for a hash chained onto `tail`; throws WrongExpectedRevision when it is not what the caller expects. */
export function chainedStreamState(stream: string, expected: ExpectedRevision, tail: StreamTail | undefined): AppendStreamState {
  if (!revisionMatches(expected, tail?.revision)) throw new WrongExpectedRevision(stream, expected, tail?.revision ?? 'no_stream');
  return tail === undefined ? KURRENT_NO_STREAM : tail.revision;
}

/** The events with their chain metadata: each hashed onto the one before it, the first onto `tail`. */
export function withChainMetadata(
  stream: string,
  data: readonly JSONEventData[],
  tail: StreamTail | undefined,
  recordedAtMicros: bigint,
): JSONEventData[] {
  let previous = tail?.hash ?? GENESIS;
  let revision = tail?.revision ?? -1n;
  return data.map((event) => {
    revision += 1n;
    previous = eventHash(previous, { stream, revision, type: event.type, data: JSON.stringify(event.data), recordedAtMicros });
    return { ...event, metadata: { hash: previous, recorded_at_us: recordedAtMicros.toString() } };
  });
}

/** A resolved event as hashed: undefined for an unresolved link; hash null when it carries no chain metadata. */
export function toHashedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): HashedEvent | undefined {
  const recorded = toRecordedEvent(resolved);
  if (!recorded) return undefined;
  const metadata = chainMetadataOf(resolved.event?.metadata);
  return {
    position: recorded.position,
    stream: recorded.stream,
    revision: recorded.revision,
    type: recorded.type,
    // The client parsed the JSON it read; what this service sent was JSON.stringify of the same value.
    data: recorded.data instanceof Uint8Array ? Buffer.from(recorded.data).toString('utf8') : JSON.stringify(recorded.data),
    recordedAtMicros: metadata ? BigInt(metadata.recorded_at_us) : BigInt(recorded.recordedAt.getTime()) * 1000n,
    hash: metadata?.hash ?? null,
  };
}

function chainMetadataOf(metadata: unknown): { hash: string; recorded_at_us: string } | undefined {
  let value = metadata;
  if (value instanceof Uint8Array) {
    try {
      value = JSON.parse(Buffer.from(value).toString('utf8'));
    } catch {
      return undefined;
    }
  }
  const { hash, recorded_at_us } = (value ?? {}) as { hash?: unknown; recorded_at_us?: unknown };
  return typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash) && typeof recorded_at_us === 'string' && /^\d+$/.test(recorded_at_us)
    ? { hash, recorded_at_us }
    : undefined;
}
