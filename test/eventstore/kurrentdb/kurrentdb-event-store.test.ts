// The KurrentDB adapter: both ports' contract suites against a real server when EVENTSTORE_CONNECTION_STRING
// is set (skipped, with the reason, when not), and always: the conversions to and from the client, the
// subscription loop on a stand-in stream, and the real client against an address where nothing listens.
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { StreamNotFoundError, UnavailableError, WrongExpectedVersionError, type AllStreamResolvedEvent } from '@kurrent/kurrentdb-client';
// The client's own subscription stream and protobuf messages, to run the loop on the real conversion code.
import { Subscription as ClientSubscription } from '@kurrent/kurrentdb-client/dist/streams/utils/Subscription.js';
import { convertGrpcEvent } from '@kurrent/kurrentdb-client/dist/utils/convertGrpcEvent.js';
import sharedPb from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb.js';
import streamsPb from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb.js';
import t from 'tap';
import { ANY, NO_STREAM, WrongExpectedRevision, exactly, type RecordedEvent } from '../../../src/eventstore/event-store.js';
import { openKurrentDbEventStore } from '../../../src/eventstore/kurrentdb/kurrentdb-event-store.js';
import {
  MAX_UINT64,
  exactTypesRegex,
  isStreamNotFound,
  logView,
  readPositionFrom,
  toActualRevision,
  toAppendResult,
  toEventData,
  toRecordedEvent,
  toStreamState,
  wrongExpectedRevisionFrom,
  appendTooLargeFrom,
} from '../../../src/eventstore/kurrentdb/kurrentdb-mapping.js';
import { MaxAppendSizeExceededError } from '@kurrent/kurrentdb-client';
import { AppendTooLarge } from '../../../src/eventstore/event-store.js';
import { KurrentDbSubscription, type KurrentDbSubscriptionOptions } from '../../../src/eventstore/kurrentdb/kurrentdb-subscription.js';
import { eventStoreContract } from '../event-store-contract.js';
import { hashedLogContract } from '../hashed-log-contract.js';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
if (connectionString) {
  eventStoreContract(t, 'kurrentdb', async () => {
    const store = openKurrentDbEventStore(connectionString);
    const others = [store];
    return {
      store,
      another: async () => {
        const other = openKurrentDbEventStore(connectionString);
        others.push(other);
        return other;
      },
      processEnv: { EVENTSTORE_CONNECTION_STRING: connectionString },
      cleanup: async () => void (await Promise.all(others.map((s) => s.close()))),
    };
  });
  hashedLogContract(t, 'kurrentdb', async () => {
    const store = openKurrentDbEventStore(connectionString);
    return { store, cleanup: () => store.close() };
  });
} else {
  for (const contract of ['event store', 'hashed log'])
    t.test(
      `kurrentdb: ${contract} contract`,
      { skip: 'KurrentDB contract: EVENTSTORE_CONNECTION_STRING is not set; no KurrentDB server runs on this machine' },
      async () => {},
    );
}

t.test("the server's append size limits become AppendTooLarge", async (t) => {
  const whole = appendTooLargeFrom(new MaxAppendSizeExceededError(undefined, 1048576), 'order-1');
  t.ok(whole instanceof AppendTooLarge);
  t.match(whole, { stream: 'order-1', bytes: undefined, limit: 1048576 });
  t.match(
    appendTooLargeFrom(Object.assign(new Error('record'), { type: 'append-record-size-exceeded', size: 2000000, maxSize: 1048576 }), 's'),
    { bytes: 2000000, limit: 1048576 },
  );
  t.equal(appendTooLargeFrom(new UnavailableError(), 's'), undefined, 'other errors are not');
});

t.test('expected revisions map to the client stream states', async (t) => {
  t.equal(toStreamState(NO_STREAM), 'no_stream');
  t.equal(toStreamState(ANY), 'any');
  t.equal(toStreamState(exactly(0n)), 0n);
  t.equal(toStreamState(exactly(2n ** 63n)), 2n ** 63n, 'revisions beyond 2^53 stay exact');
  t.throws(() => toStreamState(exactly(-1n)), RangeError);
  t.throws(() => toStreamState(exactly(MAX_UINT64 + 1n)), RangeError);
  t.throws(() => toStreamState({ kind: 'exact', revision: 1 as unknown as bigint }), RangeError);
  t.throws(() => toStreamState({ kind: 'stream_exists' } as never), TypeError);
});

