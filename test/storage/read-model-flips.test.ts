// 64 random bytes flipped in read-models.db, many seeds. Most such files SQLite's own check refuses at
// start (the read model is then rebuilt before anything is read); the seeds here are those it does not:
// a damaged page shows only when a query touches it. Whatever the query, the service answers every
// retrieve, pallet list and list page exactly as before the damage: the order that met the damage from
// the log, the rest from the read model rebuilt in the background; never a 5xx. A few seeds SQLite
// refuses at start are run too: answered from the log while the rebuild runs.
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startChild, stopChild } from './support/service-child.js';
import { everythingServed, plannedDataDir, seededRandom, type Answers } from './support/served.js';

const REFERENCES = Array.from({ length: 30 }, (_, i) => `FLIP-${i + 1}`);
const FLIPS = 64;
const FOUND_AT_QUERIES = 10;
const FOUND_AT_START = 2;

let copyOfData: (t: { teardown(fn: () => void): void }) => string;
let before: Answers;
let original: Buffer;
t.before(async () => {
  let dir: string;
  ({ copyOf: copyOfData, before, dir } = await plannedDataDir(t, REFERENCES));
  original = readFileSync(join(dir, 'read-models.db'));
});

function flipped(seed: number): Buffer {
  const bytes = Buffer.from(original);
  const next = seededRandom(seed);
  for (let i = 0; i < FLIPS; i++) bytes[Math.floor(next() * bytes.length)]! ^= 1 + Math.floor(next() * 255);
  return bytes;
}

/** Whether SQLite opens the file and its quick_check (what the service runs at start) finds it sound. */
function soundToQuickCheck(bytes: Buffer): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'orders-flip-check-'));
  try {
    writeFileSync(join(dir, 'read-models.db'), bytes);
    const db = new Database(join(dir, 'read-models.db'));
    try {
      return db.pragma('quick_check', { simple: true }) === 'ok';
    } finally {
      db.close();
    }
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const WHOLE_REBUILDS = /^orders_read_model_repairs_total\{document="whole read model"\} (\d+)/m;

t.test('seeds', async (t) => {
  const atQueries: number[] = [];
  const atStart: number[] = [];
  for (let seed = 1; atQueries.length < FOUND_AT_QUERIES || atStart.length < FOUND_AT_START; seed++) {
    const list = soundToQuickCheck(flipped(seed)) ? atQueries : atStart;
    if (list.length < (list === atQueries ? FOUND_AT_QUERIES : FOUND_AT_START)) list.push(seed);
  }
  t.comment(`seeds SQLite's quick_check finds sound: ${atQueries.join(', ')}; seeds it refuses: ${atStart.join(', ')}`);

  let metAtQuery = 0;
  for (const seed of [...atQueries, ...atStart]) {
    await t.test(`seed ${seed}: every answer as before, no 5xx`, async (t) => {
      const dir = copyOfData(t);
      writeFileSync(join(dir, 'read-models.db'), flipped(seed));
      const started = await startChild(dir);
      if (!('child' in started)) return t.fail(`did not start: ${started.stderr}`);
      const after = await everythingServed(started.url, REFERENCES);
      const wrong = Object.keys(before).filter((request) => after[request] !== before[request]);
      t.same(
        wrong.map((request) => `${request}: ${after[request]!.slice(0, 200)}`),
        [],
        `all ${Object.keys(before).length} answers exactly as before`,
      );
      const metrics = await (await fetch(`${started.url.origin}/metrics`)).text();
      const rebuilds = Number(WHOLE_REBUILDS.exec(metrics)?.[1] ?? 0);
      t.equal(await stopChild(started.child), 0, 'stops cleanly');
      // Read once it has exited: its log lines reach this process through a pipe, a moment late.
      const output = started.output();
      const atQuery = /rebuilding the read model from the log/.test(output);
      const atStart = /replacing it, to be rebuilt/.test(output);
      if (atQuery) metAtQuery++;
      t.comment(
        `${atQuery ? 'damage met by a query: rebuilt from the log' : atStart ? 'refused at start: rebuilt from the log' : 'no damage met'}; orders_read_model_repairs_total{document="whole read model"} ${rebuilds}`,
      );
      t.equal(rebuilds > 0, atQuery || atStart, 'each rebuild of the whole read model is counted');
    });
  }
  t.comment(`${metAtQuery} of ${atQueries.length} seeds that passed quick_check met the damage in a query`);
  t.ok(metAtQuery >= FOUND_AT_QUERIES / 3, 'the case is driven: a good share of the seeds met damage only at a query');
});
