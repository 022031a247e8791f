// The behaviour every EventStore backend must have. Backend-neutral: each test opens its own store but
// never assumes the log is empty. Streams are named with a per-test prefix, and log-wide reads start
// after a marker event the test appended itself, so the suite also holds against a shared server.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { embeddedEnv } from '../support/embedded-env.js';
import type t from 'tap';
import {
  ANY,
  NO_STREAM,
  WrongExpectedRevision,
  exactly,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../src/eventstore/event-store.js';

export type TapTest = Parameters<Parameters<typeof t.test>[0]>[0];

export interface OpenedStore {
  store: EventStore;
  /** Closes the store and removes whatever open() created. */
  cleanup(): Promise<void>;
  /** Another store on the same log, with connections of its own (closed by cleanup). */
  another(): Promise<EventStore>;
  /** What a process of its own needs in its environment to open the same log (ORDERS_DATA_DIR, POSTGRES_URL...). */
  processEnv: Record<string, string>;
}

const writerScript = fileURLToPath(new URL('../support/event-store-writer.js', import.meta.url));

export function eventStoreContract(tap: TapTest, name: string, open: () => Promise<OpenedStore>): void {
  tap.test(`${name}: event store contract`, async (tap) => {
    const test = (title: string, body: (t: TapTest, store: EventStore, names: Names, opened: OpenedStore) => Promise<void>) =>
      tap.test(title, async (t) => {
        const opened = await open();
        t.teardown(opened.cleanup);
        await body(t, opened.store, names(), opened);
      });

    test('a follower on a connection of its own sees every event exactly once, in position order, while four writers on others append', async (t, store, n, opened) => {
      const writers = await Promise.all(Array.from({ length: 4 }, () => opened.another()));
      const marker = await n.marker(store);
      const got = collect(store, { after: marker });
      const written = new Set<string>();
      await Promise.all(
        writers.map(async (writer, w) => {
          for (let i = 0; i < 60; i++) {
            // Appends of one to three events, some at once, some after a pause: commits of different
            // sizes from different connections interleave in every way the store allows.
            const events = Array.from({ length: 1 + ((w + i) % 3) }, (_, j) => ev('Written', { w, i, j }));
            const done = writer.append(n.stream(`w${w}-${i % 7}`), events, ANY).then(async () => {
              const stream = await writer.readStream(n.stream(`w${w}-${i % 7}`));
              for (const event of stream) written.add(event.id);
            });
            if (i % 4 === 0) await done;
            else void done;
            if (i % 9 === 0) await sleep(1);
          }
        }),
      );
      const expected = (await store.readAll(marker)).filter(n.isOurs).length;
      await got.until((events) => events.filter(n.isOurs).length >= expected, `${expected} events`);
      await sleep(200);
      await got.subscription.stop();
      const delivered = got.events();
      assertIncreasing(
        t,
        delivered.map((e) => e.position),
      );
      t.equal(new Set(delivered.map((e) => e.id)).size, delivered.length, 'no event delivered twice');
      const log = await store.readAll(marker);
      t.strictSame(
        delivered.map(key),
        log.filter((e) => e.position <= delivered.at(-1)!.position).map(key),
        'exactly the log, in order: none skipped',
      );
      t.ok(
        [...written].every((id) => delivered.some((e) => e.id === id)),
        'every event a writer wrote reached the follower',
      );
    });

    test('expected-revision appends from three processes at once lose no update and write no revision twice', async (t, store, n, opened) => {
      const s = n.stream('counter');
      const run = promisify(execFile);
      const outputs = await Promise.all(
        ['p1', 'p2', 'p3'].map((writer) =>
          // Only this log's variables: the suite's own environment may name the test servers' log.
          run(process.execPath, [writerScript, s, '20', writer], {
            env: embeddedEnv({ ...opened.processEnv, LOG_LEVEL: 'silent' }),
            timeout: 120_000,
          }),
        ),
      );
      const conflicts = outputs.map((output) => (JSON.parse(output.stdout.trim()) as { conflicts: number }).conflicts);
      const events = await store.readStream(s);
      t.equal(events.length, 60, '3 processes x 20 increments');
      t.strictSame(
        events.map((e) => e.revision),
        events.map((_, i) => BigInt(i)),
        'revisions 0..59, none twice',
      );
      t.strictSame(
        events.map((e) => (e.data as { value: number }).value),
        events.map((_, i) => i + 1),
        'each increment saw the one before it',
      );
      for (const writer of ['p1', 'p2', 'p3']) {
        t.strictSame(
          events.filter((e) => (e.data as { writer: string }).writer === writer).map((e) => (e.data as { k: number }).k),
          Array.from({ length: 20 }, (_, k) => k),
          `${writer}'s increments each once, in its order`,
        );
      }
      t.comment(`conflicts retried per process: ${conflicts.join(', ')}`);
    });

    test('no_stream creates the stream; revisions start at 0; the result names the last event', async (t, store, n) => {
      const s = n.stream('order');
      const before = Date.now();
      const result = await store.append(s, [ev('Created', { a: 1 }), ev('Priced', { b: 2 }), ev('Placed', { c: 3 })], NO_STREAM);
      const after = Date.now();
      t.equal(result.nextRevision, 2n);
      const events = await store.readStream(s);
      t.strictSame(
        events.map((e) => e.type),
        ['Created', 'Priced', 'Placed'],
      );
      t.strictSame(
        events.map((e) => e.revision),
        [0n, 1n, 2n],
      );
      t.strictSame(
        events.map((e) => e.data),
        [{ a: 1 }, { b: 2 }, { c: 3 }],
      );
      t.ok(
        events.every((e) => e.stream === s),
        'every event names its stream',
      );
      t.equal(result.position, events[2]?.position, 'result.position is the position of the last event');
      assertIncreasing(
        t,
        events.map((e) => e.position),
      );
      t.equal(new Set(events.map((e) => e.id)).size, 3, 'ids are distinct');
      t.ok(
        events.every((e) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(e.id)),
        'ids are UUIDs',
      );
      for (const e of events) {
        t.ok(e.recordedAt instanceof Date, 'recordedAt is a Date');
        // Generous window: a server backend has its own clock.
        t.ok(e.recordedAt.getTime() >= before - 60_000 && e.recordedAt.getTime() <= after + 60_000, 'recordedAt is now');
      }
    });

    test('headPosition is the position of the last event appended', async (t, store, n) => {
      const first = await store.append(n.stream('head-a'), [ev('Created')], NO_STREAM);
      t.ok((await store.headPosition())! >= first.position);
      const second = await store.append(n.stream('head-b'), [ev('Created'), ev('Placed')], NO_STREAM);
      const head = await store.headPosition();
      t.ok(head !== undefined && head >= second.position && head > first.position, `head ${head} after ${second.position}`);
    });

    test('no_stream fails on an existing stream and writes none of the events', async (t, store, n) => {
      const s = n.stream('order');
      await store.append(s, [ev('Created')], NO_STREAM);
      await expectWrongRevision(t, store.append(s, [ev('Created'), ev('Placed')], NO_STREAM), s, 0n);
      t.strictSame(
        (await store.readStream(s)).map((e) => e.type),
        ['Created'],
      );
    });

    test('exact succeeds only at the current revision', async (t, store, n) => {
      const s = n.stream('order');
      await store.append(s, [ev('A')], NO_STREAM);
      t.equal((await store.append(s, [ev('B')], exactly(0n))).nextRevision, 1n);
      await expectWrongRevision(t, store.append(s, [ev('X')], exactly(0n)), s, 1n);
      await expectWrongRevision(t, store.append(s, [ev('X'), ev('Y')], exactly(5n)), s, 1n);
      t.equal((await store.append(s, [ev('C'), ev('D')], exactly(1n))).nextRevision, 3n);
      t.strictSame(
        (await store.readStream(s)).map((e) => e.type),
        ['A', 'B', 'C', 'D'],
      );
      t.strictSame(
        (await store.readStream(s)).map((e) => e.revision),
        [0n, 1n, 2n, 3n],
      );
    });

    test('exact on a missing stream fails with actual no_stream', async (t, store, n) => {
      const s = n.stream('missing');
      await expectWrongRevision(t, store.append(s, [ev('A')], exactly(0n)), s, 'no_stream');
      t.strictSame(await store.readStream(s), []);
    });

    test('any appends whether or not the stream exists', async (t, store, n) => {
      const s = n.stream('order');
      t.equal((await store.append(s, [ev('A')], ANY)).nextRevision, 0n);
      t.equal((await store.append(s, [ev('B'), ev('C')], ANY)).nextRevision, 2n);
      t.strictSame(
        (await store.readStream(s)).map((e) => e.type),
        ['A', 'B', 'C'],
      );
    });

    test('WrongExpectedRevision carries the stream, what was expected and what was found', async (t, store, n) => {
      const s = n.stream('order');
      await store.append(s, [ev('A'), ev('B')], NO_STREAM);
      const expected = exactly(7n);
      const error = await store.append(s, [ev('C')], expected).then(
        () => undefined,
        (e: unknown) => e,
      );
      t.ok(error instanceof WrongExpectedRevision);
      t.ok(error instanceof Error);
      if (error instanceof WrongExpectedRevision) {
        t.equal(error.stream, s);
        t.strictSame(error.expected, expected);
        t.equal(error.actual, 1n);
        t.equal(error.name, 'WrongExpectedRevision');
      }
    });

    test('the events of one append are adjacent in the log, even when appends run concurrently', async (t, store, n) => {
      const marker = await n.marker(store);
      const streams = Array.from({ length: 20 }, (_, i) => n.stream(`batch-${i}`));
      await Promise.all(streams.map((s, i) => store.append(s, [ev('A', { i }), ev('B', { i }), ev('C', { i })], NO_STREAM)));
      const log = await store.readAll(marker);
      assertIncreasing(
        t,
        log.map((e) => e.position),
      );
      for (const s of streams) {
        const at = log.findIndex((e) => e.stream === s);
        t.strictSame(
          log.slice(at, at + 3).map((e) => `${e.stream}@${e.revision}:${e.type}`),
          [`${s}@0:A`, `${s}@1:B`, `${s}@2:C`],
          `${s} is written in one piece`,
        );
      }
    });

    test('readStream returns only that stream, in revision order; [] for a missing stream', async (t, store, n) => {
      const s1 = n.stream('one');
      const s2 = n.stream('two');
      await store.append(s1, [ev('A')], NO_STREAM);
      await store.append(s2, [ev('X')], NO_STREAM);
      await store.append(s1, [ev('B'), ev('C')], exactly(0n));
      await store.append(s2, [ev('Y')], exactly(0n));
      await store.append(s1, [ev('D')], exactly(2n));
      const one = await store.readStream(s1);
      t.strictSame(
        one.map((e) => [e.revision, e.type]),
        [
          [0n, 'A'],
          [1n, 'B'],
          [2n, 'C'],
          [3n, 'D'],
        ],
      );
      t.ok(one.every((e) => e.stream === s1));
      assertIncreasing(
        t,
        one.map((e) => e.position),
      );
      t.strictSame(
        (await store.readStream(s2)).map((e) => e.type),
        ['X', 'Y'],
      );
      t.strictSame(await store.readStream(n.stream('never-written')), []);
    });

    test('readLastEvent is the last event of that stream only; undefined for a missing stream', async (t, store, n) => {
      const s1 = n.stream('last-one');
      const s2 = n.stream('last-two');
      await store.append(s1, [ev('A'), ev('B')], NO_STREAM);
      await store.append(s2, [ev('X')], NO_STREAM);
      await store.append(s1, [ev('C')], exactly(1n));
      const last = await store.readLastEvent(s1);
      t.equal(last?.type, 'C');
      t.equal(last?.revision, 2n);
      t.equal(last?.stream, s1);
      t.strictSame(last, (await store.readStream(s1)).at(-1), 'the same event as readStream gives');
      t.equal((await store.readLastEvent(s2))?.type, 'X');
      t.equal(await store.readLastEvent(n.stream('never-written')), undefined);
    });

    test('readAll pages through the log in position order', async (t, store, n) => {
      const marker = await n.marker(store);
      const written: string[] = [];
      for (let i = 0; i < 10; i++) {
        const s = n.stream(`s${i % 4}`);
        const events = Array.from({ length: 1 + (i % 3) }, (_, j) => ev('Paged', { i, j }));
        await store.append(s, events, ANY);
        written.push(...events.map((_, j) => `${i}.${j}`));
      }
      const full = await store.readAll(marker);
      t.ok(
        full.every((e) => e.position > marker),
        'only events after `after`',
      );
      assertIncreasing(
        t,
        full.map((e) => e.position),
      );
      const ours = full.filter(n.isOurs);
      t.strictSame(
        ours.map((e) => {
          const d = e.data as { i: number; j: number };
          return `${d.i}.${d.j}`;
        }),
        written,
        'in append order',
      );

      const paged: RecordedEvent[] = [];
      let after = marker;
      for (;;) {
        const page = await store.readAll(after, 7);
        t.ok(page.length <= 7, 'a page respects the limit');
        const last = page[page.length - 1];
        if (!last) break;
        paged.push(...page);
        after = last.position;
        if (paged.filter(n.isOurs).length === written.length) break;
      }
      t.strictSame(paged.slice(0, full.length).map(key), full.map(key), 'pages join up to the whole read');
      t.strictSame(await store.readAll(marker, 0), [], 'limit 0 reads nothing');

      const lastOurs = ours[ours.length - 1]!;
      t.ok(
        (await store.readAll(lastOurs.position)).every((e) => e.position > lastOurs.position),
        '`after` is exclusive',
      );

      const head10 = await store.readAll(undefined, 10);
      t.ok(head10.length > 0 && head10.length <= 10, 'no `after` reads from the start of the log');
      t.strictSame((await store.readAll(undefined, 3)).map(key), head10.slice(0, 3).map(key));
    });

    test('data round-trips exactly: nested JSON, unicode, edge values', async (t, store, n) => {
      const payloads: unknown[] = [
        { order: { id: 'o-1', lines: [{ sku: 'A', qty: 2, dims: { l: 1.25, w: 0.5, h: 3e-7 } }], tags: [] }, empty: {} },
        { text: 'Grüße, 東京, مرحبا, שלום, 🚚📦👩🏽‍🔧, e\u0301', quotes: `"'\\/`, controls: '\n\r\t\u0000\u001f\u2028' },
        { numbers: [0, -1, 1.5, -2.25e-10, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER], flags: [true, false], nothing: null },
        { loneSurrogate: '\ud800x', deep: { a: { b: { c: { d: { e: { f: [[[['deep']]]] } } } } } } },
        { big: 'x'.repeat(200_000) },
        ['top-level', 'array', 1, null],
        'a top-level string',
        42,
        null,
      ];
      const s = n.stream('round-trip-ünïcødé-🚚');
      await store.append(
        s,
        payloads.map((data) => ev('Payload', data)),
        NO_STREAM,
      );
      const events = await store.readStream(s);
      t.equal(events.length, payloads.length);
      events.forEach((e, i) => t.strictSame(e.data, payloads[i], `payload ${i}`));
      t.equal(events[0]?.stream, s, 'unicode stream name round-trips');
    });

    test('exactly one of 16 concurrent no_stream appends to one stream wins', async (t, store, n) => {
      const s = n.stream('contended');
      const results = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => store.append(s, [ev('Created', { i })], NO_STREAM)));
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      t.equal(won.length, 1, 'one winner');
      t.ok(
        results.every((r) => r.status === 'fulfilled' || (r.reason instanceof WrongExpectedRevision && r.reason.actual === 0n)),
        'the others fail with WrongExpectedRevision (actual 0)',
      );
      const events = await store.readStream(s);
      t.equal(events.length, 1);
      t.strictSame(events[0]?.data, { i: won[0] }, "the winner's event is the one stored");
    });

    test('exactly one of 16 concurrent appends at the same exact revision wins', async (t, store, n) => {
      const s = n.stream('contended');
      await store.append(s, [ev('Created')], NO_STREAM);
      const results = await Promise.allSettled(
        Array.from({ length: 16 }, (_, i) => store.append(s, [ev('Changed', { i }), ev('Noted', { i })], exactly(0n))),
      );
      t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one winner');
      t.ok(
        results.every((r) => r.status === 'fulfilled' || r.reason instanceof WrongExpectedRevision),
        'the others fail with WrongExpectedRevision',
      );
      t.strictSame(
        (await store.readStream(s)).map((e) => e.revision),
        [0n, 1n, 2n],
      );
    });

    test('read-append-retry loops under contention lose no update', async (t, store, n) => {
      const s = n.stream('counter');
      const workers = 8;
      const increments = 10;
      let conflicts = 0;
      await Promise.all(
        Array.from({ length: workers }, async (_, w) => {
          for (let k = 0; k < increments; k++) {
            for (;;) {
              const events = await store.readStream(s);
              const last = events[events.length - 1];
              try {
                await store.append(s, [ev('Incremented', { w, k })], last ? exactly(last.revision) : NO_STREAM);
                break;
              } catch (error) {
                if (!(error instanceof WrongExpectedRevision)) throw error;
                conflicts++;
              }
            }
          }
        }),
      );
      const events = await store.readStream(s);
      t.equal(events.length, workers * increments);
      t.strictSame(
        events.map((e) => e.revision),
        events.map((_, i) => BigInt(i)),
      );
      t.comment(`${conflicts} conflicts retried`);
    });

    test('subscribe: catch-up then live, no gap and no duplicate while appends run concurrently', async (t, store, n) => {
      const marker = await n.marker(store);
      for (let i = 0; i < 60; i++) await store.append(n.stream(`h${i % 6}`), fiveEvents('History', i), ANY);
      const got = collect(store, { after: marker }, async (batch) => {
        // A slow consumer, so that live appends land while it is still catching up.
        if (batch.length > 0) await sleep(1);
      });
      await Promise.all(
        Array.from({ length: 10 }, async (_, w) => {
          for (let i = 0; i < 30; i++) await store.append(n.stream(`live${w}`), [ev('Live', { w, i })], ANY);
        }),
      );
      await got.until((events) => events.filter(n.isOurs).length >= 300 + 300, 'all 600 events');
      const tail = await store.append(n.stream('tail'), [ev('Tail')], NO_STREAM);
      await got.until((events) => events.some((e) => e.position === tail.position), 'the live tail event');
      await got.subscription.stop();

      const delivered = got.events();
      assertIncreasing(
        t,
        delivered.map((e) => e.position),
      );
      t.equal(new Set(delivered.map((e) => e.id)).size, delivered.length, 'no event delivered twice');
      t.ok(
        delivered.every((e) => e.position > marker),
        'nothing at or before `after`',
      );
      const log = (await store.readAll(marker)).filter((e) => e.position <= tail.position);
      t.strictSame(delivered.filter((e) => e.position <= tail.position).map(key), log.map(key), 'exactly the log, in order');
      t.ok(
        got.batches.every((b) => b.length > 0),
        'no empty batch',
      );
    });

    test('subscribe without `after` starts at the beginning of the log', async (t, store, n) => {
      const first = await store.readAll(undefined, 1);
      await store.append(n.stream('s'), [ev('A'), ev('B'), ev('C')], NO_STREAM);
      const got = collect(store, {});
      await got.until((events) => events.filter(n.isOurs).length === 3, 'our 3 events');
      await got.subscription.stop();
      const expectedFirst = first[0] ?? (await store.readAll(undefined, 1))[0];
      t.equal(got.events()[0]?.position, expectedFirst?.position, 'the first delivered event is the first of the log');
      t.strictSame(
        got
          .events()
          .filter(n.isOurs)
          .map((e) => e.type),
        ['A', 'B', 'C'],
      );
    });

    test('subscribe `after` a position delivers only later events, never from inside subscribe()', async (t, store, n) => {
      const s = n.stream('s');
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await store.append(s, [ev(`E${i}`)], i === 0 ? NO_STREAM : exactly(BigInt(i - 1))));
      let returned = false;
      let calledEarly = false;
      const got = collect(store, { after: results[2]!.position }, () => {
        if (!returned) calledEarly = true;
      });
      returned = true;
      await got.until((events) => events.filter(n.isOurs).length === 2, 'E3 and E4');
      await store.append(s, [ev('E5')], exactly(4n));
      await got.until((events) => events.filter(n.isOurs).length === 3, 'live E5');
      await got.subscription.stop();
      t.notOk(calledEarly, 'the handler was not called before subscribe() returned');
      t.strictSame(
        got
          .events()
          .filter(n.isOurs)
          .map((e) => e.type),
        ['E3', 'E4', 'E5'],
      );
    });

    test('the next batch waits for the handler promise', async (t, store, n) => {
      const marker = await n.marker(store);
      let running = 0;
      let maxRunning = 0;
      const got = collect(store, { after: marker }, async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(5);
        running--;
      });
      for (let i = 0; i < 20; i++) await store.append(n.stream('s'), [ev('Tick', { i })], ANY);
      await got.until((events) => events.filter(n.isOurs).length === 20, '20 events');
      await got.subscription.stop();
      t.equal(maxRunning, 1, 'never two handler calls at once');
      t.ok(got.batches.length >= 2, `delivered in ${got.batches.length} batches`);
      t.strictSame(
        got
          .events()
          .filter(n.isOurs)
          .map((e) => (e.data as { i: number }).i),
        [...Array(20).keys()],
      );
    });

    test('types filters the delivered events', async (t, store, n) => {
      const marker = await n.marker(store);
      const types = ['Alpha', 'Beta', 'Gamma'];
      for (let i = 0; i < 30; i++)
        await store.append(n.stream(`s${i % 3}`), [ev(types[i % 3]!, { i }), ev(types[(i + 1) % 3]!, { i })], ANY);
      const got = collect(store, { after: marker, types: ['Alpha', 'Gamma'] });
      await got.until((events) => events.filter(n.isOurs).length === 40, 'the 40 Alpha and Gamma events');
      const late = await store.append(n.stream('late'), [ev('Beta'), ev('Beta'), ev('Gamma')], NO_STREAM);
      await got.until((events) => events.some((e) => e.position === late.position), 'the late Gamma');
      await got.subscription.stop();
      const delivered = got.events();
      t.ok(
        delivered.every((e) => e.type === 'Alpha' || e.type === 'Gamma'),
        'only Alpha and Gamma',
      );
      const expected = (await store.readAll(marker)).filter(
        (e) => (e.type === 'Alpha' || e.type === 'Gamma') && e.position <= late.position,
      );
      t.strictSame(delivered.filter((e) => e.position <= late.position).map(key), expected.map(key), 'every matching event, in order');
    });

    test('stop() waits for the running handler, then nothing more is delivered', async (t, store, n) => {
      const marker = await n.marker(store);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let entered = false;
      let finished = false;
      let calls = 0;
      const got = collect(store, { after: marker }, async () => {
        calls++;
        entered = true;
        await gate;
        finished = true;
      });
      await store.append(n.stream('s'), [ev('First')], NO_STREAM);
      await waitUntil(() => entered, 'the handler to start');
      let stopped = false;
      const stopping = got.subscription.stop().then(() => {
        stopped = true;
        t.ok(finished, 'the running handler had finished when stop() resolved');
      });
      await sleep(50);
      t.notOk(stopped, 'stop() is still waiting for the handler');
      release();
      await stopping;
      await store.append(n.stream('s'), [ev('Second')], exactly(0n));
      await sleep(400);
      t.equal(calls, 1, 'no delivery after stop()');
      await got.subscription.stop(); // stopping twice is harmless
    });

    test('stop() called from inside the handler ends delivery', async (t, store, n) => {
      const marker = await n.marker(store);
      let calls = 0;
      const got: Collected = collect(store, { after: marker }, () => {
        calls++;
        void got.subscription.stop();
      });
      await store.append(n.stream('s'), [ev('First')], NO_STREAM);
      await waitUntil(() => calls > 0, 'the first delivery');
      await got.subscription.stop();
      await store.append(n.stream('s'), [ev('Second')], exactly(0n));
      await sleep(400);
      t.equal(calls, 1);
    });

    test('a handler error stops the subscription and is passed to onError', async (t, store, n) => {
      const marker = await n.marker(store);
      const failure = new Error('projection broke');
      let calls = 0;
      const errors: unknown[] = [];
      const subscription = store.subscribe({
        after: marker,
        handle: async () => {
          calls++;
          throw failure;
        },
        onError: (error) => errors.push(error),
      });
      await store.append(n.stream('s'), [ev('First')], NO_STREAM);
      await waitUntil(() => errors.length > 0, 'onError');
      await store.append(n.stream('s'), [ev('Second')], exactly(0n));
      await sleep(400);
      t.equal(calls, 1, 'no delivery after the failure');
      t.strictSame(errors, [failure], 'onError got the thrown error, once');
      await subscription.stop();
    });

    test('a handler that throws synchronously is treated the same way', async (t, store, n) => {
      const marker = await n.marker(store);
      const errors: unknown[] = [];
      let calls = 0;
      const subscription = store.subscribe({
        after: marker,
        handle: () => {
          calls++;
          throw new Error('sync');
        },
        onError: (error) => errors.push(error),
      });
      await store.append(n.stream('s'), [ev('First')], NO_STREAM);
      await waitUntil(() => errors.length > 0, 'onError');
      await store.append(n.stream('s'), [ev('Second')], exactly(0n));
      await sleep(300);
      t.equal(calls, 1);
      t.equal(errors.length, 1);
      await subscription.stop();
    });
  });
}

