// npm run bench:verify-history -- [--orders 100000] [--baseline-build DIR] [--appends 12800] [--rounds 5]: what the hash chain costs
// besides submit throughput (bench:api --baseline-build measures that): `npm run verify-history` (the real
// CLI, a child process) on N orders loaded by bench/load-orders.ts, and the bytes the chain adds per event.
// With --baseline-build (a checkout built before the chain), the same orders are loaded by that build too:
// the difference of the two events.db files per event is what the chain adds, and verify-history on that
// copy is the first verification of a log written before the chain (it chains every event first); and the
// store's durable appends per second, this build against that one, in alternating rounds.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { DEMO_SEED_FILE } from '../src/config.js';
import type { EventStore } from '../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { loadOrders } from './load-orders.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const ORDERS = Number(option('orders') ?? 100_000);
const BASELINE = option('baseline-build');
const APPENDS = Number(option('appends') ?? 12_800);
const ROUNDS = Number(option('rounds') ?? 5);
const VERIFY_HISTORY = fileURLToPath(new URL('../src/verify-history.js', import.meta.url));

type Load = (store: EventStore, count: number, group: string, lane: LaneDocument) => Promise<void>;
type Open = (dir: string) => EventStore & { close(): Promise<void> };

async function load(dir: string, open: Open, loadWith: Load): Promise<{ events: number; bytes: number }> {
  const demo = JSON.parse(readFileSync(DEMO_SEED_FILE, 'utf8'));
  const lane = demo.company_groups[0].lanes[0];
  const laneDocument: LaneDocument = { ...lane, items: lane.items.map((item: { upright?: boolean }) => ({ upright: false, ...item })) };
  const store = open(dir);
  await loadWith(store, ORDERS, demo.company_groups[0].name, laneDocument);
  await store.close();
  const db = new Database(join(dir, 'events.db'));
  // Every page back into the main file, then its size: what the log takes on disk.
  db.pragma('wal_checkpoint(TRUNCATE)');
  const events = Number(db.prepare('SELECT count(*) FROM events').pluck().get());
  db.close();
  return { events, bytes: statSync(join(dir, 'events.db')).size };
}

function verifyHistory(dir: string): { seconds: number; output: string } {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, [VERIFY_HISTORY], { env: { ...process.env, ORDERS_DATA_DIR: dir }, encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (run.status !== 0) throw new Error(`verify-history exited with ${run.status}: ${run.stdout}${run.stderr}`);
  return { seconds, output: run.stdout.trim() };
}

const dirs: string[] = [];
const fresh = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `bench-verify-${label}-`));
  dirs.push(dir);
  return dir;
};
try {
  console.log(formatNoise('before', measureNoise()));
  const chained = fresh('chained');
  let t0 = performance.now();
  const withChain = await load(chained, (dir) => openSqliteEventStore(dir), loadOrders);
  console.log(
    `loaded ${ORDERS} orders (${withChain.events} events) with the chain in ${((performance.now() - t0) / 1000).toFixed(1)} s: events.db ${(withChain.bytes / 2 ** 20).toFixed(1)} MiB`,
  );
  const first = verifyHistory(chained);
  const second = verifyHistory(chained);
  console.log(
    `verify-history, whole log: ${first.seconds.toFixed(2)} s, again ${second.seconds.toFixed(2)} s (${Math.round(withChain.events / Math.min(first.seconds, second.seconds))} events/s, process start included)`,
  );
  console.log(`  ${second.output}`);
  if (BASELINE) {
    const base = pathToFileURL(resolve(BASELINE, 'dist')).href;
    // The adapter's file moved into eventstore/sqlite/ (issue 60): a baseline build from before has it one folder up.
    const { openSqliteEventStore: openBaseline } = (await import(`${base}/src/eventstore/sqlite/sqlite-event-store.js`).catch(
      () => import(`${base}/src/eventstore/sqlite-event-store.js`),
    )) as { openSqliteEventStore: Open };
    const { loadOrders: loadBaseline } = (await import(`${base}/bench/load-orders.js`)) as { loadOrders: Load };
    const legacy = fresh('legacy');
    t0 = performance.now();
    const without = await load(legacy, openBaseline, loadBaseline);
    console.log(
      `loaded the same with ${BASELINE} (no chain) in ${((performance.now() - t0) / 1000).toFixed(1)} s: events.db ${(without.bytes / 2 ** 20).toFixed(1)} MiB, ${without.events} events`,
    );
    console.log(
      `bytes per event added by the chain: ${((withChain.bytes - without.bytes) / withChain.events).toFixed(1)} (${(withChain.bytes / withChain.events).toFixed(0)} against ${(without.bytes / without.events).toFixed(0)} per event)`,
    );
    // The append path alone, this build against the baseline's in alternating rounds: the chain's cost
    // without the HTTP service around it (bench:api's submit figures move with the machine's load).
    const sample = new Database(join(chained, 'events.db'), { readonly: true });
    const submitted = JSON.parse(sample.prepare("SELECT data FROM events WHERE type = 'OrderSubmitted' LIMIT 1").pluck().get() as string);
    sample.close();
    const appendRate = async (open: Open): Promise<number> => {
      const dir = fresh('append');
      const store = open(dir);
      const t1 = performance.now();
      await Promise.all(
        Array.from({ length: 64 }, async (_, writer) => {
          for (let i = 0; i < APPENDS / 64; i++)
            await store.append(`w-${writer}-${i}`, [{ type: 'OrderSubmitted', data: submitted }], { kind: 'no_stream' });
        }),
      );
      const rate = APPENDS / ((performance.now() - t1) / 1000);
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      return rate;
    };
    const rates: { chained: number[]; baseline: number[] } = { chained: [], baseline: [] };
    // Which build goes first changes every round: the first run of a round may meet a different machine.
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) rates.chained.push(await appendRate((dir) => openSqliteEventStore(dir)));
      rates.baseline.push(await appendRate(openBaseline));
      if (round % 2 === 1) rates.chained.push(await appendRate((dir) => openSqliteEventStore(dir)));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `durable appends/s of an OrderSubmitted (${JSON.stringify(submitted).length} bytes), 64 writers, ${APPENDS} per run, ${ROUNDS} alternating rounds: with the chain ${rates.chained.map(Math.round).join(', ')} (median ${Math.round(median(rates.chained))}), baseline ${rates.baseline.map(Math.round).join(', ')} (median ${Math.round(median(rates.baseline))}): ${(median(rates.chained) / median(rates.baseline)).toFixed(2)}x`,
    );
    const copy = fresh('legacy-copy');
    cpSync(legacy, copy, { recursive: true });
    const upgrade = verifyHistory(copy);
    console.log(
      `first verify-history of that log written before the chain (adds the column, chains every event, verifies): ${upgrade.seconds.toFixed(2)} s`,
    );
    console.log(`  ${upgrade.output.split('\n').join('\n  ')}`);
  }
  console.log(formatNoise('after', measureNoise()));
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
