// The behaviour every HashedLog adapter must have: the log as it was hashed, which the hash chain's checks
// read (verify-chain.ts, the digest, the history export). Backend-neutral, as the event store's suite is:
// each test opens its own store, names its streams with a prefix of its own and reads the log after a
// marker it appended, so the suite also holds against a shared server. What one backend does about a log
// changed behind its back is its own suite's (a SQLite file edited, a PostgreSQL row updated).
import { randomUUID } from 'node:crypto';
import { ANY, NO_STREAM, type EventStore, type RecordedEvent } from '../../src/eventstore/event-store.js';
import { GENESIS, eventHash, type HashedEvent } from '../../src/eventstore/hash-chain.js';
import type { HashedLog } from '../../src/eventstore/hashed-log.js';
import { verifyChain } from '../../src/eventstore/verify-chain.js';
import type { TapTest } from './event-store-contract.js';

export interface OpenedHashedLog {
  store: EventStore & HashedLog;
  /** Closes the store and removes whatever open() created. */
  cleanup(): Promise<void>;
}

const STREAMS = ['a', 'b', 'c'];
const ROUNDS = 3;

/** A test's own part of the log: its marker, then ROUNDS rounds of one event on each of its streams at once. */
interface Written {
  streams: string[];
  marker: { stream: string; position: bigint };
  /** What readAll shows after the marker, this test's events only. */
  ours: RecordedEvent[];
}

async function write(store: EventStore, prefix: string): Promise<Written> {
  const marker = {
    stream: `${prefix}marker`,
    position: (await store.append(`${prefix}marker`, [{ type: 'Marker', data: {} }], NO_STREAM)).position,
  };
  const streams = STREAMS.map((name) => prefix + name);
  for (let round = 0; round < ROUNDS; round++)
    await Promise.all(
      streams.map((stream) => store.append(stream, [{ type: 'Noted', data: { stream, round, text: 'ü\n漢字 "q"' } }], ANY)),
    );
  const ours = (await store.readAll(marker.position)).filter((event) => event.stream.startsWith(prefix));
  return { streams, marker, ours };
}

