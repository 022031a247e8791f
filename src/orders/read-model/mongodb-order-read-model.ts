// The order read model on MongoDB: the documents of projections/order-view.ts in `orders` (with the
// fields the queries filter on beside them), those of projections/pallet-contents.ts in
// `pallet_contents`, and the projection's checkpoint in `checkpoints`.
//
// Idempotence without transactions (a standalone mongod is enough): every document carries the log
// position of the last event that changed it, and is written with a compare-and-set on the position it
// was read at. An event at or before a document's position is never applied to it again, so re-applying
// a batch (after a crash between the documents and the checkpoint, or by a second instance of the
// service) changes nothing, and two projectors racing on one document cannot lose an update: the loser's
// write misses, it re-reads and re-folds. The checkpoint moves after the documents, with $max so that it
// never goes back; it only saves re-reading events, the positions on the documents are what keep them right.
import type { Collection, Db, Filter, FindOptions, IndexDescription, MongoClient } from 'mongodb';
import type { RecordedEvent } from '../../eventstore/event-store.js';
import { orderIdOf, projectOrderView, type OrderDocument } from '../../../projections/order-view.js';
import { projectPalletContents, type PalletContentsDocument } from '../../../projections/pallet-contents.js';
import {
  connectMongo,
  databaseName,
  ensureIndexes,
  fromStoredPosition,
  isMongoUnreachable,
  toStoredPosition,
} from '../../checkpoints/mongodb-checkpoint-store.js';
import { guardUnavailable } from '../../storage/unavailable-storage.js';
import { isDuplicateKey, upsertRacing } from '../../storage/mongodb-duplicate-key.js';
import type { OrderListQuery, OrderReadModel } from './order-read-model.js';
import { searchText } from './search-text.js';
import { checksumOf, DamagedDocument } from './document-checksum.js';

// Both order projections move together under one checkpoint: they are fed by the same events.
const PROJECTION = 'orders';

export const ORDERS = 'orders';
export const PALLET_CONTENTS = 'pallet_contents';
export const CHECKPOINTS = 'checkpoints';

/** A document together with the log position of the last event that changed it. */
export interface VersionedRow<D = unknown> {
  _id: number;
  document: D;
  position: bigint;
  /** checksumOf(the document as JSON text), checked on every read: BSON has no checksum of its own to check. */
  checksum: number;
}

export interface OrderRow extends VersionedRow<OrderDocument> {
  company_group: string;
  service_ref: string;
  reference: string;
  /** service_ref, reference and transport name, lower-cased, one per line: what search looks in. */
  search_text: string;
  /** False for a child of a consolidated shipment: retrieve shows it, the list omits it (spec 4.3). */
  listed: boolean;
}

export type PalletContentsRow = VersionedRow<PalletContentsDocument>;

interface CheckpointRow {
  _id: string;
  position: bigint;
  /** The id of the log's first event: which log this read model was built from. */
  log_id?: string;
}

/**
 * What the queries need besides `_id` (get by id): the newest orders of a group (list), an order by
 * service_ref (unique, as in the SQLite table) and the newest of a group by reference (findNewest).
 * "Newest" is id descending, as in the port; ids are allocated in submit order. No query filters or
 * sorts on created_at, so it has no index: an unused index would only slow the writes down.
 */
export const ORDER_INDEXES: IndexDescription[] = [
  { key: { company_group: 1, listed: 1, _id: -1 }, name: 'company_group_listed_newest' },
  { key: { service_ref: 1 }, name: 'service_ref_unique', unique: true },
  { key: { company_group: 1, reference: 1, _id: -1 }, name: 'company_group_reference_newest' },
  // the list's status filter, on the stored view itself (a filter on a field of the row would miss rows written before it)
  { key: { company_group: 1, listed: 1, 'document.view.status': 1, _id: -1 }, name: 'company_group_listed_status_newest' },
];

export function orderRow(id: number, document: OrderDocument, position: bigint): OrderRow {
  return {
    _id: id,
    company_group: document.company_group,
    service_ref: document.view.service_ref,
    reference: document.view.reference,
    search_text: searchText(document),
    listed: document.view.consolidated_into === null,
    ...checksummed(document),
    position: toStoredPosition(position),
  };
}

export function palletContentsRow(id: number, document: PalletContentsDocument, position: bigint): PalletContentsRow {
  return { _id: id, ...checksummed(document), position: toStoredPosition(position) };
}

/**
 * The document as the SQLite adapter stores it (JSON: undefined members dropped rather than stored as
 * null) and the checksum of that text. MongoDB keeps the order of a document's fields, so the document
 * read back serializes to the same text.
 */
function checksummed<T>(document: T): { document: T; checksum: number } {
  const text = JSON.stringify(document);
  return { document: JSON.parse(text) as T, checksum: checksumOf(text) };
}

