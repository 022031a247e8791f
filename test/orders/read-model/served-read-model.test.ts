// The read model as requests read it (served-read-model.ts). Given a read model built from a real log and
// a rebuild held half-way, when orders are read, then each read of one order answers what the read model
// answered before, from the log; a list waits for the rebuilt read model and answers as before; a change
// a command makes meanwhile is visible at once, and the read model counts as current again only once it
// holds that change. And a read that finds the read model's storage damaged starts that rebuild once, and
// is answered from the log.
import t, { type Test } from 'tap';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { ANY, type EventStore, type NewEvent } from '../../../src/eventstore/event-store.js';
import { openSqliteOrderReadModel } from '../../../src/orders/read-model/sqlite-order-read-model.js';
import { selfRepairingReadModel } from '../../../src/orders/read-model/self-repairing-read-model.js';
import { servedReadModel } from '../../../src/orders/read-model/served-read-model.js';
import { startProjector } from '../../../src/orders/read-model/projector.js';
import type { OrderReadModel } from '../../../src/orders/read-model/order-read-model.js';
import { ORDER_IDS_STREAM, orderStream, serviceRefFor } from '../../../src/orders/order-events.js';
import { DamagedStorage } from '../../../src/storage/damaged-storage.js';
import { removeDataDir, tempDataDir } from '../../support/service.js';
import { submitted } from './order-read-model-contract.js';

const PALLETS = [
  { pallet_index: 'AP1', pallet_code: 'EUR', contents: [{ sku: 'S', purchase_order: 'P', line_item_number: '1', quantity: 34 }] },
];

async function append(store: EventStore, stream: string, event: NewEvent): Promise<bigint> {
  return (await store.append(stream, [event], ANY)).position;
}

async function submit(store: EventStore, id: number, reference: string): Promise<bigint> {
  await append(store, ORDER_IDS_STREAM, { type: 'OrderIdAllocated', data: { order_id: id, service_ref: serviceRefFor(id) } });
  const { type, data } = submitted(id, 'g', reference);
  return append(store, orderStream('g', reference), { type, data });
}

/** The read model as the service builds it, with its applies held while `held` is true. */
async function given(t: Test, visibleWithinMs = 2000, untrustedLog?: () => string | undefined) {
  const dataDir = tempDataDir();
  const store = openSqliteEventStore(dataDir);
  const sqlite = openSqliteOrderReadModel(dataDir);
  let failNextRead: Error | undefined;
  let held = false;
  const gate: OrderReadModel = {
    ...sqlite,
    async apply(events) {
      while (held) await sleep(5);
      return sqlite.apply(events);
    },
    async getViewJson(id) {
      const failure = failNextRead;
      failNextRead = undefined;
      if (failure) throw failure;
      return sqlite.getViewJson(id);
    },
  };
  const repairing = selfRepairingReadModel(gate, store, { repaired: () => {} });
  const rebuilds: string[] = [];
  for (const [id, reference] of [
    [1, 'A'],
    [2, 'B'],
    [3, 'C'],
  ] as const)
    await submit(store, id, reference);
  await append(store, orderStream('g', 'B'), {
    type: 'OrderPlanned',
    data: {
      order_id: 2,
      service_ref: 'SO-000002',
      reference: 'B',
      company_group: 'g',
      plan: { pallets: PALLETS, containers: [] },
      planned_at: '2026-11-20T09:16:00.000000',
    },
  });
  const projector = await startProjector(store, repairing, () => {}, {
    rebuildingAfterDamage: (error) => void rebuilds.push(error.message),
  });
  const orders = servedReadModel(repairing, store, projector, { visibleWithinMs, ...(untrustedLog ? { untrustedLog } : {}) });
  const state = orders; // current, visible, damaged
  await projector.caughtUp((await store.headPosition())!);
  t.teardown(async () => {
    held = false;
    await projector.stop();
    await repairing.close();
    await store.close();
    removeDataDir(dataDir);
  });
  const served = async () => ({
    views: await Promise.all([1, 2, 3].map((id) => orders.getViewJson(id))),
    orders: await Promise.all([1, 2, 3].map((id) => orders.getById(id))),
    pallets: await Promise.all([1, 2, 3].map((id) => orders.palletContents(id))),
    byReference: await orders.findNewest('g', 'B'),
    byServiceRef: await orders.findNewest('g', 'SO-000003'),
    otherGroup: await orders.findNewest('h', 'SO-000003'),
    missing: await Promise.all([orders.getById(4), orders.getById(1_000_000), orders.findNewest('g', 'NONE')]),
  });
  // Another connection, as a flip on disk would be: the checksums are left as they were.
  const damage = async (sql: string) => {
    const db = new Database(join(dataDir, 'read-models.db'));
    db.exec(sql);
    db.close();
    await setImmediate(); // the read model's reads of the previous turn shared a snapshot from before
  };
  return {
    store,
    orders,
    state,
    projector,
    served,
    damage,
    rebuilds,
    hold: (on: boolean) => void (held = on),
    failNextRead: (error: Error) => void (failNextRead = error),
  };
}