export function hashedLogContract(tap: TapTest, name: string, open: () => Promise<OpenedHashedLog>): void {
  tap.test(`${name}: hashed log contract`, async (tap) => {
    const test = (title: string, body: (t: TapTest, store: EventStore & HashedLog, prefix: string) => Promise<void>) =>
      tap.test(title, async (t) => {
        const opened = await open();
        t.teardown(opened.cleanup);
        await body(t, opened.store, `hashed-${randomUUID().slice(0, 8)}-`);
      });

    test('readHashed pages through the log as readAll does: the data as stored, the time in microseconds', async (t, store, prefix) => {
      const { marker, ours } = await write(store, prefix);
      const hashed = (await store.readHashed(marker.position)).filter((event) => event.stream.startsWith(prefix));
      t.equal(ours.length, STREAMS.length * ROUNDS);
      t.strictSame(
        hashed.map(({ position, stream, revision, type }) => ({ position, stream, revision, type })),
        ours.map(({ position, stream, revision, type }) => ({ position, stream, revision, type })),
        'the same events in the same order',
      );
      for (const [i, event] of hashed.entries()) {
        t.strictSame(JSON.parse(event.data), ours[i]!.data, `position ${event.position}: its data is the stored text of the event's`);
        t.equal(Number(event.recordedAtMicros / 1000n), ours[i]!.recordedAt.getTime(), `position ${event.position}: its time`);
        t.match(event.hash, /^[0-9a-f]{64}$/, `position ${event.position}: hashed when appended`);
      }
      const firstPage = await store.readHashed(marker.position, 4);
      t.equal(firstPage.length, 4, 'at most `limit` events');
      const nextPage = await store.readHashed(firstPage.at(-1)!.position, 4);
      t.strictSame(
        [...firstPage, ...nextPage],
        await store.readHashed(marker.position, 8),
        'the next page starts after the position given',
      );
    });

    test('each event is hashed onto the one before it in its chain: the log, or its stream', async (t, store, prefix) => {
      const { streams, marker } = await write(store, prefix);
      t.ok(store.chainScope === 'log' || store.chainScope === 'stream', `chain scope ${store.chainScope}`);
      const log = await store.readHashed(marker.position);
      if (store.chainScope === 'log') {
        // Onto the marker, then each onto the event before it in the log, whoever appended it.
        let previous = (await store.readStreamHashed(marker.stream))[0]!.hash!;
        for (const event of log) {
          t.equal(event.hash, eventHash(previous, event), `position ${event.position} chains onto the event before it`);
          previous = event.hash!;
        }
      } else {
        for (const stream of streams) {
          let previous = GENESIS;
          for (const event of log.filter((e) => e.stream === stream)) {
            t.equal(event.hash, eventHash(previous, event), `${stream}@${event.revision} chains onto its stream's event before it`);
            previous = event.hash!;
          }
        }
      }
    });

    test("readStreamHashed: a stream's events in revision order, each with the hash it is chained to", async (t, store, prefix) => {
      const { streams, marker } = await write(store, prefix);
      const log = [...(await store.readStreamHashed(marker.stream)), ...(await store.readHashed(marker.position))];
      const before = (event: HashedEvent) => log[log.findIndex((other) => other.position === event.position) - 1];
      for (const stream of streams) {
        const events = await store.readStreamHashed(stream);
        t.strictSame(
          events.map((event) => event.revision),
          Array.from({ length: ROUNDS }, (_, i) => BigInt(i)),
          `${stream}: every revision, in order`,
        );
        for (const [i, event] of events.entries()) {
          const { previousHash, ...asLogged } = event;
          t.strictSame(
            asLogged,
            log.find((other) => other.position === event.position),
            `${stream}@${i}: as readHashed gives it`,
          );
          t.equal(event.hash, eventHash(previousHash, event), `${stream}@${i}: its hash is over what it is chained to`);
          const expected = store.chainScope === 'log' ? before(event)?.hash : i === 0 ? GENESIS : events[i - 1]!.hash;
          t.equal(previousHash, expected, `${stream}@${i}: chained to the ${store.chainScope}'s event before it`);
        }
      }
      t.strictSame(await store.readStreamHashed(`${prefix}missing`), [], 'a missing stream has no events');
    });

    test('readHeadHashed is the last event of the log as hashed', async (t, store, prefix) => {
      const { marker, ours } = await write(store, prefix);
      const head = await store.readHeadHashed();
      const tail = await store.readHashed(marker.position);
      t.ok(head && head.position >= ours.at(-1)!.position, 'at or after the last event this test appended');
      t.strictSame(
        head,
        tail.find((event) => event.position === head?.position),
        'the event at that position, as readHashed gives it',
      );
    });

    test('a log of events hashed as they were appended verifies, with nothing left to chain', async (t, store, prefix) => {
      const { ours } = await write(store, prefix);
      t.equal(await store.chainLegacyEvents(), 0, 'no event from before the chain');
      const verdict = await verifyChain(store);
      t.equal(verdict.ok, true, verdict.ok ? 'the chain holds' : verdict.reason);
      t.ok(verdict.events >= ours.length + 1, `over every event (${verdict.events})`);
    });

    test('a stream name or event type holding a line break is refused, and nothing is written', async (t, store, prefix) => {
      await t.rejects(store.append(`${prefix}line\nbreak`, [{ type: 'Noted', data: {} }], NO_STREAM), /line break/);
      await t.rejects(store.append(`${prefix}typed`, [{ type: 'Noted\nTwice', data: {} }], NO_STREAM), /line break/);
      t.strictSame(await store.readStream(`${prefix}typed`), [], 'the stream was not created');
    });
  });
}