/** The document of a row as read, once it matches its checksum: DamagedDocument otherwise. */
export function verified<D>(row: { _id: number; document?: unknown; checksum?: unknown }, kind: DamagedDocument['document']): D {
  const text = row.document === undefined ? undefined : JSON.stringify(row.document);
  if (text === undefined || row.checksum !== checksumOf(text)) {
    const stream = (row.document as { stream?: unknown } | undefined)?.stream;
    throw new DamagedDocument(row._id, kind, kind === 'order' && typeof stream === 'string' ? stream : undefined);
  }
  return row.document as D;
}

/**
 * The orders of a group, and with `search` only those whose search text contains it, lower-cased:
 * the SQLite adapter's `instr(search_text, lower(search))`. A $regex of the search with every
 * metacharacter escaped is exactly that substring test (UTF-8 is self-synchronizing, so a byte match
 * of the needle is a match of its characters), and it works on FerretDB too, which does not implement
 * `$gte` inside `$expr` (the `$indexOfCP` form this replaced). See docs/production-backends.md.
 */
export function listFilter(companyGroup: string, search?: string, statuses?: readonly string[]): Filter<OrderRow> {
  const needle = search?.toLowerCase();
  const filter: Filter<OrderRow> = { company_group: companyGroup, listed: { $ne: false } };
  if (statuses) filter['document.view.status'] = { $in: [...statuses] };
  if (needle) filter.search_text = { $regex: literalPattern(needle) };
  return filter;
}

/** A regular expression that matches exactly `text`: every character with a meaning in a pattern escaped. */
export function literalPattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** Newest first, one page. (MongoDB reads limit 0 as "no limit"; the caller answers limit 0 without a query.) */
export function pageOptions(offset: number, limit: number | undefined): FindOptions {
  return { sort: { _id: -1 }, skip: offset, ...(limit !== undefined ? { limit } : {}), projection: { document: 1, checksum: 1 } };
}

/**
 * What to write for one document, given what is stored and the batch's events for it (in log order):
 * the folded document and the position of the last event that changed it, or undefined when no event
 * changes it. Events at or before the stored position were applied before and are skipped.
 */
export function foldEvents<D>(
  stored: { document: D; position: bigint } | undefined,
  events: readonly RecordedEvent[],
  project: (document: D | undefined, event: RecordedEvent) => D | undefined,
): { document: D; position: bigint } | undefined {
  let document = stored?.document;
  let position: bigint | undefined;
  for (const event of events) {
    if (stored && event.position <= stored.position) continue;
    const next = project(document, event);
    if (next !== undefined && next !== document) {
      document = next;
      position = event.position;
    }
  }
  return document !== undefined && position !== undefined ? { document, position } : undefined;
}

/** The batch's events that name an order, grouped by order id, each group in log order. */
export function eventsByOrder(events: readonly RecordedEvent[]): Map<number, RecordedEvent[]> {
  const byId = new Map<number, RecordedEvent[]>();
  for (const event of events) {
    const id = orderIdOf(event);
    if (id === undefined) continue;
    const group = byId.get(id);
    if (group) group.push(event);
    else byId.set(id, [event]);
  }
  return byId;
}

/** A document that changes under this projector more often than this in one apply means something is wrong; fail rather than spin. */
const MAX_ATTEMPTS = 10;

/** Applies one projection to the documents of a batch: one read for all of them, then one write per changed document. */
export async function applyProjection<D>(
  collection: Collection<VersionedRow>,
  byId: ReadonlyMap<number, readonly RecordedEvent[]>,
  project: (document: D | undefined, event: RecordedEvent) => D | undefined,
  toRow: (id: number, document: D, position: bigint) => VersionedRow,
  kind: DamagedDocument['document'],
): Promise<void> {
  const rows = await collection
    .find({ _id: { $in: [...byId.keys()] } }, { projection: { document: 1, position: 1, checksum: 1 } })
    .toArray();
  // A damaged document is not folded onto: DamagedDocument goes up, the document is repaired and the batch applied again.
  const stored = new Map(rows.map((row) => [row._id, { document: verified<D>(row, kind), position: fromStoredPosition(row.position) }]));
  await Promise.all([...byId].map(([id, events]) => applyToDocument(collection, id, events, stored.get(id), project, toRow)));
}

