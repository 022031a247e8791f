// Given a read model built from a real log, when rows are edited with their checksums recomputed (which
// no read can notice), then the scrubber finds each within one pass, repairs it from the log and says so.
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { ANY } from '../../../src/eventstore/event-store.js';
import { openSqliteOrderReadModel } from '../../../src/orders/read-model/sqlite-order-read-model.js';
import { selfRepairingReadModel } from '../../../src/orders/read-model/self-repairing-read-model.js';
import { startReadModelScrubber } from '../../../src/orders/read-model/read-model-scrubber.js';
import { checksumOf } from '../../../src/orders/read-model/document-checksum.js';
import { orderStream } from '../../../src/orders/order-events.js';
import { eventually, removeDataDir, tempDataDir } from '../../support/service.js';
import { submitted } from './order-read-model-contract.js';

t.test('edited rows with recomputed checksums, and a row the log cannot explain, are repaired within one pass', async (t) => {
  const dataDir = tempDataDir();
  const store = openSqliteEventStore(dataDir);
  const inner = openSqliteOrderReadModel(dataDir);
  const readModel = selfRepairingReadModel(inner, store, { repaired: () => t.fail('no checksum fails: the edits kept them right') });
  t.teardown(async () => {
    await inner.close();
    await store.close();
    removeDataDir(dataDir);
  });
  for (const [id, reference] of [
    [1, 'F3-2'],
    [2, 'F3-3'],
    [3, 'F3-4'],
  ] as const) {
    const { type, data } = submitted(id, 'g', reference);
    await store.append(orderStream('g', reference), [{ type, data }], ANY);
  }
  const pallets = [
    { pallet_index: 'AP1', pallet_code: 'EUR', contents: [{ sku: 'S', purchase_order: 'P', line_item_number: '1', quantity: 34 }] },
  ];
  await store.append(
    orderStream('g', 'F3-3'),
    [
      {
        type: 'OrderPlanned',
        data: {
          order_id: 2,
          service_ref: 'SO-000002',
          reference: 'F3-3',
          company_group: 'g',
          plan: { pallets, containers: [] },
          planned_at: '2026-11-20T09:16:00.000000',
        },
      },
    ],
    ANY,
  );
  await readModel.apply(await store.readAll());
  const before = {
    order1: await readModel.getById(1),
    pallets2: await readModel.palletContents(2),
    list: await readModel.list({ companyGroup: 'g', offset: 0 }),
  };

  // As someone "fixing" rows by hand would: valid JSON, checksums recomputed.
  const db = new Database(join(dataDir, 'read-models.db'));
  const row = db
    .prepare<[], { company_group: string; stream: string; view: string }>('SELECT company_group, stream, view FROM orders WHERE id = 1')
    .get()!;
  const view = row.view.replace('"F3-2"', '"F3-X"');
  db.prepare('UPDATE orders SET view = ?, checksum = ? WHERE id = 1').run(view, checksumOf(row.company_group, row.stream, view));
  const document = db
    .prepare<[], string>('SELECT document FROM pallet_contents WHERE id = 2')
    .pluck()
    .get()!
    .replace('"quantity":34', '"quantity":84');
  db.prepare('UPDATE pallet_contents SET document = ?, checksum = ? WHERE id = 2').run(document, checksumOf(document));
  const phantom = view.replace('"id":1', '"id":4');
  db.prepare(
    "INSERT INTO orders (id, company_group, service_ref, reference, search_text, stream, view, checksum) VALUES (4, 'g', 'SO-000004', 'F3-9', '', ?, ?, ?)",
  ).run(row.stream, phantom, checksumOf('g', row.stream, phantom));
  db.close();
  await setImmediate();
  t.equal((await readModel.getById(1))?.view.reference, 'F3-X', 'served as edited: no read can tell');

  const repaired: [number, readonly string[]][] = [];
  const scrubber = startReadModelScrubber({
    store,
    readModel,
    ordersPerSecond: 1000,
    repaired: (id, documents) => void repaired.push([id, documents]),
    log: (message, error) => t.fail(`${message} ${error}`),
  });
  t.teardown(() => scrubber.stop());
  await eventually(async () => scrubber.progress().passes >= 1, 10_000, 5);
  t.same(
    repaired.sort(),
    [
      [1, ['order']],
      [2, ['pallet contents']],
      [4, ['order']],
    ],
    'each found once, in one pass',
  );
  t.same(await readModel.getById(1), before.order1, 'the order as the log has it');
  t.same(await readModel.palletContents(2), before.pallets2);
  t.equal(await readModel.getById(4), undefined, 'the order the log does not hold is gone');
  t.same(await readModel.list({ companyGroup: 'g', offset: 0 }), before.list);
  t.match(scrubber.progress(), { lastFinding: /^\S+: order \d: its .+ differed from the log; repaired$/ });
  t.ok(scrubber.progress().lastFullPassAt instanceof Date);

  await eventually(async () => scrubber.progress().passes >= 2, 10_000, 5);
  t.equal(repaired.length, 3, 'the next pass finds nothing more');
});

