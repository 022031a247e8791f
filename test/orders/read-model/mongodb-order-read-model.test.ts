// The MongoDB order read model: the shared contract against a real server when MONGODB_URL is set
// (skipped, with the reason, when not), and always: the documents and queries it builds, the fold that
// makes writes idempotent, and the compare-and-set writes against a stand-in for the five collection
// calls they make (find by ids, findOne, countDocuments, replaceOne, insertOne), with races injected.
import { dropDatabase, scratchDatabaseName } from '../../support/mongodb.js';
import { checksumOf } from '../../../src/orders/read-model/document-checksum.js';
import { connectMongo } from '../../../src/checkpoints/mongodb-checkpoint-store.js';
import { BSON, type Collection } from 'mongodb';
import fc from 'fast-check';
import t from 'tap';
import type { RecordedEvent } from '../../../src/eventstore/event-store.js';
import { isDuplicateKey } from '../../../src/storage/mongodb-duplicate-key.js';
import {
  ORDER_INDEXES,
  ORDERS,
  PALLET_CONTENTS,
  applyProjection,
  eventsByOrder,
  foldEvents,
  listFilter,
  literalPattern,
  openMongoOrderReadModel,
  orderRow,
  pageOptions,
  palletContentsRow,
  type VersionedRow,
  verified,
} from '../../../src/orders/read-model/mongodb-order-read-model.js';
import { searchText } from '../../../src/orders/read-model/search-text.js';
import { projectOrderView, type OrderDocument } from '../../../projections/order-view.js';
import { projectPalletContents, type PalletContentsDocument } from '../../../projections/pallet-contents.js';
import { orderReadModelContract, submitted } from './order-read-model-contract.js';

const url = process.env.MONGODB_URL;
if (url) {
  orderReadModelContract(t, 'MongoDB', async () => {
    const dbName = scratchDatabaseName('orders_contract');
    const readModel = await openMongoOrderReadModel(url, dbName);
    return {
      readModel,
      async damage(id, document, from, to) {
        // The document changed behind the adapter's back, its checksum left as it was.
        const client = await connectMongo(url);
        try {
          const collection = client
            .db(dbName)
            .collection<{ _id: number; document: unknown }>(document === 'order' ? ORDERS : PALLET_CONTENTS);
          const row = await collection.findOne({ _id: id });
          const text = JSON.stringify(row?.document);
          if (!text?.includes(from)) throw new Error(`order ${id}: no ${document} holding ${from}`);
          await collection.updateOne({ _id: id }, { $set: { document: JSON.parse(text.replace(from, to)) } });
        } finally {
          await client.close();
        }
      },
      async cleanup() {
        await readModel.close();
        await dropDatabase(url, dbName);
      },
    };
  });

  t.test('MongoDB: a repair never goes over a document an apply has moved past the checkpoint', async (t) => {
    // An apply writes its documents, then moves the checkpoint: in between, a document is ahead of it.
    // A repair (or the scrubber's) folding up to the checkpoint would take that apply's events back out
    // for good; it writes nothing and says so, and goes ahead once the document is not ahead.
    const dbName = scratchDatabaseName('orders_repair_ahead');
    const readModel = await openMongoOrderReadModel(url, dbName);
    const client = await connectMongo(url);
    t.teardown(async () => {
      await client.close();
      await readModel.close();
      await dropDatabase(url, dbName);
    });
    const order = submitted(1, 'g', 'A');
    await readModel.apply([order]);
    const checkpoint = (await readModel.checkpoint())!;
    const download = { ...downloaded(1), position: checkpoint + 1n };
    // The apply of the download half-way: its document written (with its position), the checkpoint not yet moved.
    const orders = client.db(dbName).collection<VersionedRow>(ORDERS);
    const applied = projectOrderView((await readModel.getById(1))!, download)!;
    const { _id, ...row } = orderRow(1, applied, download.position);
    await orders.replaceOne({ _id: 1 }, row);
    t.equal(await readModel.checkpoint(), checkpoint, 'the checkpoint has not moved');

    t.equal(await readModel.repair(1, [order, download]), false, 'nothing written: the document is ahead of the checkpoint');
    t.equal((await readModel.getById(1))?.view.packing_instructions_downloaded, true, "the apply's event is still in it");

    await readModel.apply([download]); // the apply finishes: the checkpoint moves
    t.equal(await readModel.repair(1, [order, download]), true, 'once not ahead, the repair goes ahead');
    t.equal((await readModel.getById(1))?.view.packing_instructions_downloaded, true);
  });
} else {
  t.test(
    'MongoDB: order read model contract',
    { skip: 'MongoDB contract: MONGODB_URL is not set; no MongoDB server runs on this machine' },
    async () => {},
  );
}