t.test('while a rebuild is held: one order from the log, exactly as before; a list waits for the rebuilt read model', async (t) => {
  const { store, orders, state, projector, served, hold } = await given(t);
  const before = await served();
  const listBefore = await orders.list({ companyGroup: 'g', offset: 0 });
  t.equal(listBefore.count, 3, 'three orders listed');
  t.ok(state.current(), 'current before the rebuild');

  hold(true);
  void projector.rebuild('a test holds it');
  t.notOk(state.current(), 'not current while it is rebuilt');
  t.same(
    await served(),
    before,
    'retrieve, its JSON, pallet contents, lookups by reference and service_ref, and what is not there: as before',
  );
  t.equal(orders.readyViewJson(1), undefined, 'no view is vouched for meanwhile');

  let listed: Awaited<ReturnType<OrderReadModel['list']>> | undefined;
  const list = orders.list({ companyGroup: 'g', offset: 0 }).then((result) => (listed = result));
  // A command's change meanwhile: visible at once, through the log.
  const position = await submit(store, 4, 'D');
  await state.visible(position);
  t.equal((await orders.getById(4))?.view.reference, 'D', 'an order submitted during the rebuild is read at once');
  await sleep(50);
  t.equal(listed, undefined, 'the list waits while the rebuild is held');

  hold(false);
  await list;
  t.equal(listed!.count, 4, 'the list answers from the rebuilt read model, with the order submitted meanwhile');
  t.same(listed!.results.slice(1), listBefore.results, 'and the orders as before');
  t.ok(state.current(), 'current once the rebuild holds every change a command was told is visible');
  t.same((await served()).views, before.views, 'and read from the read model again, the same');
});

t.test('a read that finds the storage damaged is answered from the log, and starts one rebuild however many find it', async (t) => {
  const { orders, state, served, rebuilds, hold, failNextRead } = await given(t);
  const before = await served();
  hold(true);
  const damage = new DamagedStorage('read-models.db', 'database disk image is malformed');
  failNextRead(damage);
  t.same(await orders.getViewJson(1), before.views[0], 'the read that met the damage: answered from the log');
  t.notOk(state.current(), 'a rebuild began');
  state.damaged(damage);
  state.damaged(damage);
  t.same(rebuilds, [damage.message], 'one rebuild, counted once');
  hold(false);
  t.equal((await orders.list({ companyGroup: 'g', offset: 0 })).count, 3, 'the list, once rebuilt');
  t.ok(state.current(), 'current again');
  t.same(await served(), before, 'and everything as before');
});

t.test(
  'a list waits while the rebuild moves on, and answers 503 (NotVisibleInTime) once it has stalled for the visibility deadline',
  async (t) => {
    const { orders, projector, hold } = await given(t, 300);
    hold(true);
    void projector.rebuild('a test stalls it');
    const started = performance.now();
    await t.rejects(orders.list({ companyGroup: 'g', offset: 0 }), { name: 'NotVisibleInTime' });
    t.ok(performance.now() - started >= 290, 'after the deadline, not before');
  },
);

t.test(
  'a command waiting to see its change when a rebuild begins: answered at the deadline, not refused, since reads come from the log',
  async (t) => {
    const { store, orders, state, projector, hold } = await given(t, 300);
    hold(true);
    const position = await submit(store, 4, 'D');
    t.ok(state.current(), 'current: no rebuild yet, only an apply under way');
    const visible = state.visible(position);
    void projector.rebuild('begins while a command waits');
    await visible;
    t.equal((await orders.getById(4))?.view.reference, 'D', 'and its order is read');
    t.notOk(state.current(), 'the read model is not current until it holds that change');
    hold(false);
    await orders.list({ companyGroup: 'g', offset: 0 });
    t.ok(state.current(), 'then it is');
  },
);

t.test(
  'while the log is not trusted (its hash chain found broken), a read during a rebuild is refused (503), not answered from it',
  async (t) => {
    let distrust: string | undefined;
    const { orders, projector, hold } = await given(t, 2000, () => distrust);
    hold(true);
    void projector.rebuild('a test holds it');
    distrust = 'the chain breaks at position 3';
    await t.rejects(orders.getViewJson(1), { name: 'UnrepairableDocument', message: /the chain breaks at position 3/ });
    await t.rejects(orders.findNewest('g', 'B'), { name: 'UnrepairableDocument' });
    distrust = undefined;
    t.equal((await orders.getById(1))?.view.reference, 'A', 'answered again once it is trusted');
  },
);

t.test(
  'lookup columns outside the checksum (reference, service_ref) damaged: a lookup neither misses the order nor finds another',
  async (t) => {
    const { orders, served, damage } = await given(t);
    const before = await served();
    await damage(`
    UPDATE orders SET reference = 'X' WHERE id = 2;
    UPDATE orders SET service_ref = 'SO-999999' WHERE id = 3;
    UPDATE orders SET reference = 'A' WHERE id = 3;
  `);
    t.same(await orders.findNewest('g', 'B'), before.byReference, 'a reference its row no longer holds: found through the log');
    t.same(await orders.findNewest('g', 'SO-000003'), before.byServiceRef, 'a service_ref its row no longer holds: found through its id');
    t.same((await orders.findNewest('g', 'A'))?.view.id, 1, "a row holding another order's reference is not taken for it");
    t.equal(await orders.findNewest('g', 'X'), undefined, 'nor found by the value its damaged column holds');
    t.same(await served(), before, 'and every read as before, the rows stored again');
  },
);