/** A real log and read model on a fresh data directory, closed and removed when the test ends. */
function emptyStores(t: Test) {
  const dataDir = tempDataDir();
  const store = openSqliteEventStore(dataDir);
  const readModel = openSqliteOrderReadModel(dataDir);
  t.teardown(async () => {
    await readModel.close();
    await store.close();
    removeDataDir(dataDir);
  });
  return { dataDir, store, readModel };
}

t.test('the rate bounds the pass, and stop ends it at once', async (t) => {
  const { store, readModel } = emptyStores(t);
  for (let id = 1; id <= 20; id++) {
    const { type, data } = submitted(id, 'g', `R-${id}`);
    await store.append(orderStream('g', `R-${id}`), [{ type, data }], ANY);
  }
  await readModel.apply(await store.readAll());
  const started = performance.now();
  const scrubber = startReadModelScrubber({
    store,
    readModel,
    ordersPerSecond: 100,
    repaired: () => t.fail('nothing differs'),
    log: (message) => t.fail(message),
  });
  await eventually(async () => scrubber.progress().passes >= 1, 10_000, 5);
  t.ok(performance.now() - started >= 20 * 10 - 5, '20 orders at 100 per second take at least 200 ms');
  t.match(scrubber.progress().lastFinding, /pass 1 over 20 orders found no difference/);
  const stopping = performance.now();
  await scrubber.stop();
  t.ok(performance.now() - stopping < 100, 'stop does not wait for the pass to end');
});

t.test('with no orders at all, the scrubber leaves the event loop to others', async (t) => {
  const { store, readModel } = emptyStores(t);
  const scrubber = startReadModelScrubber({
    store,
    readModel,
    ordersPerSecond: 100_000,
    repaired: () => t.fail('nothing to repair'),
    log: (message) => t.fail(message),
  });
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(performance.now() - started < 500, 'a timer fires on time');
  await eventually(async () => scrubber.progress().passes >= 1, 5000, 5);
  await scrubber.stop();
  t.ok(scrubber.progress().passes <= 2, `passes are paced, not looped (${scrubber.progress().passes})`);
});

/** One order in a real log and read model, its row then edited with the checksum recomputed: what only a comparison with the log finds. */
async function orderWithEditedRow(t: Test) {
  const { dataDir, store, readModel } = emptyStores(t);
  const { type, data } = submitted(1, 'g', 'F3-2');
  await store.append(orderStream('g', 'F3-2'), [{ type, data }], ANY);
  await readModel.apply(await store.readAll());
  // A row edited with its checksum recomputed: the scrubber would repair it from a sound log.
  const db = new Database(join(dataDir, 'read-models.db'));
  const row = db
    .prepare<[], { company_group: string; stream: string; view: string }>('SELECT company_group, stream, view FROM orders WHERE id = 1')
    .get()!;
  const view = row.view.replace('"F3-2"', '"F3-X"');
  db.prepare('UPDATE orders SET view = ?, checksum = ? WHERE id = 1').run(view, checksumOf(row.company_group, row.stream, view));
  db.close();
  return { store, readModel };
}

t.test(
  "each pass verifies the log first (issue 25): its outcome is the progress's logChain, and a broken chain repairs nothing",
  async (t) => {
    const { store, readModel } = await orderWithEditedRow(t);

    const broken = { ok: false, line: 'the hash chain breaks at position 3 (changed)' };
    let calls = 0;
    const scrubber = startReadModelScrubber({
      store,
      readModel,
      ordersPerSecond: 100_000,
      repaired: () => t.fail('nothing is repaired from a broken log'),
      log: (message) => t.fail(message),
      verifyLog: async (betweenPages) => {
        await betweenPages();
        calls++;
        return broken;
      },
    });
    t.teardown(() => scrubber.stop());
    t.equal(scrubber.progress().logChain, undefined, 'nothing before the first verification');
    await eventually(async () => scrubber.progress().passes >= 2, 10_000, 5);
    t.ok(calls >= 2, 'once per pass');
    t.same(scrubber.progress().logChain, broken, 'the last outcome');
    t.match(
      scrubber.progress().lastFinding,
      /no order compared or repaired: the log's hash chain is broken \(the hash chain breaks at position 3 \(changed\)\)/,
    );
    t.equal(
      (await readModel.getById(1))?.view.reference,
      'F3-X',
      'the edited row is left as it is, not "repaired" from a log that cannot be trusted',
    );
  },
);

t.test('a sound chain: the pass goes on to compare and repair', async (t) => {
  const { store, readModel } = await orderWithEditedRow(t);
  const repaired: number[] = [];
  const sound = { ok: true, line: 'the hash chain holds' };
  const scrubber = startReadModelScrubber({
    store,
    readModel,
    ordersPerSecond: 100_000,
    repaired: (id) => void repaired.push(id),
    log: (message) => t.fail(message),
    verifyLog: async () => sound,
  });
  t.teardown(() => scrubber.stop());
  await eventually(async () => scrubber.progress().passes >= 1, 10_000, 5);
  t.same(scrubber.progress().logChain, sound);
  t.same(repaired, [1], 'the edited row repaired');
  t.equal((await readModel.getById(1))?.view.reference, 'F3-2');
});
