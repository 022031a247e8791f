// The event store port on KurrentDB (or EventStoreDB 22.6+, same servers) through @kurrent/kurrentdb-client.
// Streams are KurrentDB streams; the log is $all without KurrentDB's own `$` events; positions are
// commit positions in $all (see kurrentdb-mapping.ts for why that number is unique and ordered).
//
// What the server gives and this adapter relies on:
// - an append is one atomic write to one stream, checked against the expected stream state on the
//   leader; it is acknowledged once written to disk (and, in a cluster, to a majority of nodes);
// - the append's answer carries the log position of its last event;
// - $all is read and subscribed to in commit order, filtered on the server by event type.
import { BACKWARDS, END, KurrentDBClient, type AllStreamResolvedEvent, type ResolvedEvent } from '@kurrent/kurrentdb-client';
import {
  WrongExpectedRevision,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.js';
import { GENESIS, type HashedEvent } from '../hash-chain.js';
import type { HashedLog } from '../hashed-log.js';
import {
  appendTooLargeFrom,
  chainedStreamState,
  toHashedEvent,
  withChainMetadata,
  isStreamNotFound,
  logView,
  readPositionFrom,
  toAppendResult,
  toEventData,
  toRecordedEvent,
  toStreamState,
  wrongExpectedRevisionFrom,
  type StreamTail,
  type LogView,
} from './kurrentdb-mapping.js';
import { KurrentDbSubscription } from './kurrentdb-subscription.js';
import { nowMicros } from '../recorded-at.js';
import { LiveSubscriptions } from '../live-subscriptions.js';

// An 'any' append whose stream moved between the read of its tail and the write is chained again.
const CHAIN_ATTEMPTS = 5;

export interface KurrentDbEventStoreOptions {
  /** Most events handed to a subscription handler at once. Default 500. */
  batchSize?: number;
}

/**
 * Connects lazily: the client opens its gRPC channel on the first call, so this never throws for an
 * unreachable server (the first call rejects instead). A malformed connection string throws here.
 * Example: `kurrentdb://localhost:2113?tls=false`.
 */
export function openKurrentDbEventStore(connectionString: string, options: KurrentDbEventStoreOptions = {}): KurrentDbEventStore {
  return new KurrentDbEventStore(KurrentDBClient.connectionString(connectionString), options);
}

export class KurrentDbEventStore implements EventStore, HashedLog {
  readonly #client: KurrentDBClient;
  readonly #log: LogView = logView();
  readonly #batchSize: number;
  readonly #subscriptions = new LiveSubscriptions<KurrentDbSubscription>();
  /** Calls in flight, so that close() lets them finish before it cancels the client's streams. */
  readonly #pending = new Set<Promise<unknown>>();
  #closing: Promise<void> | undefined;

  constructor(client: KurrentDBClient, options: KurrentDbEventStoreOptions = {}) {
    this.#batchSize = options.batchSize ?? 500;
    if (!Number.isInteger(this.#batchSize) || this.#batchSize < 1) throw new RangeError('batchSize must be a positive integer');
    this.#client = client;
  }

  // `settle` needs nothing here: the server acknowledges an append once it is durable.
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.#track(async () => {
      // Both throw TypeError/RangeError for a malformed call, before anything is sent.
      const data = toEventData(stream, events);
      toStreamState(expected);
      for (let attempt = 1; ; attempt++) {
        // The hash chain: onto the stream's last event, with its revision as the expected one (kurrentdb-mapping.ts).
        const last = await this.#readLast(stream, toHashedEvent);
        const tail: StreamTail | undefined = last && { revision: last.revision, hash: last.hash };
        const streamState = chainedStreamState(stream, expected, tail);
        try {
          const result = await this.#client.appendToStream(stream, withChainMetadata(stream, data, tail, nowMicros()), { streamState });
          return toAppendResult(result, stream, expected);
        } catch (error) {
          const conflict = error instanceof WrongExpectedRevision ? error : wrongExpectedRevisionFrom(error, stream, expected);
          if (conflict && expected.kind === 'any' && attempt < CHAIN_ATTEMPTS) continue;
          throw conflict ?? appendTooLargeFrom(error, stream) ?? error;
        }
      }
    });
  }

  readStream(stream: string): Promise<RecordedEvent[]> {
    return this.#track(() => this.#readStream(stream, toRecordedEvent));
  }

  readLastEvent(stream: string): Promise<RecordedEvent | undefined> {
    return this.#track(() => this.#readLast(stream, toRecordedEvent));
  }

  readAll(after?: bigint, limit?: number): Promise<RecordedEvent[]> {
    return this.#track(() => this.#readAll(after, limit, toRecordedEvent));
  }

  readonly chainScope = 'stream';

  readHashed(after?: bigint, limit?: number): Promise<HashedEvent[]> {
    return this.#track(() => this.#readAll(after, limit, toHashedEvent));
  }

  readHeadHashed(): Promise<HashedEvent | undefined> {
    return this.#track(async () => {
      const read = this.#client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, filter: this.#log.filter });
      for await (const resolved of read) {
        const event = toHashedEvent(resolved);
        if (event && this.#log.accepts(event.type)) return event;
      }
      return undefined;
    });
  }

  readStreamHashed(stream: string): Promise<(HashedEvent & { previousHash: string })[]> {
    return this.#track(async () => {
      let previous: string | null = null;
      return (await this.#readStream(stream, toHashedEvent)).map((event) => {
        const withPrevious = { ...event, previousHash: previous ?? GENESIS };
        previous = event.hash ?? previous;
        return withPrevious;
      });
    });
  }

  /** Events are immutable on KurrentDB: a stream written before the chain existed starts its chain at its first hashed event. */
  async chainLegacyEvents(): Promise<number> {
    this.#assertOpen();
    return 0;
  }

  async #readStream<T extends { position: bigint }>(stream: string, map: (resolved: ResolvedEvent) => T | undefined): Promise<T[]> {
    const events: T[] = [];
    try {
      for await (const resolved of this.#client.readStream(stream)) {
        const event = map(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async #readLast<T>(stream: string, map: (resolved: ResolvedEvent) => T | undefined): Promise<T | undefined> {
    try {
      for await (const resolved of this.#client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        const event = map(resolved);
        if (event) return event;
      }
    } catch (error) {
      if (isStreamNotFound(error)) return undefined;
      throw error;
    }
    return undefined;
  }

  async #readAll<T extends { position: bigint; type: string }>(
    after: bigint | undefined,
    limit: number | undefined,
    map: (resolved: AllStreamResolvedEvent) => T | undefined,
  ): Promise<T[]> {
    if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) {
      throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    }
    if (limit === 0) return [];
    const events: T[] = [];
    // A forward read from a position includes the event at it: ask for one more, drop it below.
    const read = this.#client.readAll({
      fromPosition: readPositionFrom(after),
      filter: this.#log.filter,
      ...(limit !== undefined ? { maxCount: limit + 1 } : {}),
    });
    for await (const resolved of read) {
      const event = map(resolved);
      if (!event || (after !== undefined && event.position <= after) || !this.#log.accepts(event.type)) continue;
      events.push(event);
      if (events.length === limit) break;
    }
    return events;
  }

  headPosition(): Promise<bigint | undefined> {
    return this.#track(async () => {
      const read = this.#client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, filter: this.#log.filter });
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event && this.#log.accepts(event.type)) return event.position;
      }
      return undefined;
    });
  }

  subscribe(options: SubscribeOptions): Subscription {
    this.#assertOpen();
    const view = options.types === undefined ? this.#log : logView(options.types);
    // The stream buffers at most a batch; beyond that gRPC flow control holds the server back.
    const source = this.#client.subscribeToAll(
      { fromPosition: readPositionFrom(options.after), filter: view.filter },
      { highWaterMark: this.#batchSize },
    );
    const reading = {
      after: options.after,
      handle: options.handle,
      onError: options.onError,
      toEvent: (item: unknown) => toRecordedEvent(item as AllStreamResolvedEvent),
      accepts: view.accepts,
      batchSize: this.#batchSize,
    };
    return this.#subscriptions.open((stopped) => new KurrentDbSubscription(source, reading, stopped));
  }

  /** Stops every subscription (waiting for running handlers), lets calls in flight settle, then releases the client. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#subscriptions.stopAll();
      await Promise.allSettled([...this.#pending]);
      await this.#client.dispose();
    })();
    return this.#closing;
  }

  #track<T>(call: () => Promise<T>): Promise<T> {
    if (this.#closing) return Promise.reject(new Error('event store is closed'));
    const promise = call();
    this.#pending.add(promise);
    void promise.finally(() => this.#pending.delete(promise)).catch(() => {});
    return promise;
  }

  #assertOpen(): void {
    if (this.#closing) throw new Error('event store is closed');
  }
}
