// Given a read model built from a real log, when a stored document is changed behind its checksum,
// then every read serves exactly what it served before, repaired from the log, and counts the repair once.
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { ANY, type EventStore, type NewEvent } from '../../../src/eventstore/event-store.js';
import { openSqliteOrderReadModel } from '../../../src/orders/read-model/sqlite-order-read-model.js';
import { selfRepairingReadModel, UnrepairableDocument } from '../../../src/orders/read-model/self-repairing-read-model.js';
import type { DamagedDocument } from '../../../src/orders/read-model/document-checksum.js';
import type { OrderReadModel } from '../../../src/orders/read-model/order-read-model.js';
import { orderStream } from '../../../src/orders/order-events.js';
import { removeDataDir, tempDataDir } from '../../support/service.js';
import { submitted } from './order-read-model-contract.js';

async function given(t: Test, untrustedLog?: () => string | undefined) {
  const dataDir = tempDataDir();
  const store = openSqliteEventStore(dataDir);
  const inner = openSqliteOrderReadModel(dataDir);
  const repaired: DamagedDocument[] = [];
  const readModel = selfRepairingReadModel(inner, store, {
    repaired: (damage) => void repaired.push(damage),
    ...(untrustedLog ? { untrustedLog } : {}),
  });
  t.teardown(async () => {
    await inner.close();
    await store.close().catch(() => {});
    removeDataDir(dataDir);
  });
  for (const [id, reference] of [
    [1, 'A'],
    [2, 'B'],
    [3, 'C'],
  ] as const) {
    const { type, data } = submitted(id, 'g', reference);
    await append(store, orderStream('g', reference), { type, data });
  }
  const pallets = [
    { pallet_index: 'AP1', pallet_code: 'EUR', contents: [{ sku: 'S', purchase_order: 'P', line_item_number: '1', quantity: 34 }] },
  ];
  await append(store, orderStream('g', 'B'), {
    type: 'OrderPlanned',
    data: {
      order_id: 2,
      service_ref: 'SO-000002',
      reference: 'B',
      company_group: 'g',
      plan: { pallets, containers: [] },
      planned_at: '2026-11-20T09:16:00.000000',
    },
  });
  await readModel.apply(await store.readAll());
  const served = async (model: OrderReadModel) => ({
    orders: await Promise.all([1, 2, 3].map((id) => model.getById(id))),
    views: await Promise.all([1, 2, 3].map((id) => model.getViewJson(id))),
    pallets: await Promise.all([1, 2, 3].map((id) => model.palletContents(id))),
    list: await model.list({ companyGroup: 'g', offset: 0 }),
    byReference: await model.findNewest('g', 'B'),
  });
  const before = await served(readModel);
  // Another connection, as a flip on disk or an edit by hand would be: the checksums are left as they were.
  const damage = async (sql: string) => {
    const db = new Database(join(dataDir, 'read-models.db'));
    db.exec(sql);
    db.close();
    await setImmediate(); // the read model's reads of the previous turn shared a snapshot from before
  };
  return { store, readModel, repaired, before, served, damage };
}

async function append(store: EventStore, stream: string, event: NewEvent): Promise<void> {
  await store.append(stream, [event], ANY);
}

t.test('a changed order, its pallet contents and a changed stream name are served as before, each order repaired once', async (t) => {
  const { readModel, repaired, before, served, damage } = await given(t);
  await damage(`
    UPDATE orders SET view = replace(view, 'packing_instructions', 'packin_instructions') WHERE id = 1;
    UPDATE pallet_contents SET document = replace(document, '34', '84') WHERE id = 2;
    UPDATE orders SET stream = 'order:g:Z', view = replace(view, '"C"', '"Z"') WHERE id = 3;
  `);
  t.same(await served(readModel), before, 'retrieve, list, pallet contents and lookups: exactly as before');
  t.same(repaired.map((damage) => [damage.orderId, damage.document]).sort(), [
    [1, 'order'],
    [2, 'pallet contents'],
    [3, 'order'],
  ]);
  t.same(await served(readModel), before, 'and again, with nothing left to repair');
  t.equal(repaired.length, 3);
});

t.test('concurrent reads of one damaged order share one repair', async (t) => {
  const { readModel, repaired, before, damage } = await given(t);
  await damage(`UPDATE orders SET view = replace(view, 'submitted', 'submittet') WHERE id = 1`);
  const reads = await Promise.all([
    readModel.getById(1),
    readModel.getById(1),
    readModel.getViewJson(1),
    readModel.list({ companyGroup: 'g', offset: 0 }),
  ]);
  t.same(reads, [before.orders[0], before.orders[0], before.views[0], before.list]);
  t.equal(repaired.length, 1);
});

t.test('apply onto a damaged document repairs it first, then applies the batch', async (t) => {
  const { store, readModel, repaired, damage } = await given(t);
  await damage(`UPDATE orders SET view = replace(view, '"A"', '"X"') WHERE id = 1`);
  await append(store, orderStream('g', 'A'), {
    type: 'PackingInstructionsDownloaded',
    data: { order_id: 1, downloaded_at: '2026-11-21T00:00:00.000000' },
  });
  const last = (await store.readAll(await readModel.checkpoint()))!;
  await readModel.apply(last);
  const order = await readModel.getById(1);
  t.equal(order?.view.reference, 'A');
  t.equal(order?.view.packing_instructions_downloaded, true);
  t.equal(repaired.length, 1);
});

t.test('where the log cannot be read either: UnrepairableDocument naming the order, nothing served', async (t) => {
  const { store, readModel, repaired, damage } = await given(t);
  await damage(`UPDATE orders SET view = replace(view, '"A"', '"X"') WHERE id = 1`);
  await store.close();
  await t.rejects(readModel.getById(1), UnrepairableDocument);
  await t.rejects(readModel.getById(1), { message: /^order 1: its read-model document is damaged and the event log could not be read/ });
  t.equal(repaired.length, 0);
  t.equal((await readModel.getById(2))?.view.reference, 'B', 'sound documents are still served');
});

t.test(
  "while the log's hash chain is broken, a damaged document is not repaired from it: UnrepairableDocument, nothing served",
  async (t) => {
    let broken: string | undefined = 'the hash chain breaks at position 2 (changed)';
    const { readModel, repaired, damage, before } = await given(t, () => broken);
    await damage(`UPDATE orders SET view = replace(view, '"A"', '"X"') WHERE id = 1`);
    await t.rejects(readModel.getById(1), {
      message:
        /^order 1: its read-model document is damaged and the event log could not be read to repair it \(the hash chain breaks at position 2 \(changed\)\)/,
    });
    t.equal(repaired.length, 0, 'no repair');
    t.equal((await readModel.getById(2))?.view.reference, 'B', 'sound documents are still served');
    broken = undefined; // the log restored
    t.same(await readModel.getById(1), before.orders[0], 'repaired once the log is trusted again');
    t.equal(repaired.length, 1);
  },
);