// ---- helpers -------------------------------------------------------------------------------------

interface Names {
  /** A stream name unique to this test. */
  stream(suffix: string): string;
  isOurs(event: RecordedEvent): boolean;
  /** Appends a marker event and returns its position: log reads after it see only this test's era. */
  marker(store: EventStore): Promise<bigint>;
}

function names(): Names {
  const prefix = `contract-${randomUUID().slice(0, 8)}-`;
  return {
    stream: (suffix) => prefix + suffix,
    isOurs: (event) => event.stream.startsWith(prefix),
    marker: async (store) => (await store.append(`${prefix}marker`, [ev('Marker')], NO_STREAM)).position,
  };
}

function ev(type: string, data: unknown = {}): NewEvent {
  return { type, data };
}

function fiveEvents(type: string, i: number): NewEvent[] {
  return Array.from({ length: 5 }, (_, j) => ev(type, { i, j }));
}

function key(event: RecordedEvent): string {
  return `${event.position}:${event.id}:${event.stream}@${event.revision}`;
}

function assertIncreasing(t: TapTest, positions: bigint[]): void {
  const bad = positions.findIndex((p, i) => i > 0 && p <= positions[i - 1]!);
  t.equal(bad, -1, bad === -1 ? 'positions strictly increase' : `position ${positions[bad]} follows ${positions[bad - 1]}`);
}