let position = 5_000n;
function recorded(type: string, data: unknown): RecordedEvent {
  position += 1n;
  return { id: `e${position}`, stream: 'order:g:r', type, data, revision: 0n, position, recordedAt: new Date() };
}
const downloaded = (order_id: number, at = '2026-11-21T00:00:00.000000') =>
  recorded('PackingInstructionsDownloaded', { order_id, downloaded_at: at });
const planned = (order_id: number) =>
  recorded('OrderPlanned', {
    order_id,
    service_ref: `SO-${order_id}`,
    reference: 'R',
    company_group: 'g',
    plan: { pallets: [], containers: [] },
    planned_at: '2026-11-20T09:16:00.000000',
  });

t.test('order rows carry the query fields, the JSON document and its position as int64', async (t) => {
  const event = submitted(7, 'acme', 'PO-Ünï');
  const document = projectOrderView(undefined, event)!;
  const row = orderRow(7, { ...document, extra: undefined } as OrderDocument, 2n ** 60n + 1n);
  t.equal(row._id, 7);
  t.equal(row.company_group, 'acme');
  t.equal(row.service_ref, 'SO-000007');
  t.equal(row.reference, 'PO-Ünï');
  t.equal(row.search_text, 'so-000007\npo-ünï\noceanfcl');
  t.notOk('extra' in row.document, 'undefined members are dropped, as JSON storage drops them');
  t.strictSame(row.document, JSON.parse(JSON.stringify(document)));
  t.throws(() => orderRow(7, document, 2n ** 63n), RangeError);

  // Through the driver's BSON codec and back, as a read with useBigInt64 sees it.
  const back = BSON.deserialize(BSON.serialize(row), { useBigInt64: true });
  t.equal(back.position, 2n ** 60n + 1n);
  t.strictSame(back.document, row.document, 'the document round-trips');
  t.strictSame(verified(back as VersionedRow, 'order'), row.document, 'and still matches its checksum');
  const edited = BSON.deserialize(BSON.serialize({ ...row, document: { ...row.document, reference: 'PO-X' } }), { useBigInt64: true });
  t.throws(
    () => verified(edited as VersionedRow, 'order'),
    { name: 'DamagedDocument', orderId: 7, document: 'order', streamHint: event.stream },
    'an edited document does not',
  );
  t.throws(() => verified({ _id: 7, document: row.document }, 'order'), { name: 'DamagedDocument' }, 'nor one without a checksum');

  t.strictSame(palletContentsRow(7, { status: 'pending' }, 9n), {
    _id: 7,
    document: { status: 'pending' },
    position: 9n,
    checksum: checksumOf('{"status":"pending"}'),
  });
  t.equal(searchText(document), row.search_text);
});

t.test(
  'indexes: newest listed of a group, unique service_ref, newest of a group by reference, newest listed of a group by status',
  async (t) => {
    t.strictSame(
      ORDER_INDEXES.map((index) => [index.key, index.unique ?? false]),
      [
        [{ company_group: 1, listed: 1, _id: -1 }, false],
        [{ service_ref: 1 }, true],
        [{ company_group: 1, reference: 1, _id: -1 }, false],
        [{ company_group: 1, listed: 1, 'document.view.status': 1, _id: -1 }, false],
      ],
    );
    t.equal(new Set(ORDER_INDEXES.map((index) => index.name)).size, 4, 'each named, so that re-creating them is a no-op');
  },
);

