// The PostgreSQL event log against a real server (POSTGRES_URL; scripts/test-servers starts Debian's
// PostgreSQL 15): both ports' contracts, then what only a server log has to get right. Above all, commits
// out of position order: a log whose positions come from a sequence lets a follower pass a position
// whose transaction commits later (shown below on such a log, with the same follower code), and ours
// must not, under the same delays between taking positions and committing.
import { execFile } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import t from 'tap';
import { ANY, NO_STREAM, type RecordedEvent } from '../../../src/eventstore/event-store.js';
import { PollingSubscription } from '../../../src/eventstore/sql/polling-subscription.js';
import { openPostgresEventStore, type PostgresEventStore } from '../../../src/eventstore/postgres/postgres-event-store.js';
import { StorageUnavailable } from '../../../src/storage/unavailable-storage.js';
import { toRecordedEvent, type EventRow } from '../../../src/eventstore/sql/event-rows.js';
import { eventHash, GENESIS } from '../../../src/eventstore/hash-chain.js';
import { eventStoreContract, type TapTest } from '../event-store-contract.js';
import { hashedLogContract } from '../hashed-log-contract.js';
import { scratchSchema, type ScratchSchema } from '../../support/postgres.js';

const url = process.env.POSTGRES_URL;
const verifyHistory = fileURLToPath(new URL('../../../src/verify-history.js', import.meta.url));

