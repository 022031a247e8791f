// Bytes flipped inside read-model rows of a stopped service, in pages SQLite still finds sound
// (quick_check ok), then a real start: retrieve, list and pallet contents answer exactly what they
// answered before the damage, never a 500, and the repair counter says how many orders were repaired.
import t, { type Test } from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventually } from '../support/service.js';
import { checksumOf } from '../../src/orders/read-model/document-checksum.js';
import { startChild, stopChild } from './support/service-child.js';
import { everythingServed, metric, plannedDataDir, seededRandom, type Answers } from './support/served.js';

const REFERENCES = ['ROT-1', 'ROT-2', 'ROT-3', 'ROT-4', 'ROT-5', 'ROT-6'];

let copyOfData: (t: { teardown(fn: () => void): void }) => string;
let before: Answers;
t.before(async () => {
  ({ copyOf: copyOfData, before } = await plannedDataDir(t, REFERENCES));
});

const repairsCounted = (url: URL) => metric(url, 'orders_read_model_repairs_total');

/** Where each order's stored texts lie in read-models.db: its view and stream, and its pallet contents. */
interface Span {
  orderId: number;
  start: number;
  end: number;
}

function rowSpans(file: string): { bytes: Buffer; spans: Span[] } {
  const db = new Database(file);
  // Every row into the main file, so that the bytes below are the ones SQLite reads.
  db.pragma('wal_checkpoint(TRUNCATE)');
  const texts = [
    ...db.prepare<[], { id: number; text: string }>('SELECT id, view AS text FROM orders UNION ALL SELECT id, stream FROM orders').all(),
    ...db.prepare<[], { id: number; text: string }>('SELECT id, document AS text FROM pallet_contents').all(),
  ];
  db.close();
  const bytes = readFileSync(file);
  const spans: Span[] = [];
  for (const { id, text } of texts) {
    const needle = Buffer.from(text);
    const start = bytes.indexOf(needle);
    // A stale copy in free space (a row before its last update) would make the place ambiguous: such texts are left alone.
    if (start < 0 || bytes.lastIndexOf(needle) !== start) continue;
    spans.push({ orderId: id, start, end: start + needle.length });
  }
  return { bytes, spans };
}