t.test('the actual revision of a conflict: a revision, or no_stream', async (t) => {
  t.equal(toActualRevision(3n), 3n);
  t.equal(toActualRevision(0n), 0n);
  t.equal(toActualRevision('no_stream'), 'no_stream');
  t.equal(toActualRevision(-1n), 'no_stream', 'the client reports a missing stream as -1 in some paths');
});

t.test("the client's WrongExpectedVersionError becomes WrongExpectedRevision", async (t) => {
  const expected = exactly(7n);
  const atRevision = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 7n, current: 1n });
  const mapped = wrongExpectedRevisionFrom(atRevision, 's', expected);
  t.ok(mapped instanceof WrongExpectedRevision);
  t.equal(mapped?.stream, 's');
  t.equal(mapped?.actual, 1n);
  t.strictSame(mapped?.expected, expected);

  const missing = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: 'no_stream' });
  t.equal(wrongExpectedRevisionFrom(missing, 's', exactly(0n))?.actual, 'no_stream');

  // Another copy of the client in node_modules would fail instanceof; its error type still says what it is.
  const foreign = Object.assign(new Error('wrong version'), { type: 'wrong-expected-version', actualState: 4n });
  t.equal(wrongExpectedRevisionFrom(foreign, 's', NO_STREAM)?.actual, 4n);

  t.equal(wrongExpectedRevisionFrom(new UnavailableError(), 's', ANY), undefined, 'other errors are not conflicts');
  t.equal(wrongExpectedRevisionFrom(new Error('x'), 's', ANY), undefined);
  t.equal(wrongExpectedRevisionFrom(undefined, 's', ANY), undefined);
});

t.test('append results: the position of the last event; success: false is a conflict', async (t) => {
  t.strictSame(
    toAppendResult(
      { success: true, nextExpectedRevision: 2n, position: { commit: 9_007_199_254_740_993n, prepare: 9_007_199_254_740_993n } },
      's',
      NO_STREAM,
    ),
    {
      nextRevision: 2n,
      position: 9_007_199_254_740_993n,
    },
  );
  const conflict = (next: bigint) => {
    try {
      toAppendResult({ success: false, nextExpectedRevision: next, position: undefined }, 's', exactly(5n));
    } catch (error) {
      return error;
    }
    return undefined;
  };
  const onMissing = conflict(-1n);
  t.ok(onMissing instanceof WrongExpectedRevision && onMissing.actual === 'no_stream', 'throwOnAppendFailure=false, missing stream');
  const onExisting = conflict(3n);
  t.ok(onExisting instanceof WrongExpectedRevision && onExisting.actual === 3n, 'throwOnAppendFailure=false, existing stream');
  t.throws(
    () => toAppendResult({ success: true, nextExpectedRevision: 0n, position: undefined }, 's', ANY),
    /did not report the log position/,
  );
});

t.test('reads start at the position itself (the caller drops it) or at the start', async (t) => {
  t.equal(readPositionFrom(undefined), 'start');
  t.equal(readPositionFrom(-1n), 'start');
  t.strictSame(readPositionFrom(0n), { commit: 0n, prepare: 0n });
  t.strictSame(readPositionFrom(2n ** 60n + 7n), { commit: 2n ** 60n + 7n, prepare: 2n ** 60n + 7n });
  t.strictSame(readPositionFrom(MAX_UINT64), { commit: MAX_UINT64, prepare: MAX_UINT64 });
  t.throws(() => readPositionFrom(MAX_UINT64 + 1n), RangeError);
});

t.test("the log view hides KurrentDB's own events and, with types, everything else", async (t) => {
  const all = logView();
  t.equal(all.filter.filterOn, 'eventType');
  t.ok('regex' in all.filter && all.filter.regex === '^[^$].*', 'the server excludes types starting with $');
  t.ok(all.accepts('OrderSubmitted'));
  for (const system of ['$>', '$metadata', '$settings', '$statsCollected', '$ProjectionsInitialized']) t.notOk(all.accepts(system), system);

  const some = logView(['OrderPlanned', 'OrderPlanningFailed', '$>']);
  t.ok(some.accepts('OrderPlanned') && some.accepts('OrderPlanningFailed'));
  t.notOk(some.accepts('OrderPlannedV2'), 'exact names, not prefixes');
  t.notOk(some.accepts('$>'), 'a system type is never asked for');
  const regex = 'regex' in some.filter ? new RegExp(some.filter.regex) : undefined;
  t.ok(regex?.test('OrderPlanned') && regex.test('OrderPlanningFailed'));
  t.notOk(regex?.test('OrderPlannedV2') || regex?.test('XOrderPlanned') || regex?.test('$>'));

  const none = logView([]);
  t.notOk(none.accepts('OrderPlanned'));
  t.notOk('regex' in none.filter && new RegExp(none.filter.regex).test('OrderPlanned'), 'an empty list matches nothing');
});

