// The SQLite store's recent events (src/eventstore/sql/recent-events.ts): a page served from memory
// is the page SQL would have read, and a range the ring does not wholly hold is left to SQL.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import t from 'tap';
import { ANY, NO_STREAM, type RecordedEvent } from '../../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { RecentEvents } from '../../../src/eventstore/sql/recent-events.js';
import { EVENT_COLUMNS, toRecordedEvent, type EventRow } from '../../../src/eventstore/sql/event-rows.js';
import { EVENTS_FILE } from '../../../src/eventstore/sqlite/sqlite-schema.js';
import { tempDir } from '../../support/eventstore-temp-dir.js';
import type { TapTest } from '../event-store-contract.js';

async function dirFor(t: TapTest): Promise<string> {
  const { dir, remove } = await tempDir('recent');
  t.teardown(remove);
  return dir;
}

const ev = (type: string, data: unknown = {}) => ({ type, data });
const snapshot = (e: RecordedEvent) => ({ ...e, recordedAt: e.recordedAt.getTime() });
const TYPES = ['A', 'B', 'C'];

/** The file's rows as SQL reads them (positions, ids, data text). */
function rowsOf(dir: string): EventRow[] {
  const db = new Database(join(dir, EVENTS_FILE), { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    return db.prepare<[], EventRow>(`SELECT ${EVENT_COLUMNS} FROM events ORDER BY position`).all();
  } finally {
    db.close();
  }
}

/** What the store's SQL page reads: after < position <= upTo, of the types, at most limit. */
function sqlPage(rows: EventRow[], after: bigint, upTo: bigint, limit: number, types?: readonly string[]) {
  return rows
    .filter((row) => row.position > after && row.position <= upTo && (!types || types.includes(row.type)))
    .slice(0, limit)
    .map(toRecordedEvent);
}

t.test('every page the ring serves equals the page read from SQL; ranges it does not hold are refused', async (t) => {
  const dir = await dirFor(t);
  const store = openSqliteEventStore(dir);
  for (let i = 0; i < 30; i++) await store.append(`s${i % 4}`, [ev(TYPES[i % 3]!, { i, nested: { list: [i, { deep: i }] } })], ANY);
  await store.close();
  const rows = rowsOf(dir);
  const recent = new RecentEvents({ events: 20, dataChars: 1_000_000 });
  recent.add(rows.slice(0, 10));
  recent.add(rows.slice(10));
  // 20 held: positions 11..30
  const fromRing: unknown[] = [];
  const fromSql: unknown[] = [];
  for (let after = 0n; after <= 30n; after++) {
    for (let upTo = after + 1n; upTo <= 31n; upTo++) {
      for (const types of [undefined, ['A'], ['B', 'C']]) {
        for (const limit of [1, 3, 50]) {
          const page = recent.page(after, upTo, limit, types);
          if (after < 10n || upTo > 30n) {
            if (page !== undefined) t.fail(`(${after}, ${upTo}] is not wholly held but was served`);
            continue;
          }
          const range = `(${after}, ${upTo}] ${types} ${limit}`;
          fromRing.push([range, page?.map(snapshot)]);
          fromSql.push([range, sqlPage(rows, after, upTo, limit, types).map(snapshot)]);
        }
      }
    }
  }
  t.equal(fromRing.length, ((20 * 21) / 2) * 9, 'every range within 11..30');
  t.strictSame(fromRing, fromSql, 'the same events, of the same types, as many');
});

t.test('a gap in positions (another process committed between two commits of this one) starts the ring again', async (t) => {
  const dir = await dirFor(t);
  const store = openSqliteEventStore(dir);
  for (let i = 0; i < 10; i++) await store.append('s', [ev('A', { i })], ANY);
  await store.close();
  const rows = rowsOf(dir);
  const recent = new RecentEvents({ events: 100, dataChars: 1_000_000 });
  recent.add(rows.slice(0, 4));
  recent.add(rows.slice(6)); // positions 5 and 6 were another process's
  t.equal(recent.page(0n, 10n, 100, undefined), undefined, 'across the gap: from SQL');
  t.equal(recent.page(5n, 10n, 100, undefined), undefined, 'the missing ones: from SQL');
  t.strictSame(
    recent.page(6n, 10n, 100, undefined)?.map(snapshot),
    sqlPage(rows, 6n, 10n, 100).map(snapshot),
    'after the gap: from memory',
  );
  recent.clear();
  t.equal(recent.page(6n, 10n, 100, undefined), undefined, 'cleared: from SQL');
});

t.test('the ring keeps within its bounds of events and of data', async (t) => {
  const dir = await dirFor(t);
  const store = openSqliteEventStore(dir);
  for (let i = 0; i < 10; i++) await store.append('s', [ev('A', { text: 'x'.repeat(100) })], ANY);
  await store.close();
  const rows = rowsOf(dir);
  const byData = new RecentEvents({ events: 100, dataChars: 3 * rows[0]!.data.length });
  byData.add(rows);
  t.equal(byData.page(6n, 10n, 100, undefined), undefined, 'position 7 was let go');
  t.equal(byData.page(7n, 10n, 100, undefined)?.length, 3, 'positions 8..10 held');
  const byCount = new RecentEvents({ events: 4, dataChars: 1_000_000 });
  for (const row of rows) byCount.add([row]);
  t.equal(byCount.page(5n, 10n, 100, undefined), undefined, 'position 6 was let go');
  t.equal(byCount.page(6n, 10n, 100, undefined)?.length, 4, 'positions 7..10 held');
});

t.test('subscribers see the log exactly while this store and another connection append in turn', async (t) => {
  const dir = await dirFor(t);
  // a small ring and small pages: pages come from memory, from SQL, and straddle both
  const local = openSqliteEventStore(dir, { pollIntervalMs: 10, pageSize: 7 });
  const remote = openSqliteEventStore(dir);
  t.teardown(async () => {
    await Promise.all([local.close(), remote.close()]);
  });
  const seen = new Map<string, RecordedEvent[]>();
  const subscriptions = [undefined, ['A'], ['B', 'C']].map((types) => {
    const key = String(types);
    seen.set(key, []);
    return local.subscribe({ ...(types ? { types } : {}), handle: (batch) => void seen.get(key)!.push(...batch) });
  });
  for (let round = 0; round < 40; round++) {
    const store = round % 5 === 4 ? remote : local;
    await Promise.all(
      Array.from({ length: 1 + (round % 3) }, (_, k) =>
        store.append(`s${(round + k) % 6}`, [ev(TYPES[(round + k) % 3]!, { round, k }), ev('C', { round })], ANY),
      ),
    );
  }
  const log = await local.readAll();
  const deadline = Date.now() + 10_000;
  while (seen.get('undefined')!.length < log.length && Date.now() < deadline) await sleep(10);
  await sleep(50);
  await Promise.all(subscriptions.map((subscription) => subscription.stop()));
  t.strictSame(seen.get('undefined')!.map(snapshot), log.map(snapshot), 'every event once, in log order, as read');
  // shared events are frozen (the last test): both paths were taken
  const all = seen.get('undefined')!;
  t.ok(all.some((e) => Object.isFrozen(e)) && all.some((e) => !Object.isFrozen(e)), 'pages from memory and from SQL');
  t.strictSame(seen.get('A')!.map(snapshot), log.filter((e) => e.type === 'A').map(snapshot), 'type A');
  t.strictSame(seen.get('B,C')!.map(snapshot), log.filter((e) => e.type !== 'A').map(snapshot), 'types B and C');
});

t.test('an event handed to several subscribers is frozen: one cannot change what another sees', async (t) => {
  const store = openSqliteEventStore(await dirFor(t));
  t.teardown(() => store.close());
  const errors: unknown[] = [];
  const seen: RecordedEvent[] = [];
  const meddler = store.subscribe({
    handle(batch) {
      for (const event of batch) {
        try {
          (event.data as { items: { qty: number }[] }).items[0]!.qty = 0;
        } catch (error) {
          errors.push(error);
        }
      }
    },
  });
  const reader = store.subscribe({ handle: (batch) => void seen.push(...batch) });
  await store.append('s', [ev('A', { items: [{ qty: 5 }] })], NO_STREAM);
  const deadline = Date.now() + 5_000;
  while ((seen.length < 1 || errors.length < 1) && Date.now() < deadline) await sleep(5);
  await Promise.all([meddler.stop(), reader.stop()]);
  t.type(errors[0], TypeError, 'the write threw');
  t.strictSame(seen[0]?.data, { items: [{ qty: 5 }] }, 'the other subscriber sees the event as stored');
});