function quickCheck(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('quick_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

async function startDamagedAndCompare(t: Test, dir: string, damagedOrders: number) {
  const started = await startChild(dir);
  if (!('child' in started)) return t.fail(`did not start: ${started.stderr}`);
  const after = await everythingServed(started.url, REFERENCES);
  for (const [path, answer] of Object.entries(before)) t.equal(after[path], answer, `${path}: as before the damage`);
  t.equal(await repairsCounted(started.url), damagedOrders, 'the repair counter says how many orders were repaired');
  t.same(
    Object.values(after).filter((answer) => answer.startsWith('500')),
    [],
    'never a 500',
  );
  t.equal(await stopChild(started.child), 0);
  return started.output();
}

t.test('a field name, a quantity and a stream name flipped: served as before, one warning per order', async (t) => {
  const dir = copyOfData(t);
  const file = join(dir, 'read-models.db');
  const { bytes, spans } = rowSpans(file);
  const flipIn = (orderId: number, marker: string, offset: number, mask: number) => {
    const span = spans.find((s) => s.orderId === orderId && bytes.subarray(s.start, s.end).includes(marker));
    if (!span) throw new Error(`order ${orderId}: no stored text holding ${marker}`);
    bytes[span.start + bytes.subarray(span.start, span.end).indexOf(marker) + offset]! ^= mask;
  };
  flipIn(1, 'packing_instructions', 4, 0x80); // "packin\ufffd_instructions", as the issue saw
  flipIn(2, '"quantity":', 11, 0x0b); // a digit to another digit or letter
  flipIn(3, 'order:', 2, 0x01); // the stream's name: the repair finds the order in the log instead
  writeFileSync(file, bytes);
  t.equal(quickCheck(file), 'ok', 'SQLite finds the pages sound');

  const output = await startDamagedAndCompare(t, dir, 3);
  for (const id of [1, 2, 3])
    t.match(
      output,
      new RegExp(
        `"level":40[^\\n]*"order_id":${id}[^\\n]*order ${id}: its [a-z ]+ document in the read model does not match its checksum: repaired from the log`,
      ),
    );
});

for (const [seed, flips] of [
  [1, 4],
  [2, 16],
  [3, 64],
  [4, 64],
] as const) {
  t.test(`seed ${seed}: ${flips} random bytes flipped inside rows: served exactly as before or not at all, never a 500`, async (t) => {
    const dir = copyOfData(t);
    const file = join(dir, 'read-models.db');
    const { bytes, spans } = rowSpans(file);
    const pristine = Buffer.from(bytes);
    const next = seededRandom(seed);
    const total = spans.reduce((sum, span) => sum + span.end - span.start, 0);
    for (let i = 0; i < flips; i++) {
      let at = Math.floor(next() * total);
      const span = spans.find((s) => {
        if (at < s.end - s.start) return true;
        at -= s.end - s.start;
        return false;
      })!;
      bytes[span.start + at]! ^= 1 + Math.floor(next() * 255);
    }
    writeFileSync(file, bytes);
    t.equal(quickCheck(file), 'ok', 'SQLite finds the pages sound');
    const damaged = new Set(
      spans.filter((s) => !bytes.subarray(s.start, s.end).equals(pristine.subarray(s.start, s.end))).map((s) => s.orderId),
    );
    t.ok(damaged.size > 0, `orders damaged: ${[...damaged].join(', ')}`);
    await startDamagedAndCompare(t, dir, damaged.size);
  });
}

t.test('rows edited by hand, valid JSON with their checksums recomputed: the scrubber repairs them within one pass', async (t) => {
  const dir = copyOfData(t);
  const db = new Database(join(dir, 'read-models.db'));
  const row = db
    .prepare<[], { company_group: string; stream: string; view: string }>('SELECT company_group, stream, view FROM orders WHERE id = 1')
    .get()!;
  const view = row.view.replace('"ROT-1"', '"ROT-X"');
  t.not(view, row.view);
  db.prepare('UPDATE orders SET view = ?, checksum = ? WHERE id = 1').run(view, checksumOf(row.company_group, row.stream, view));
  const pallets = db.prepare<[], string>('SELECT document FROM pallet_contents WHERE id = 2').pluck().get()!;
  const edited = pallets.replace(/"quantity":(\d)/, (_, digit: string) => `"quantity":${(Number(digit) + 1) % 10}`);
  t.not(edited, pallets);
  db.prepare('UPDATE pallet_contents SET document = ?, checksum = ? WHERE id = 2').run(edited, checksumOf(edited));
  db.close();

  const started = await startChild(dir, { ORDERS_SCRUB_ORDERS_PER_SECOND: '200' });
  if (!('child' in started)) return t.fail(`did not start: ${started.stderr}`);
  await eventually(async () => (await metric(started.url, 'orders_read_model_scrub_passes')) >= 1, 20_000, 50);
  t.ok(
    (await metric(started.url, 'orders_read_model_scrub_last_full_pass_seconds')) > Date.now() / 1000 - 60,
    'the last full pass is in /metrics',
  );
  const after = await everythingServed(started.url, REFERENCES);
  for (const [path, answer] of Object.entries(before)) t.equal(after[path], answer, `${path}: as the log has it`);
  t.equal(await repairsCounted(started.url), 2, 'both repairs counted');
  const ready = (await (await fetch(`${started.url.origin}/readyz`)).json()) as { findings: Record<string, string> };
  t.match(
    ready.findings.read_model_scrub,
    /order [12]: its (order|pallet contents) differed from the log; repaired/,
    '/readyz shows the last finding',
  );
  t.equal(await stopChild(started.child), 0);
  for (const id of [1, 2])
    t.match(
      started.output(),
      new RegExp(`"level":40[^\\n]*order ${id}: its [a-z ]+ in the read model differed from the log: repaired by the scrubber`),
    );
});