t.test('type names are matched literally, metacharacters and all', async (t) => {
  const odd = ['a.b', 'a*b+c?', '^x$', '(g)[h]{i}', 'p|q', 'back\\slash', 'sp ace', 'hash#', 'da-sh', 'ünï🚚'];
  const regex = new RegExp(exactTypesRegex(odd));
  for (const type of odd) t.ok(regex.test(type), `matches ${type}`);
  for (const near of ['aXb', 'aab+c', 'x', 'g', 'p', 'q', 'backslash', 'space', 'hash', 'da', 'a.bc', ' a.b'])
    t.notOk(regex.test(near), `does not match ${near}`);
});

t.test('appends are checked before anything is sent, as by the embedded adapter', async (t) => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  t.throws(() => toEventData('', [{ type: 'A', data: {} }]), TypeError, 'empty stream name');
  t.throws(() => toEventData('s', []), RangeError, 'no events');
  t.throws(() => toEventData('s', [{ type: '', data: {} }]), TypeError, 'empty type');
  t.throws(() => toEventData('s', [{ type: 'A', data: { n: 1n } }]), TypeError, 'bigint');
  t.throws(() => toEventData('s', [{ type: 'A', data: undefined }]), TypeError, 'undefined');
  t.throws(() => toEventData('s', [{ type: 'A', data: cyclic }]), TypeError, 'cycle');

  const payloads: unknown[] = [{ a: 1 }, [1, 'two'], 'text', 42, null, false];
  const data = toEventData(
    's',
    payloads.map((p, i) => ({ type: `T${i}`, data: p })),
  );
  t.strictSame(
    data.map((d) => d.type),
    ['T0', 'T1', 'T2', 'T3', 'T4', 'T5'],
  );
  t.ok(data.every((d) => d.contentType === 'application/json' && d.metadata === undefined));
  t.strictSame(
    data.map((d) => d.data),
    payloads,
    'any JSON value, top-level scalars included, is sent as given',
  );
  t.ok(
    data.every((d) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(d.id)),
    'ids are UUIDs',
  );
  t.equal(new Set(data.map((d) => d.id)).size, data.length, 'ids are distinct');
});

t.test('resolved events become RecordedEvents keyed by their commit position', async (t) => {
  const created = new Date('2026-11-20T09:15:02.123Z');
  const event = {
    streamId: 'order:g:r',
    id: '4f6d0f0e-7a0b-4f3c-9d1e-2b3c4d5e6f70',
    revision: 3n,
    type: 'OrderSubmitted',
    created,
    data: { order_id: 1 },
    metadata: undefined,
    isJson: true as const,
    position: { commit: 2n ** 55n, prepare: 2n ** 55n },
  };
  t.strictSame(toRecordedEvent({ event }), {
    id: event.id,
    stream: 'order:g:r',
    type: 'OrderSubmitted',
    data: { order_id: 1 },
    revision: 3n,
    position: 2n ** 55n,
    recordedAt: created,
  });
  t.equal(toRecordedEvent({}), undefined, 'an unresolved link carries no event');
  const { position: _position, ...withoutPosition } = event;
  t.throws(() => toRecordedEvent({ event: withoutPosition }), /without its log position/);
  const bytes = new Uint8Array([1, 2, 3]);
  t.equal(
    toRecordedEvent({ event: { ...event, isJson: false as const, data: bytes } })?.data,
    bytes,
    "another writer's binary event is passed on as bytes",
  );
});

t.test('a missing stream is recognised', async (t) => {
  t.ok(isStreamNotFound(new StreamNotFoundError(undefined, 'nope')));
  t.ok(isStreamNotFound(Object.assign(new Error('x'), { type: 'stream-not-found' })));
  t.notOk(isStreamNotFound(new UnavailableError()));
  t.notOk(isStreamNotFound(null));
});