t.test('list filter: the group, and a lower-cased literal substring of the search text', async (t) => {
  t.strictSame(listFilter('g'), { company_group: 'g', listed: { $ne: false } }, 'consolidated children are not listed');
  t.strictSame(listFilter('g', ''), { company_group: 'g', listed: { $ne: false } }, 'an empty search is no search');
  t.strictSame(
    listFilter('g', 'REF-1'),
    { company_group: 'g', listed: { $ne: false }, search_text: { $regex: 'ref-1' } },
    'lower-cased, escaped',
  );
  t.strictSame(listFilter('g', '$where.*(').search_text, { $regex: '\\$where\\.\\*\\(' }, 'every metacharacter escaped');
  t.strictSame(
    listFilter('g', undefined, ['cancelled']),
    { company_group: 'g', listed: { $ne: false }, 'document.view.status': { $in: ['cancelled'] } },
    'the status filter, on the stored view',
  );
});

t.test('the escaped search matches exactly where a substring test does, whatever the characters', async (t) => {
  const alphabet = ['a', 'b', '-', '.', '*', '(', ')', '[', ']', '{', '}', '\\', '^', '$', '|', '?', '+', '/', '\n', 'é', '中', '🚢', ' '];
  const samples = fc.sample(
    fc.tuple(
      fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 12 }),
      fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 4 }),
    ),
    { numRuns: 2000, seed: 22 },
  );
  let mismatches = 0;
  let found = 0;
  for (const [haystack, needle] of samples) {
    const expected = haystack.includes(needle);
    if (expected) found += 1;
    if (new RegExp(literalPattern(needle), 'u').test(haystack) !== expected) mismatches += 1;
  }
  t.equal(mismatches, 0, `2000 pairs, ${found} of them containing the needle`);
  t.ok(found > 100 && found < 1900, 'both outcomes were tried');
});

t.test('page options: newest first; no limit means every order', async (t) => {
  t.strictSame(pageOptions(2, 3), { sort: { _id: -1 }, skip: 2, limit: 3, projection: { document: 1, checksum: 1 } });
  t.strictSame(pageOptions(0, undefined), { sort: { _id: -1 }, skip: 0, projection: { document: 1, checksum: 1 } });
});

t.test('events are grouped by the order they name, in log order', async (t) => {
  const a = submitted(1, 'g', 'A');
  const ids = recorded('OrderIdAllocated', { order_id: 2, service_ref: 'SO-000002' });
  const master = recorded('LaneDefined', { company_group: 'g', lane: {} });
  const b = submitted(2, 'g', 'B');
  const c = downloaded(1);
  const grouped = eventsByOrder([a, ids, master, b, c]);
  t.strictSame([...grouped.keys()], [1, 2]);
  t.strictSame(
    grouped.get(1)?.map((e) => e.id),
    [a.id, c.id],
  );
  t.strictSame(
    grouped.get(2)?.map((e) => e.id),
    [ids.id, b.id],
  );
});