if (!url) {
  for (const contract of ['event store', 'hashed log'])
    t.test(
      `postgres: ${contract} contract`,
      { skip: 'PostgreSQL event log: POSTGRES_URL is not set (scripts/test-servers/test-servers start runs one)' },
      async () => {},
    );
} else {
  const serverUrl = url;

  eventStoreContract(t, 'postgres', async () => {
    const schema = await scratchSchema(serverUrl, 'contract');
    const stores: PostgresEventStore[] = [];
    const open = async () => {
      const store = await openPostgresEventStore(schema.url, { pollIntervalMs: 50 });
      stores.push(store);
      return store;
    };
    return {
      store: await open(),
      another: open,
      processEnv: { POSTGRES_URL: schema.url },
      cleanup: async () => {
        await Promise.all(stores.map((store) => store.close()));
        await schema.drop();
      },
    };
  });

  hashedLogContract(t, 'postgres', async () => {
    const schema = await scratchSchema(serverUrl, 'hashed');
    const store = await openPostgresEventStore(schema.url, { pollIntervalMs: 50 });
    return {
      store,
      cleanup: async () => {
        await store.close();
        await schema.drop();
      },
    };
  });

  /** A scratch schema dropped when the test ends, and every store opened on it closed first. */
  async function scratch(
    t: TapTest,
    prefix: string,
  ): Promise<{ schema: ScratchSchema; open(options?: Parameters<typeof openPostgresEventStore>[1]): Promise<PostgresEventStore> }> {
    const schema = await scratchSchema(serverUrl, prefix);
    const stores: PostgresEventStore[] = [];
    t.teardown(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await schema.drop();
    });
    return {
      schema,
      async open(options = {}) {
        const store = await openPostgresEventStore(schema.url, { pollIntervalMs: 10, ...options });
        stores.push(store);
        return store;
      },
    };
  }

  /** Follows a log with the one follower loop both SQL logs use, and keeps what it was handed. */
  function follow(source: ConstructorParameters<typeof PollingSubscription>[0]): { seen: RecordedEvent[]; stop(): Promise<void> } {
    const seen: RecordedEvent[] = [];
    const subscription = new PollingSubscription(
      source,
      { handle: (events) => void seen.push(...events) },
      { pollIntervalMs: 5, pageSize: 500 },
      () => {},
    );
    return { seen, stop: () => subscription.stop() };
  }

  /**
   * The log a sequence makes: position from bigserial at insert, visible at commit. Writer `slow` holds
   * its transaction open after taking its position, as a busy server or a big batch would.
   */
  async function naiveLog(t: TapTest) {
    const schema = await scratchSchema(serverUrl, 'naive');
    const pool = new pg.Pool({
      connectionString: schema.url,
      max: 12,
      types: {
        getTypeParser: (oid: number, format?: string) => (oid === 20 ? BigInt : pg.types.getTypeParser(oid, format as 'text')) as never,
      },
    });
    t.teardown(async () => {
      await pool.end();
      await schema.drop();
    });
    await pool.query(`CREATE TABLE events (position bigserial PRIMARY KEY, id uuid NOT NULL DEFAULT gen_random_uuid(), stream text NOT NULL,
      revision bigint NOT NULL DEFAULT 0, type text NOT NULL, data text NOT NULL, recorded_at bigint NOT NULL DEFAULT 0)`);
    const columns = 'position, id, stream, revision, type, data, recorded_at';
    return {
      async append(stream: string, holdMs: number): Promise<void> {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(`INSERT INTO events (stream, type, data) VALUES ($1, 'Written', '{}')`, [stream]);
          if (holdMs > 0) await client.query(`SELECT pg_sleep(${holdMs / 1000})`);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      },
      source: {
        durableHead: async () =>
          (await pool.query<{ head: bigint | null }>('SELECT max(position) AS head FROM events')).rows[0]?.head ?? 0n,
        readPage: async (after: bigint, upTo: bigint, limit: number) =>
          (
            await pool.query<EventRow>(`SELECT ${columns} FROM events WHERE position > $1 AND position <= $2 ORDER BY position LIMIT $3`, [
              after,
              upTo,
              limit,
            ])
          ).rows.map(toRecordedEvent),
      },
      all: async () => (await pool.query<EventRow>(`SELECT ${columns} FROM events ORDER BY position`)).rows.map(toRecordedEvent),
    };
  }

  /** Our log, with the same hold: a trigger sleeps inside the writing transaction, after the positions are taken. */
  async function heldLog(t: TapTest) {
    const { schema, open } = await scratch(t, 'held');
    const first = await open();
    await schema.sql(`CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.data LIKE '%"hold_ms":%' THEN PERFORM pg_sleep((NEW.data::jsonb->>'hold_ms')::int / 1000.0); END IF; RETURN NULL; END $$`);
    await schema.sql('CREATE TRIGGER hold_commit AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION hold_commit()');
    return { first, open };
  }

  t.test('out-of-order commits: one writer holds its transaction after taking a position while another commits the next one', async (t) => {
    t.test(
      'a log with sequence positions: the follower passes the held position and never sees it (the failure this log must not have)',
      async (t) => {
        const log = await naiveLog(t);
        const follower = follow(log.source);
        const held = log.append('held', 600);
        await sleep(100);
        await log.append('quick', 0);
        await held;
        await sleep(100);
        await follower.stop();
        const all = await log.all();
        const missed = all.filter((event) => !follower.seen.some((seen) => seen.id === event.id));
        t.strictSame(
          all.map((event) => event.stream),
          ['held', 'quick'],
          'the held writer took the first position',
        );
        t.strictSame(
          missed.map((event) => event.stream),
          ['held'],
          'the follower skipped the event committed after a later position',
        );
      },
    );

    t.test('ours: the second writer waits for the first commit, and the follower sees both, in order', async (t) => {
      const { first, open } = await heldLog(t);
      const second = await open();
      const reader = await open();
      const seen: RecordedEvent[] = [];
      const subscription = reader.subscribe({ handle: (events) => void seen.push(...events) });
      const held = first.append('held', [{ type: 'Written', data: { hold_ms: 600 } }], NO_STREAM);
      await sleep(100);
      const quick = await second.append('quick', [{ type: 'Written', data: {} }], NO_STREAM);
      const heldAt = await held;
      // A follower that skipped the held event would never see it: waited for up to 5 s (a busy machine).
      for (let waited = 0; seen.length < 2 && waited < 5_000; waited += 20) await sleep(20);
      await subscription.stop();
      t.ok(heldAt.position < quick.position, 'the held append has the lower position');
      t.strictSame(
        seen.map((event) => event.stream),
        ['held', 'quick'],
        'the follower saw both, in position order',
      );
    });

    t.test(
      'under random holds from eight writers on their own connections: the sequence log skips, ours delivers every event once, in order',
      async (t) => {
        const rounds = 25;
        const hold = (w: number, i: number) => ((w * 7 + i * 13) % 5) * 6;
        const log = await naiveLog(t);
        const naiveFollower = follow(log.source);
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            for (let i = 0; i < rounds; i++) await log.append(`w${w}`, hold(w, i));
          }),
        );
        await sleep(100);
        await naiveFollower.stop();
        const naiveAll = await log.all();
        const naiveMissed = naiveAll.length - new Set(naiveFollower.seen.map((event) => event.id)).size;
        t.ok(naiveMissed > 0, `the sequence log's follower missed ${naiveMissed} of ${naiveAll.length} events`);

        const { first, open } = await heldLog(t);
        const writers = [first, ...(await Promise.all(Array.from({ length: 7 }, () => open())))];
        const reader = await open();
        const seen: RecordedEvent[] = [];
        const subscription = reader.subscribe({ handle: (events) => void seen.push(...events) });
        await Promise.all(
          writers.map(async (writer, w) => {
            for (let i = 0; i < rounds; i++) await writer.append(`w${w}`, [{ type: 'Written', data: { hold_ms: hold(w, i) } }], ANY);
          }),
        );
        const all = await reader.readAll();
        for (let waited = 0; seen.length < all.length && waited < 5_000; waited += 20) await sleep(20);
        await subscription.stop();
        t.equal(all.length, 8 * rounds);
        t.strictSame(
          seen.map((event) => event.id),
          all.map((event) => event.id),
          'ours: every event once, in position order',
        );
        t.strictSame(
          all.map((event) => event.position),
          all.map((_, i) => BigInt(i + 1)),
          'positions 1..n without a gap',
        );
      },
    );
  });

  t.test("the server's hash is hash-chain.ts's, byte for byte, whatever the text", async (t) => {
    const { schema, open } = await scratch(t, 'hash');
    await open();
    const samples = [
      { stream: 'order-1', type: 'OrderSubmitted', revision: 0n, recordedAtMicros: 1764000000123456n, data: '{"a":1}' },
      {
        stream: 'group/PO-ü漢字🚚',
        type: 'T',
        revision: 12345678901234n,
        recordedAtMicros: 1n,
        data: '{"s":"line\\nbreak\\u0000 \\"quoted\\" é 😀","n":-0.5e-7}',
      },
      {
        stream: ' spaced ',
        type: 'X',
        revision: 9007199254740993n,
        recordedAtMicros: 253402300799999999n,
        data: `"${'x'.repeat(100_000)}"`,
      },
    ];
    let previous = GENESIS;
    for (const sample of samples) {
      const [row] = await schema.sql<{ hash: string }>(
        `SELECT encode(orders_event_hash(decode($1, 'hex'), $2, $3, $4, $5, $6), 'hex') AS hash`,
        [previous, sample.type, sample.stream, sample.revision, sample.recordedAtMicros, sample.data],
      );
      t.equal(row?.hash, eventHash(previous, sample), `${sample.stream}@${sample.revision}`);
      previous = row!.hash;
    }
  });

  t.test("progress announcements: what one replica's store announces, every store on the log hears, by name", async (t) => {
    const { open } = await scratch(t, 'progress');
    const [announcer, listener] = [await open(), await open()];
    for (let waited = 0; !(announcer.progress.listening && listener.progress.listening) && waited < 5_000; waited += 20) await sleep(20);
    t.ok(listener.progress.listening, 'listening on the log');
    const heard: bigint[] = [];
    const other: bigint[] = [];
    const stop = listener.progress.listen('order-read-model', (position) => void heard.push(position));
    listener.progress.listen('something-else', (position) => void other.push(position));
    for (const position of [5n, 9n, 12345678901234n]) await announcer.progress.announce('order-read-model', position);
    for (let waited = 0; heard.length < 3 && waited < 5_000; waited += 20) await sleep(20);
    t.strictSame(heard, [5n, 9n, 12345678901234n], 'heard in order');
    t.strictSame(other, [], 'only by those listening for that name');
    stop();
    await announcer.progress.announce('order-read-model', 10n);
    await announcer.progress.announce('something-else', 11n);
    for (let waited = 0; other.length < 1 && waited < 5_000; waited += 20) await sleep(20);
    t.strictSame(heard, [5n, 9n, 12345678901234n], 'nothing once it stopped listening');
  });

  t.test(
    'two logs in one database, one per schema: a follower hears only its own log and passes over none of its events; progress is heard by log',
    async (t) => {
      const [a, b] = [await scratch(t, 'two-logs-a'), await scratch(t, 'two-logs-b')];
      const [logA, logB] = [await a.open(), await b.open()];
      for (let waited = 0; !(logA.progress.listening && logB.progress.listening) && waited < 5_000; waited += 20) await sleep(20);
      // A type-filtered follower of log B, as the planning reactor follows OrderSubmitted.
      const seen: RecordedEvent[] = [];
      const subscription = logB.subscribe({ types: ['Written'], handle: (events) => void seen.push(...events) });
      t.teardown(() => subscription.stop());
      const heardOnB: bigint[] = [];
      logB.progress.listen('order-read-model', (position) => void heardOnB.push(position));
      // Log A runs ahead: 30 events, and its projector says so.
      for (let i = 0; i < 30; i++) await logA.append(`a-${i}`, [{ type: 'Written', data: { i } }], NO_STREAM);
      await logA.progress.announce('order-read-model', 30n);
      await sleep(300);
      // Then log B gets its own first five.
      for (let i = 0; i < 5; i++) await logB.append(`b-${i}`, [{ type: 'Written', data: { i } }], NO_STREAM);
      for (let waited = 0; seen.length < 5 && waited < 5_000; waited += 20) await sleep(20);
      t.strictSame(
        seen.map((event) => event.position),
        [1n, 2n, 3n, 4n, 5n],
        "every event of log B, though log A's head passed them first",
      );
      await logB.progress.announce('order-read-model', 5n);
      for (let waited = 0; heardOnB.length < 1 && waited < 5_000; waited += 20) await sleep(20);
      t.strictSame(heardOnB, [5n], "log B's progress only, not log A's");
    },
  );

  t.test('texts holding the quoting tags of the append call arrive as they were sent', async (t) => {
    const { open } = await scratch(t, 'quoting');
    const store = await open();
    const awkward = ['$o0$', '$o0$$o1$$o2$', "it's a \\ back'slash", '$$', 'ends with $o0', '$o1', '\u0000 escaped NUL'];
    const stream = 'stream $o0$ with $o1';
    await store.append(
      stream,
      awkward.map((text, i) => ({ type: `Typed$o${i}`, data: { text, [`key$o${i}$`]: i } })),
      NO_STREAM,
    );
    const back = await store.readStream(stream);
    t.strictSame(
      back.map((event) => event.data),
      awkward.map((text, i) => ({ text, [`key$o${i}$`]: i })),
    );
    t.strictSame(
      back.map((event) => event.type),
      awkward.map((_, i) => `Typed$o${i}`),
    );
    t.equal(back[0]?.stream, stream);
  });

  t.test('the hash chain: npm run verify-history holds over a PostgreSQL log and names an event changed behind its back', async (t) => {
    const { schema, open } = await scratch(t, 'chain');
    const store = await open();
    for (let i = 0; i < 20; i++) await store.append(`order-${i % 4}`, [{ type: 'Written', data: { i, text: 'ü\n漢字 😀 "q"' } }], ANY);
    const run = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, [verifyHistory], { env: { ...process.env, ...env } }).then(
        (done) => ({ code: 0, out: done.stdout }),
        (failed: { code: number; stdout: string }) => ({ code: failed.code, out: failed.stdout }),
      );
    const holds = await run({ POSTGRES_URL: schema.url });
    t.equal(holds.code, 0, holds.out);
    t.match(holds.out, /holds over 20 events/);
    t.match(holds.out, /PostgreSQL/);
    await schema.sql(`UPDATE events SET data = '{"i":99}' WHERE position = 7`);
    const broken = await run({ POSTGRES_URL: schema.url });
    t.equal(broken.code, 1, broken.out);
    t.match(broken.out, /position 7/);
  });

  t.test('an append whose answer is lost is settled by what the log holds: written once, acknowledged once', async (t) => {
    const { schema, open } = await scratch(t, 'lost');
    await (await open()).append('warm', [{ type: 'Written', data: {} }], NO_STREAM);
    for (const lose of ['answer', 'request'] as const) {
      const proxy = await cuttingProxy(new URL(schema.url), lose);
      t.teardown(() => proxy.close());
      const store = await open();
      const viaProxy = await openPostgresEventStore(proxy.url(schema.url), { pollIntervalMs: 10, callTimeoutMs: 3_000 });
      t.teardown(() => viaProxy.close());
      proxy.armed = true;
      const result = await viaProxy.append(`lost-${lose}`, [{ type: 'Written', data: { lose } }], NO_STREAM);
      t.equal(proxy.cuts, 1, `the ${lose} of the writing call was lost once`);
      const events = await store.readStream(`lost-${lose}`);
      t.equal(events.length, 1, `lost ${lose}: the event is in the log once`);
      t.equal(result.position, events[0]?.position, `lost ${lose}: the append resolved with its position`);
    }
  });

  t.test(
    'a server that does not answer: calls fail with StorageUnavailable within the call deadline, and the store recovers',
    async (t) => {
      const { schema, open } = await scratch(t, 'silent');
      await open();
      const proxy = await cuttingProxy(new URL(schema.url), 'silence');
      t.teardown(() => proxy.close());
      const store = await openPostgresEventStore(proxy.url(schema.url), { pollIntervalMs: 10, callTimeoutMs: 1_000 });
      t.teardown(() => store.close());
      proxy.silent = true;
      const started = Date.now();
      const failed = await store.append('silent', [{ type: 'Written', data: {} }], NO_STREAM).then(
        () => undefined,
        (error: unknown) => error,
      );
      t.ok(failed instanceof StorageUnavailable, `StorageUnavailable: ${String(failed)}`);
      t.ok(Date.now() - started < 6_000, `answered in ${Date.now() - started} ms`);
      proxy.silent = false;
      const later = await store.append('silent-after', [{ type: 'Written', data: {} }], NO_STREAM);
      t.ok(later.position > 0n, 'appends go through once the server answers again');
      t.equal((await store.readStream('silent')).length <= 1, true, 'the unanswered append is in the log at most once');
    },
  );

  t.test('an unreachable server at start: opening fails with StorageUnavailable naming the log', async (t) => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await openPostgresEventStore(`postgres://postgres@127.0.0.1:${port}/orders`, { callTimeoutMs: 2_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(error instanceof StorageUnavailable);
    t.match(String(error), /PostgreSQL event log/);
  });
}

/**
 * A TCP proxy in front of the server that, once armed, loses one writing call: its `request` (never
 * forwarded) or its `answer` (forwarded, the reply dropped), cutting that connection either way. With
 * `silent` it forwards nothing, in either direction, without closing anything: a partition.
 */
async function cuttingProxy(target: URL, mode: 'answer' | 'request' | 'silence') {
  const sockets = new Set<Socket>();
  const state = { armed: false, silent: false, cuts: 0 };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let cutting = false;
    client.on('data', (chunk) => {
      if (state.silent) return;
      const writing = state.armed && mode !== 'silence' && chunk.includes('orders_append_events');
      if (writing) {
        state.armed = false;
        state.cuts += 1;
        if (mode === 'request') {
          client.destroy();
          upstream.destroy();
          return;
        }
        cutting = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (state.silent) return;
      if (cutting) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url(schemaUrl: string) {
      const parsed = new URL(schemaUrl);
      parsed.port = String(port);
      return parsed.toString();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