async function expectWrongRevision(t: TapTest, append: Promise<unknown>, stream: string, actual: bigint | 'no_stream'): Promise<void> {
  const error = await append.then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(error instanceof WrongExpectedRevision, 'rejects with WrongExpectedRevision');
  if (error instanceof WrongExpectedRevision) {
    t.equal(error.stream, stream);
    t.equal(error.actual, actual);
  }
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

interface Collected {
  subscription: Subscription;
  batches: RecordedEvent[][];
  events(): RecordedEvent[];
  until(condition: (events: RecordedEvent[]) => boolean, what: string): Promise<void>;
}

/** Subscribes and records every batch; a delivery error fails the wait instead of hanging it. */
function collect(
  store: EventStore,
  options: Omit<SubscribeOptions, 'handle'>,
  onBatch?: (batch: RecordedEvent[]) => Promise<void> | void,
): Collected {
  const batches: RecordedEvent[][] = [];
  let failure: unknown;
  const events = () => batches.flat();
  const subscription = store.subscribe({
    ...options,
    handle: async (batch) => {
      batches.push(batch);
      await onBatch?.(batch);
    },
    onError: (error) => (failure = error ?? new Error('subscription failed')),
  });
  return {
    subscription,
    batches,
    events,
    until: (condition, what) =>
      waitUntil(() => {
        if (failure !== undefined) throw failure;
        return condition(events());
      }, what),
  };
}