t.test('fold: applies what changes the document, skips what the stored position already covers', async (t) => {
  const submit = submitted(1, 'g', 'A');
  const download = downloaded(1);
  const created = foldEvents<OrderDocument>(undefined, [submit], projectOrderView);
  t.equal(created?.position, submit.position);
  t.equal(created?.document.view.id, 1);

  const both = foldEvents<OrderDocument>(undefined, [submit, download], projectOrderView);
  t.equal(both?.position, download.position, 'the position of the last event that changed it');
  t.equal(both?.document.view.packing_instructions_downloaded, true);

  t.equal(foldEvents(both, [submit, download], projectOrderView), undefined, 'a replay writes nothing');
  const later = downloaded(1, '2026-12-01T00:00:00.000000');
  const moved = foldEvents(both, [submit, download, later], projectOrderView);
  t.equal(moved?.document.view.updated_at, '2026-12-01T00:00:00.000000', 'only the new event is applied');
  t.equal(moved?.document.view.created_at, both?.document.view.created_at, 'the replayed OrderSubmitted did not reset it');

  t.equal(
    foldEvents<OrderDocument>(undefined, [download], projectOrderView),
    undefined,
    'an event before the order exists changes nothing',
  );
  const idOnly = recorded('OrderIdAllocated', { order_id: 1, service_ref: 'SO-000001' });
  t.equal(foldEvents(both, [idOnly], projectOrderView), undefined, 'an event the projection ignores writes nothing');

  const pallets = foldEvents<PalletContentsDocument>(undefined, [submit, planned(1)], projectPalletContents);
  t.strictSame(pallets?.document, { status: 'planned', pallets: [] });
});

t.test('duplicate keys are recognised by code', async (t) => {
  t.ok(isDuplicateKey(Object.assign(new Error('E11000 duplicate key error'), { code: 11000 })));
  t.notOk(isDuplicateKey(Object.assign(new Error('other'), { code: 112 })));
  t.notOk(isDuplicateKey(undefined));
});

// ---- compare-and-set writes, against a stand-in collection -------------------------------------

/** The collection calls applyProjection makes, on a Map; unique indexes on the given fields; a hook runs before each write. */
class StandInCollection {
  readonly rows = new Map<number, VersionedRow>();
  writes = 0;
  beforeWrite: ((id: number) => void) | undefined;
  constructor(readonly unique: readonly string[] = []) {}

  find(filter: { _id: { $in: number[] } }) {
    const found = filter._id.$in.flatMap((id) => (this.rows.has(id) ? [structuredClone(this.rows.get(id)!)] : []));
    return { toArray: async () => found };
  }
  async findOne(filter: { _id: number }) {
    const row = this.rows.get(filter._id);
    return row ? structuredClone(row) : null;
  }
  async countDocuments(filter: { _id: number }) {
    return this.rows.has(filter._id) ? 1 : 0;
  }
  async replaceOne(filter: { _id: number; position: bigint }, replacement: Omit<VersionedRow, '_id'>) {
    this.beforeWrite?.(filter._id);
    const row = this.rows.get(filter._id);
    if (!row || row.position !== filter.position) return { matchedCount: 0 };
    this.#checkUnique(filter._id, replacement);
    this.writes++;
    this.rows.set(filter._id, structuredClone({ _id: filter._id, ...replacement }));
    return { matchedCount: 1 };
  }
  async insertOne(row: VersionedRow) {
    this.beforeWrite?.(row._id);
    if (this.rows.has(row._id)) throw duplicateKey('_id');
    this.#checkUnique(row._id, row);
    this.writes++;
    this.rows.set(row._id, structuredClone(row));
    return { insertedId: row._id };
  }
  #checkUnique(id: number, row: object) {
    const value = (of: object, field: string) => (of as Record<string, unknown>)[field];
    for (const field of this.unique) {
      for (const [otherId, other] of this.rows) if (otherId !== id && value(other, field) === value(row, field)) throw duplicateKey(field);
    }
  }
  asCollection(): Collection<VersionedRow> {
    return this as unknown as Collection<VersionedRow>;
  }
}

function duplicateKey(field: string): Error {
  return Object.assign(new Error(`E11000 duplicate key error index: ${field}`), { code: 11000 });
}

const applyOrders = (collection: StandInCollection, events: RecordedEvent[]) =>
  applyProjection<OrderDocument>(collection.asCollection(), eventsByOrder(events), projectOrderView, orderRow, 'order');