async function applyToDocument<D>(
  collection: Collection<VersionedRow>,
  id: number,
  events: readonly RecordedEvent[],
  stored: { document: D; position: bigint } | undefined,
  project: (document: D | undefined, event: RecordedEvent) => D | undefined,
  toRow: (id: number, document: D, position: bigint) => VersionedRow,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const next = foldEvents(stored, events, project);
    if (!next) return;
    const row = toRow(id, next.document, next.position);
    if (stored) {
      const { _id, ...replacement } = row;
      // Compare-and-set: only if nobody moved the document since it was read.
      const result = await collection.replaceOne({ _id: id, position: stored.position }, replacement);
      if (result.matchedCount === 1) return;
    } else {
      try {
        await collection.insertOne(row);
        return;
      } catch (error) {
        // Another writer inserted it first, or another order holds this service_ref (a corrupt log): tell them apart by reading.
        if (!isDuplicateKey(error) || (await collection.countDocuments({ _id: id }, { limit: 1 })) === 0) throw error;
      }
    }
    if (attempt >= MAX_ATTEMPTS)
      throw new Error(`order ${id}: its read-model document kept changing under this projector (${attempt} attempts)`);
    const fresh = await collection.findOne({ _id: id }, { projection: { document: 1, position: 1 } });
    stored = fresh ? { document: fresh.document as D, position: fromStoredPosition(fresh.position) } : undefined;
  }
}

/**
 * Connects, creates the indexes (a no-op when they exist) and returns the read model. A call made while
 * the server is away fails within `serverSelectionTimeoutMS` with StorageUnavailable, which requests
 * answer with 503 (the service passes ORDERS_VISIBLE_WITHIN_MS, its bound on waiting for read models).
 */
export async function openMongoOrderReadModel(
  url: string,
  dbName?: string,
  options: { serverSelectionTimeoutMS?: number | undefined } = {},
): Promise<OrderReadModel> {
  const client = await connectMongo(url, options);
  try {
    const db = client.db(databaseName(url, dbName));
    await ensureIndexes(db.collection(ORDERS), ORDER_INDEXES);
    return guardUnavailable(mongoOrderReadModel(client, db), 'the MongoDB order read model', isMongoUnreachable);
  } catch (error) {
    await client.close();
    throw error;
  }
}

function mongoOrderReadModel(client: MongoClient, db: Db): OrderReadModel {
  const collections = readModelCollections(db);
  return {
    ...projectionSide(collections),
    ...querySide(collections),
    async close() {
      await client.close();
    },
  };
}

type ReadModelCollections = ReturnType<typeof readModelCollections>;
type ProjectionSide = 'checkpoint' | 'apply' | 'logIdentity' | 'reset' | 'repair';

function readModelCollections(db: Db) {
  // Positions are int64: read them back as bigint (see mongodb-checkpoint-store.ts).
  const bigints = { useBigInt64: true } as const;
  return {
    orders: db.collection<OrderRow>(ORDERS, bigints),
    ordersVersioned: db.collection<VersionedRow>(ORDERS, bigints),
    palletsVersioned: db.collection<VersionedRow>(PALLET_CONTENTS, bigints),
    pallets: db.collection<PalletContentsRow>(PALLET_CONTENTS, bigints),
    checkpoints: db.collection<CheckpointRow>(CHECKPOINTS, bigints),
  };
}

/** What the projector and the repairs write, and the checkpoint that says how far they got. */
function projectionSide({
  orders,
  ordersVersioned,
  palletsVersioned,
  pallets,
  checkpoints,
}: ReadModelCollections): Pick<OrderReadModel, ProjectionSide> {
  const checkpoint = async (): Promise<bigint | undefined> => {
    const row = await checkpoints.findOne({ _id: PROJECTION });
    return row ? fromStoredPosition(row.position) : undefined;
  };

  const moveCheckpoint = async (position: bigint, logId: string): Promise<void> => {
    await upsertRacing(() =>
      checkpoints.updateOne(
        { _id: PROJECTION },
        { $max: { position: toStoredPosition(position) }, $setOnInsert: { log_id: logId } },
        { upsert: true },
      ),
    );
  };

  return {
    checkpoint,
    async apply(events) {
      const after = await checkpoint();
      const fresh = after === undefined ? events : events.filter((event) => event.position > after);
      const last = fresh[fresh.length - 1];
      if (!last) return 0;
      const byId = eventsByOrder(fresh);
      if (byId.size > 0) {
        // Pallet contents first, the order's view after them: two collections are not written at once
        // here, and a client that sees its order planned then asks for the pallet contents and the PDF,
        // which must be there (the test suite once saw them the other way round).
        await applyProjection<PalletContentsDocument>(palletsVersioned, byId, projectPalletContents, palletContentsRow, 'pallet contents');
        await applyProjection<OrderDocument>(ordersVersioned, byId, projectOrderView, orderRow, 'order');
      }
      // Only after the documents: a crash in between re-applies the batch, which the positions make harmless.
      // An empty read model's first batch starts at the log's first event, which names the log.
      await moveCheckpoint(last.position, events[0]!.id);
      return fresh.length;
    },
    async logIdentity() {
      return (await checkpoints.findOne({ _id: PROJECTION }))?.log_id;
    },
    async reset() {
      await Promise.all([orders.deleteMany({}), pallets.deleteMany({}), checkpoints.deleteOne({ _id: PROJECTION })]);
    },
    async repair(id, events) {
      // Only up to the checkpoint, as the SQLite adapter: later events are apply's, and the position
      // written with the documents makes apply skip exactly those folded here.
      const upTo = (await checkpoint()) ?? -1n;
      const own = events.filter((event) => event.position <= upTo && orderIdOf(event) === id);
      const order = foldEvents<OrderDocument>(undefined, own, projectOrderView);
      const palletContents = foldEvents<PalletContentsDocument>(undefined, own, projectPalletContents);
      const written = await Promise.all([
        replaceUpTo(ordersVersioned, id, upTo, order && orderRow(id, order.document, order.position)),
        replaceUpTo(palletsVersioned, id, upTo, palletContents && palletContentsRow(id, palletContents.document, palletContents.position)),
      ]);
      return written.every(Boolean);
    },
  };
}