// ---- the subscription loop, on a stand-in for the client's object-mode stream -----------------------

interface FakeSource extends PassThrough {
  unsubscribed: boolean;
  unsubscribe(): Promise<void>;
}

function fakeSource(): FakeSource {
  const source = new PassThrough({ objectMode: true, highWaterMark: 4 }) as FakeSource;
  source.unsubscribed = false;
  source.unsubscribe = async () => {
    source.unsubscribed = true;
  };
  return source;
}

let nextPosition = 100n;
function recorded(type = 'Tick', data: unknown = {}): RecordedEvent {
  nextPosition += 10n;
  return { id: `id-${nextPosition}`, stream: 's', type, data, revision: 0n, position: nextPosition, recordedAt: new Date() };
}

function loop(
  source: FakeSource,
  options: Partial<KurrentDbSubscriptionOptions> & Pick<KurrentDbSubscriptionOptions, 'handle'>,
): KurrentDbSubscription {
  return new KurrentDbSubscription(source, {
    toEvent: (item) => item as RecordedEvent,
    accepts: (type) => !type.startsWith('$'),
    batchSize: 3,
    ...options,
  });
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

t.test('subscription: batches in order, never overlapping, never before subscribe returned', async (t) => {
  const source = fakeSource();
  const events = Array.from({ length: 10 }, (_, i) => recorded('Tick', { i }));
  // Written before the loop exists: still nothing may be handled before the constructor returned.
  source.write(events[0]);
  let constructed = false;
  let early = false;
  let running = 0;
  let maxRunning = 0;
  const batches: RecordedEvent[][] = [];
  const subscription = loop(source, {
    handle: async (batch) => {
      if (!constructed) early = true;
      running++;
      maxRunning = Math.max(maxRunning, running);
      batches.push(batch);
      await sleep(5);
      running--;
    },
  });
  constructed = true;
  for (const event of events.slice(1)) {
    if (!source.write(event)) await new Promise((resolve) => source.once('drain', resolve));
  }
  await waitUntil(() => batches.flat().length === 10, 'all 10 events');
  await subscription.stop();
  t.notOk(early, 'no handler call from inside the constructor');
  t.equal(maxRunning, 1, 'one handler call at a time');
  t.ok(
    batches.every((batch) => batch.length >= 1 && batch.length <= 3),
    'batches of 1 to batchSize',
  );
  t.strictSame(
    batches.flat().map((e) => e.id),
    events.map((e) => e.id),
    'every event once, in order',
  );
  t.ok(source.unsubscribed && source.destroyed, 'stop() cancels and releases the stream');
});

t.test('subscription: skips what the server sends at or before `after`, unwanted types and unresolved links', async (t) => {
  const source = fakeSource();
  const [a, b, c, d, e] = [recorded(), recorded(), recorded('$metadata'), recorded(), recorded('Other')];
  const delivered: RecordedEvent[] = [];
  const subscription = loop(source, {
    after: b!.position,
    accepts: (type) => type === 'Tick',
    toEvent: (item) => (item === 'link' ? undefined : (item as RecordedEvent)),
    handle: (batch) => void delivered.push(...batch),
  });
  for (const item of [a, b, 'link', c, d, e]) source.write(item);
  await waitUntil(() => delivered.length === 1, 'd');
  await sleep(20);
  await subscription.stop();
  t.strictSame(
    delivered.map((x) => x.id),
    [d!.id],
  );
});

t.test('subscription: stop() waits for the running handler; nothing is delivered afterwards', async (t) => {
  const source = fakeSource();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  let finished = false;
  const subscription = loop(source, {
    handle: async () => {
      calls++;
      await gate;
      finished = true;
    },
  });
  source.write(recorded());
  await waitUntil(() => calls === 1, 'the first call');
  let stopped = false;
  const stopping = subscription.stop().then(() => (stopped = true));
  await sleep(30);
  t.notOk(stopped, 'still waiting for the handler');
  release();
  await stopping;
  t.ok(finished, 'the handler had finished');
  source.write(recorded());
  await sleep(30);
  t.equal(calls, 1, 'no delivery after stop()');
  await subscription.stop(); // twice is harmless
});

t.test('subscription: stop() from inside the handler ends delivery', async (t) => {
  const source = fakeSource();
  let calls = 0;
  const subscription: KurrentDbSubscription = loop(source, {
    batchSize: 1,
    handle: () => {
      calls++;
      void subscription.stop();
    },
  });
  source.write(recorded());
  source.write(recorded());
  await waitUntil(() => calls > 0, 'a delivery');
  await subscription.stop();
  t.equal(calls, 1);
});

t.test('subscription: a handler error stops delivery and reaches onError once', async (t) => {
  const source = fakeSource();
  const failure = new Error('projection broke');
  const errors: unknown[] = [];
  let calls = 0;
  const subscription = loop(source, {
    handle: async () => {
      calls++;
      throw failure;
    },
    onError: (error) => errors.push(error),
  });
  source.write(recorded());
  await waitUntil(() => errors.length > 0, 'onError');
  source.write(recorded());
  await sleep(30);
  t.equal(calls, 1);
  t.strictSame(errors, [failure]);
  t.ok(source.unsubscribed, 'the server subscription is cancelled');
  await subscription.stop();
});

t.test('subscription: a stream error is reported after the events buffered before it', async (t) => {
  const source = fakeSource();
  const delivered: RecordedEvent[] = [];
  const errors: unknown[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const subscription = loop(source, {
    batchSize: 1,
    handle: async (batch) => {
      delivered.push(...batch);
      await gate;
    },
    onError: (error) => errors.push(error),
  });
  const first = recorded();
  const second = recorded();
  source.write(first);
  await waitUntil(() => delivered.length === 1, 'the first event');
  source.write(second);
  const lost = new UnavailableError();
  source.emit('error', lost);
  release();
  await waitUntil(() => errors.length > 0, 'onError');
  t.strictSame(
    delivered.map((e) => e.id),
    [first.id, second.id],
  );
  t.strictSame(errors, [lost]);
  await subscription.stop();
});

t.test('subscription: the server ending the stream is a failure, not a silent stop', async (t) => {
  const source = fakeSource();
  const errors: unknown[] = [];
  const subscription = loop(source, { handle: () => {}, onError: (error) => errors.push(error) });
  source.end();
  await waitUntil(() => errors.length > 0, 'onError');
  t.match(String(errors[0]), /ended the subscription/);
  await subscription.stop();
});

// ---- the loop on the client's real subscription stream, fed protobuf messages as the server sends them ----

interface FakeCall extends PassThrough {
  cancelled: boolean;
  cancel(): void;
}

function readEvent(options: {
  id: string;
  stream: string;
  type: string;
  data: unknown;
  revision: bigint;
  position: bigint;
  created: Date;
}): InstanceType<typeof streamsPb.ReadResp> {
  const { ReadResp } = streamsPb;
  const record = new ReadResp.ReadEvent.RecordedEvent();
  const id = new sharedPb.UUID();
  id.setString(options.id);
  record.setId(id);
  const stream = new sharedPb.StreamIdentifier();
  stream.setStreamName(Buffer.from(options.stream, 'utf8'));
  record.setStreamIdentifier(stream);
  record.setStreamRevision(options.revision.toString());
  record.setCommitPosition(options.position.toString());
  record.setPreparePosition(options.position.toString());
  // The server sends `created` as 100 ns ticks since the Unix epoch.
  record
    .getMetadataMap()
    .set('type', options.type)
    .set('content-type', 'application/json')
    .set('created', (BigInt(options.created.getTime()) * 10_000n).toString());
  record.setData(Buffer.from(JSON.stringify(options.data), 'utf8'));
  const event = new ReadResp.ReadEvent();
  event.setEvent(record);
  event.setCommitPosition(options.position.toString());
  const response = new ReadResp();
  response.setEvent(event);
  return response;
}

t.test("subscription on the client's own stream: protobuf events in, RecordedEvents out; a lost connection is reported", async (t) => {
  const call = new PassThrough({ objectMode: true }) as FakeCall;
  call.cancelled = false;
  call.cancel = () => {
    call.cancelled = true;
  };
  const source = new ClientSubscription<AllStreamResolvedEvent>(async () => call as never, convertGrpcEvent, { highWaterMark: 8 });
  const view = logView();
  const delivered: RecordedEvent[] = [];
  const errors: unknown[] = [];
  const created = new Date('2026-11-20T09:15:02.123Z');
  const big = 2n ** 53n + 10n;
  const subscription = new KurrentDbSubscription(source, {
    after: big,
    toEvent: (item) => toRecordedEvent(item as AllStreamResolvedEvent),
    accepts: view.accepts,
    batchSize: 2,
    handle: (batch) => void delivered.push(...batch),
    onError: (error) => errors.push(error),
  });

  const caughtUp = new streamsPb.ReadResp();
  caughtUp.setCaughtUp(new streamsPb.ReadResp.CaughtUp());
  const base = { stream: 'order:g:PO-1', type: 'OrderSubmitted', revision: 0n, created };
  call.write(readEvent({ ...base, id: '00000000-0000-4000-8000-000000000001', data: { order_id: 1 }, position: big })); // at `after`: skipped
  call.write(
    readEvent({
      ...base,
      id: '00000000-0000-4000-8000-000000000002',
      type: '$metadata',
      stream: '$$order:g:PO-1',
      data: {},
      position: big + 100n,
    }),
  );
  call.write(
    readEvent({ ...base, id: '00000000-0000-4000-8000-000000000003', data: { order_id: 1, text: 'Grüße 🚚' }, position: big + 200n }),
  );
  call.write(caughtUp);
  call.write(
    readEvent({
      ...base,
      id: '00000000-0000-4000-8000-000000000004',
      type: 'PackingInstructionsDownloaded',
      revision: 1n,
      data: { order_id: 1 },
      position: big + 300n,
    }),
  );
  await waitUntil(() => delivered.length === 2, 'two events');
  t.strictSame(delivered, [
    {
      id: '00000000-0000-4000-8000-000000000003',
      stream: 'order:g:PO-1',
      type: 'OrderSubmitted',
      data: { order_id: 1, text: 'Grüße 🚚' },
      revision: 0n,
      position: big + 200n,
      recordedAt: created,
    },
    {
      id: '00000000-0000-4000-8000-000000000004',
      stream: 'order:g:PO-1',
      type: 'PackingInstructionsDownloaded',
      data: { order_id: 1 },
      revision: 1n,
      position: big + 300n,
      recordedAt: created,
    },
  ]);

  call.emit('error', Object.assign(new Error('14 UNAVAILABLE: connection lost'), { code: 14, details: 'connection lost' }));
  await waitUntil(() => errors.length > 0, 'onError');
  t.ok(errors[0] instanceof UnavailableError, "the gRPC status arrives as the client's UnavailableError");
  await subscription.stop();
  t.ok(call.cancelled, 'the gRPC call is cancelled');
});

// ---- the real client, where nothing listens --------------------------------------------------------

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

t.test('with no server: calls fail (and are not mistaken for conflicts or empty streams), close() resolves', async (t) => {
  const store = openKurrentDbEventStore(`kurrentdb://127.0.0.1:${await closedPort()}?tls=false&defaultDeadline=5000`);
  const settle = (p: Promise<unknown>) =>
    p.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );

  const append = await settle(store.append('s', [{ type: 'A', data: {} }], NO_STREAM));
  t.ok('error' in append && !(append.error instanceof WrongExpectedRevision), 'append rejects, and not as a conflict');
  const read = await settle(store.readStream('s'));
  t.ok('error' in read, 'readStream rejects rather than answering [] for an unreachable server');
  t.ok('error' in (await settle(store.readAll(undefined, 5))), 'readAll rejects');
  t.ok('error' in (await settle(store.headPosition())), 'headPosition rejects');
  const invalid = await settle(store.append('s', [], NO_STREAM));
  t.ok('error' in invalid && invalid.error instanceof RangeError, 'a malformed append is rejected before any request');

  const errors: unknown[] = [];
  store.subscribe({ handle: () => void t.fail('no event can arrive'), onError: (error) => errors.push(error) });
  await waitUntil(() => errors.length > 0, 'the subscription to report the failure', 10_000);
  t.ok(errors[0] instanceof Error, `onError got ${String(errors[0])}`);

  await store.close();
  await t.rejects(store.append('s', [{ type: 'A', data: {} }], ANY), /closed/);
  await t.rejects(store.readAll(), /closed/);
  t.throws(() => store.subscribe({ handle: () => {} }), /closed/);
  await store.close(); // twice is fine
});

t.test('a malformed connection string fails at once', async (t) => {
  t.throws(() => openKurrentDbEventStore('postgres://localhost:5432'));
});