t.test('writes: inserts new documents, replaces changed ones, and a replayed batch writes nothing', async (t) => {
  const orders = new StandInCollection(['service_ref']);
  const batch = [submitted(1, 'g', 'A'), submitted(2, 'g', 'B'), downloaded(1)];
  await applyOrders(orders, batch);
  t.equal(orders.writes, 2, 'one write per changed document, not per event');
  t.equal(orders.rows.get(1)?.position, batch[2]!.position);
  t.equal((orders.rows.get(1)!.document as OrderDocument).view.packing_instructions_downloaded, true);
  await applyOrders(orders, batch);
  t.equal(orders.writes, 2, 'replayed: nothing written');
  const later = downloaded(2);
  await applyOrders(orders, [...batch, later]);
  t.equal(orders.writes, 3);
  t.equal(orders.rows.get(2)?.position, later.position);
});

t.test('writes: another instance applying the same events first makes this one re-read and write nothing', async (t) => {
  const orders = new StandInCollection(['service_ref']);
  const single = new StandInCollection(['service_ref']);
  const submit = submitted(1, 'g', 'A');
  const download = downloaded(1);
  await applyOrders(orders, [submit]);
  await applyOrders(single, [submit, download]);
  // Just before our write, the other instance's write of the very same event lands.
  orders.beforeWrite = (id) => {
    orders.beforeWrite = undefined;
    const row = orders.rows.get(id)!;
    orders.rows.set(id, orderRow(id, projectOrderView(row.document as OrderDocument, download)!, download.position));
  };
  await applyOrders(orders, [download]);
  t.equal(orders.writes, 1, 'our write missed and, after re-reading, there was nothing left to write');
  t.strictSame(orders.rows.get(1), single.rows.get(1), 'the document a single projector writes');
});

t.test('writes: an update landed meanwhile is folded into ours, not overwritten', async (t) => {
  const orders = new StandInCollection(['service_ref']);
  const submit = submitted(1, 'g', 'A');
  await applyOrders(orders, [submit]);
  const first = downloaded(1, '2026-11-21T00:00:00.000000');
  const second = downloaded(1, '2026-11-22T00:00:00.000000');
  // Another instance applies only `first` just before we write first + second.
  orders.beforeWrite = () => {
    orders.beforeWrite = undefined;
    const row = orders.rows.get(1)!;
    const next = projectOrderView(row.document as OrderDocument, first)!;
    orders.rows.set(1, orderRow(1, next, first.position));
  };
  await applyOrders(orders, [first, second]);
  const row = orders.rows.get(1)!;
  t.equal(row.position, second.position);
  t.equal((row.document as OrderDocument).view.updated_at, '2026-11-22T00:00:00.000000');
});

t.test('writes: an insert race is resolved by reading the winner', async (t) => {
  const orders = new StandInCollection(['service_ref']);
  const submit = submitted(1, 'g', 'A');
  const download = downloaded(1);
  orders.beforeWrite = () => {
    orders.beforeWrite = undefined;
    orders.rows.set(1, orderRow(1, projectOrderView(undefined, submit)!, submit.position));
  };
  await applyOrders(orders, [submit, download]);
  const row = orders.rows.get(1)!;
  t.equal(row.position, download.position, "the winner's document, then our remaining event on top");
  t.equal((row.document as OrderDocument).view.packing_instructions_downloaded, true);
});

t.test('writes: a service_ref held by another order is an error, not a retry', async (t) => {
  const orders = new StandInCollection(['service_ref']);
  await applyOrders(orders, [submitted(1, 'g', 'A')]);
  const clash = submitted(2, 'g', 'B');
  (clash.data as { service_ref: string }).service_ref = 'SO-000001';
  await t.rejects(applyOrders(orders, [clash]), /duplicate key/);
});

t.test('writes: a document that keeps changing underneath fails after a bounded number of attempts', async (t) => {
  const orders = new StandInCollection(['service_ref']);
  await applyOrders(orders, [submitted(1, 'g', 'A')]);
  // A runaway writer moves the document before every one of our writes.
  orders.beforeWrite = (id) => {
    const row = orders.rows.get(id)!;
    orders.rows.set(id, { ...row, position: row.position - 1n });
  };
  await t.rejects(applyOrders(orders, [downloaded(1)]), /kept changing/);
});