/** What requests read: every document checked against its checksum before it is served. */
function querySide({ orders, pallets }: ReadModelCollections): Omit<OrderReadModel, ProjectionSide | 'close'> {
  const documentOnly = { projection: { document: 1, checksum: 1 } } as const;
  return {
    async highestOrderId() {
      return (await orders.findOne({}, { sort: { _id: -1 }, projection: { _id: 1 } }))?._id ?? 0;
    },
    async getById(id) {
      const row = await orders.findOne({ _id: id }, documentOnly);
      return row ? verified<OrderDocument>(row, 'order') : undefined;
    },
    async getViewJson(id) {
      const row = await orders.findOne({ _id: id }, documentOnly);
      if (!row) return undefined;
      const document = verified<OrderDocument>(row, 'order');
      return { company_group: document.company_group, viewJson: JSON.stringify(document.view) };
    },
    // No view cache here: a retrieve reads the document (and MongoDB its own cache).
    readyViewJson: () => undefined,
    async palletContents(id) {
      const row = await pallets.findOne({ _id: id }, documentOnly);
      if (!row) return undefined;
      try {
        return verified<PalletContentsDocument>(row, 'pallet contents');
      } catch (error) {
        if (!(error instanceof DamagedDocument)) throw error;
        // The repair reads the order's stream from the log: name it, from the order's document (a hint
        // only, checked by the repair against the log), as the SQLite adapter does from its row.
        const stream = ((await orders.findOne({ _id: id }, documentOnly))?.document as { stream?: unknown } | undefined)?.stream;
        throw new DamagedDocument(id, 'pallet contents', typeof stream === 'string' ? stream : undefined);
      }
    },
    async findNewest(companyGroup, value) {
      // A service_ref is unique; a reference may repeat across the years of other channels, so the newest wins.
      const byServiceRef = await orders.findOne({ company_group: companyGroup, service_ref: value }, documentOnly);
      if (byServiceRef) return verified<OrderDocument>(byServiceRef, 'order');
      const newest = await orders.findOne({ company_group: companyGroup, reference: value }, { ...documentOnly, sort: { _id: -1 } });
      return newest ? verified<OrderDocument>(newest, 'order') : undefined;
    },
    async list({ companyGroup, search, statuses, offset, limit }: OrderListQuery) {
      const filter = listFilter(companyGroup, search, statuses);
      const [count, rows] = await Promise.all([
        orders.countDocuments(filter),
        limit === 0 ? Promise.resolve([]) : orders.find(filter, pageOptions(offset, limit)).toArray(),
      ]);
      return { count: Number(count), results: rows.map((row) => verified<OrderDocument>(row, 'order')) };
    },
  };
}

/**
 * Writes an order's folded document (none: deletes it), never over a document an apply has moved past
 * the checkpoint `upTo`: that apply is half-way (its checkpoint comes after its documents), and this
 * fold would take its events back out for good. False: the document is ahead, and was left alone.
 */
async function replaceUpTo(
  collection: Collection<VersionedRow>,
  id: number,
  upTo: bigint,
  row: VersionedRow | undefined,
): Promise<boolean> {
  const notAhead = { _id: id, position: { $lte: toStoredPosition(upTo) } };
  if (!row) {
    if ((await collection.deleteOne(notAhead)).deletedCount === 1) return true;
    return (await collection.countDocuments({ _id: id }, { limit: 1 })) === 0;
  }
  const { _id, ...replacement } = row;
  if ((await collection.replaceOne(notAhead, replacement)).matchedCount === 1) return true;
  try {
    await collection.insertOne(row);
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false; // there, and ahead of the checkpoint
    throw error;
  }
}
