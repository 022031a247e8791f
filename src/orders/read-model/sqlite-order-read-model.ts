// Embedded order read model: one SQLite table of order documents with the columns the queries
// filter on, and one of pallet contents (the tables: sqlite-order-schema.ts).
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedEvent } from '../../eventstore/event-store.js';
import { orderIdOf, projectOrderView, type OrderDocument } from '../../../projections/order-view.js';
import { projectPalletContents, type PalletContentsDocument } from '../../../projections/pallet-contents.js';
import type { OrderListQuery, OrderReadModel, OrderViewJson } from './order-read-model.js';
import { searchText } from './search-text.js';
import { foldOrderDocuments } from '../../../projections/fold-order-documents.js';
import type { WalCheckpointer } from '../../storage/wal-checkpointer.js';
import { DamagedStorage, damageIn } from '../../storage/damaged-storage.js';
import { checksumMatches, checksumOf, DamagedDocument } from './document-checksum.js';
import { ViewBodyCache } from './view-body-cache.js';
import { createOrderTables } from './sqlite-order-schema.js';
import { openInWalMode } from '../../storage/open-in-wal-mode.js';
import { SqliteTurnReads } from './sqlite-turn-reads.js';
import { INTEGER_PARAM, TEXT_PARAM } from '../../storage/sqlite-parameters.js';
import { ORDER_STATUSES } from '../order-view.js';

// Both order projections move together under one checkpoint: they are fed by the same events.
const PROJECTION = 'orders';
// Retrieve's bodies ready to send (view-body-cache.ts), bounded in bytes so that the cache does not grow with the orders.
const VIEW_CACHE_BYTES = 80 * 1024 * 1024;
/**
 * How long after reading the file's data version readyViewJson trusts the cache without reading it
 * again: another connection's commit (another replica's projector, an operator's edit) reaches a
 * retrieve at most this much later. The read transaction that reads the version cost a retrieve
 * about as much as the rest of its read path (docs/benchmarks.md); after this it is read again.
 */
const VERSION_TRUSTED_MS = 1;

// The view is kept as the JSON retrieve answers with, so that retrieve neither parses nor serializes it.
// Typed as read back: a damaged row may hold anything in any column, and the checksum says whether it does.
interface OrderRow {
  id: number;
  company_group: string;
  stream: string;
  view: string;
  checksum: number;
}

interface PalletsRow {
  document: string;
  checksum: number;
}

/** An order's checksum covers what is served and what decides who sees it and whose history it shows. */
const orderChecksum = (companyGroup: string, stream: string, view: string): number => checksumOf(companyGroup, stream, view);

export interface SqliteReadModelOptions {
  /**
   * Given: a damaged file (at open, or found by a call) is deleted and replaced by an empty one, to be
   * rebuilt from the log, and this hears of it. Not given: DamagedStorage is thrown (`npm run replay`
   * reports it and leaves the file alone).
   */
  replaceDamaged?: (error: DamagedStorage) => void;
  /** PRAGMA quick_check when opening. Default true. */
  quickCheck?: boolean;
  /** Checkpoints the file off the main thread (the service's); without it SQLite checkpoints in the commits. */
  walCheckpointer?: WalCheckpointer | undefined;
}

export function openSqliteOrderReadModel(
  dataDir: string,
  fileName = 'read-models.db',
  options: SqliteReadModelOptions = {},
): OrderReadModel {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, fileName);
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  };
  const open = (): OrderTables => {
    try {
      return openOrderTables(file, options.quickCheck ?? true, options.walCheckpointer);
    } catch (error) {
      const damage = damageIn(file, error);
      if (!(damage instanceof DamagedStorage) || !options.replaceDamaged) throw damage;
      options.replaceDamaged(damage);
      remove();
      return openOrderTables(file, false, options.walCheckpointer);
    }
  };
  let tables = open();
  // Every call goes to the tables of the moment: reset() replaces them under the callers' feet.
  const call = async <T>(read: (current: OrderTables) => T | Promise<T>): Promise<T> => {
    try {
      return await read(tables);
    } catch (error) {
      throw damageIn(file, error);
    }
  };
  return {
    checkpoint: () => call((t) => t.checkpoint()),
    apply: (events) => call((t) => t.apply(events)),
    logIdentity: () => call((t) => t.logIdentity()),
    highestOrderId: () => call((t) => t.highestOrderId()),
    repair: (id, events) => call((t) => t.repair(id, events)),
    getById: (id) => call((t) => t.getById(id)),
    getViewJson: (id) => call((t) => t.getViewJson(id)),
    // A view is given only when its checksum matched. A read can fail (a file damaged, locked, gone):
    // then there is no answer here, and getViewJson meets the error and says it.
    readyViewJson: (id) => {
      try {
        return tables.readyViewJson(id);
      } catch {
        return undefined;
      }
    },
    palletContents: (id) => call((t) => t.palletContents(id)),
    findNewest: (companyGroup, value) => call((t) => t.findNewest(companyGroup, value)),
    list: (query) => call((t) => t.list(query)),
    async reset() {
      // The file itself, not its rows: a damaged file cannot be trusted to delete its own rows.
      // closed everywhere before the files go (WalCheckpointer.takeOver)
      await tables.close();
      remove();
      tables = openOrderTables(file, false, options.walCheckpointer);
    },
    async close() {
      await tables.close();
    },
  };
}

type OrderTables = Omit<OrderReadModel, 'reset' | 'close'> & { close(): Promise<void>; readStartUpRows(): void };

function openOrderTables(file: string, check: boolean, walCheckpointer: WalCheckpointer | undefined): OrderTables {
  let db: Database.Database | undefined;
  try {
    // Replicas sharing a data directory open this file at once: its opening is tried again while busy.
    // The page cache is set with the tables (sqlite-order-schema.ts).
    db = openInWalMode(file, { pageCacheKiB: null, setUp: (db) => createOrderTables(db, file, check) });
    const tables = orderTables(db);
    // What start-up reads first (check-storage.ts): damage there is found here, while the file may still be replaced.
    tables.readStartUpRows();
    const letGo = walCheckpointer?.takeOver(db);
    return letGo ? { ...tables, close: () => letGo().then(() => tables.close()) } : tables;
  } catch (error) {
    db?.close();
    // Tables of this schema version that our own statements do not fit (a flipped byte in the schema
    // text: "no such column") were not written by this version: the file is damaged.
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_ERROR')
      throw new DamagedStorage(file, `its tables are not the ones this version makes: ${error.message}`);
    throw error;
  }
}

function orderTables(db: Database.Database): OrderTables {
  const statements = orderStatements(db);
  const { readCheckpoint, maxId, byId, viewJsonById, palletsById, newestByReference, byServiceRef } = statements;
  const byStatus = statusStatements(db);
  const views = new ViewBodyCache(VIEW_CACHE_BYTES);
  const documents = orderDocuments(statements, views);
  const { parse, parsePallets, checkpoint } = documents;
  const { applyBatch, repairOrder } = orderWrites(db, statements, documents, views);
  // Another connection's commit (another replica's projector, an operator's edit) may have changed any
  // view: this connection's own writes drop their orders' cached views themselves.
  const turn = new SqliteTurnReads(db, () => views.clear());
  const read = () => turn.read();
  const endRead = turn.end;

  return {
    async checkpoint() {
      read();
      return checkpoint();
    },
    async logIdentity() {
      read();
      return readCheckpoint.get(PROJECTION)?.log_id;
    },
    async highestOrderId() {
      read();
      return Number(maxId.get() ?? 0);
    },
    async apply(events) {
      endRead();
      return applyBatch(events);
    },
    async repair(id, events) {
      endRead();
      repairOrder(id, events);
      return true; // an apply writes its documents and the checkpoint in one transaction: none is ahead
    },
    async getById(id) {
      read();
      return parse(byId.get(id), id);
    },
    async getViewJson(id) {
      read();
      return views.get(id) ?? viewJsonOf(id, viewJsonById.get(id), views);
    },
    readyViewJson(id) {
      // Within the millisecond the cache is trusted without asking; after it, the data version is read
      // again (synchronously: no await), and a change by another connection empties the cache.
      if (!turn.reading && turn.versionAgeMs() >= VERSION_TRUSTED_MS) read();
      const cached = views.peek(id);
      if (cached) return cached;
      // Not cached (a first read, or past the doorkeeper): the row itself, read in this turn's
      // transaction. A document that fails its checksum is left to getViewJson, which repairs it.
      read();
      const row = viewJsonById.get(id);
      return row && viewRowMatches(row) ? offered(id, row, views) : undefined;
    },
    async palletContents(id) {
      read();
      return parsePallets(id, palletsById.get(id));
    },
    async findNewest(companyGroup, value) {
      read();
      // A service_ref is unique; a reference may repeat across the years of other channels, so the newest wins.
      const row = byServiceRef.get(companyGroup, value) ?? newestByReference.get(companyGroup, value);
      const found = parse(row);
      // The columns looked up are outside the checksum: a row they find must be named so by its document.
      if (found && found.view.service_ref !== value && found.view.reference !== value)
        throw new DamagedDocument(found.view.id, 'order', found.stream);
      return found;
    },
    async list(query: OrderListQuery) {
      read();
      return listOrders(statements, byStatus, parse, query);
    },
    readStartUpRows() {
      readCheckpoint.get(PROJECTION);
      maxId.get();
    },
    async close() {
      endRead();
      db.close();
    },
  };
}

/** An order's view as its row holds it, checked against its checksum, and kept in the cache. */
function viewJsonOf(id: number, row: unknown[] | undefined, views: ViewBodyCache) {
  if (!row) return undefined;
  if (!viewRowMatches(row)) throw new DamagedDocument(id, 'order', typeof row[1] === 'string' ? row[1] : undefined);
  return offered(id, row, views);
}

/** A row of viewJsonById (company group, stream, view, checksum) whose checksum covers what it holds. */
const viewRowMatches = ([companyGroup, stream, view, checksum]: unknown[]): boolean =>
  checksumMatches(checksum, [companyGroup, stream, view]);

/** A view whose checksum matched, offered to the cache (it keeps views read more than once). */
function offered(id: number, [companyGroup, , view]: unknown[], views: ViewBodyCache): OrderViewJson {
  const entry = { company_group: companyGroup as string, viewJson: view as string };
  views.offer(id, entry);
  return entry;
}

// The list filtered by status: as many parameters as there are statuses, the statuses asked for
// repeated to fill them, so one statement of each kind serves every filter.
const STATUS_PARAMS = ORDER_STATUSES.map(() => TEXT_PARAM).join(', ');
type StatusParams = [string, string, string, string];

function statusStatements(db: Database.Database) {
  const COLUMNS = 'id, company_group, stream, view, checksum';
  const where = `company_group = ${TEXT_PARAM} AND listed = 1 AND status IN (${STATUS_PARAMS})`;
  return {
    count: db.prepare<[string, ...StatusParams], { count: number }>(`SELECT count(*) AS count FROM orders WHERE ${where}`),
    countMatching: db.prepare<[string, ...StatusParams, string], { count: number }>(
      `SELECT count(*) AS count FROM orders WHERE ${where} AND instr(search_text, ?) > 0`,
    ),
    page: db.prepare<[string, ...StatusParams, number, number], OrderRow>(
      `SELECT ${COLUMNS} FROM orders WHERE ${where} ORDER BY id DESC LIMIT ${INTEGER_PARAM} OFFSET ${INTEGER_PARAM}`,
    ),
    pageMatching: db.prepare<[string, ...StatusParams, string, number, number], OrderRow>(
      `SELECT ${COLUMNS} FROM orders WHERE ${where} AND instr(search_text, ?) > 0 ORDER BY id DESC LIMIT ${INTEGER_PARAM} OFFSET ${INTEGER_PARAM}`,
    ),
  };
}

function listOrders(
  statements: OrderStatements,
  byStatus: ReturnType<typeof statusStatements>,
  parse: (row: OrderRow | undefined) => OrderDocument | undefined,
  { companyGroup, search, statuses, offset, limit }: OrderListQuery,
): { count: number; results: OrderDocument[] } {
  const { countAll, countMatching, pageAll, pageMatching } = statements;
  const needle = search?.toLowerCase();
  const rowLimit = limit ?? -1; // SQLite: a negative LIMIT means no limit
  if (statuses) return listByStatus(byStatus, parse, { companyGroup, needle, statuses, offset, rowLimit });
  const count = needle ? countMatching.get(companyGroup, needle)!.count : (countAll.get(companyGroup)?.count ?? 0);
  const rows = needle ? pageMatching.all(companyGroup, needle, rowLimit, offset) : pageAll.all(companyGroup, rowLimit, offset);
  return { count, results: rows.map((row) => parse(row)!) };
}

function listByStatus(
  statements: ReturnType<typeof statusStatements>,
  parse: (row: OrderRow | undefined) => OrderDocument | undefined,
  query: { companyGroup: string; needle: string | undefined; statuses: readonly string[]; offset: number; rowLimit: number },
): { count: number; results: OrderDocument[] } {
  const { companyGroup, needle, offset, rowLimit } = query;
  const statuses = ORDER_STATUSES.map((_, i) => query.statuses[i] ?? query.statuses[0]!) as StatusParams;
  const count = needle
    ? statements.countMatching.get(companyGroup, ...statuses, needle)!.count
    : statements.count.get(companyGroup, ...statuses)!.count;
  const rows = needle
    ? statements.pageMatching.all(companyGroup, ...statuses, needle, rowLimit, offset)
    : statements.page.all(companyGroup, ...statuses, rowLimit, offset);
  // the status column is outside the checksum: a row it found must hold that status in its view
  const results = rows.map((row) => parse(row)!);
  for (const found of results)
    if (!query.statuses.includes(found.view.status)) throw new DamagedDocument(found.view.id, 'order', found.stream);
  return { count, results };
}

type OrderStatements = ReturnType<typeof orderStatements>;

function orderStatements(db: Database.Database) {
  const COLUMNS = 'id, company_group, stream, view, checksum';
  return {
    readCheckpoint: db
      .prepare<[string], { position: bigint; log_id: string }>('SELECT position, log_id FROM checkpoints WHERE projection = ?')
      .safeIntegers(true),
    writeCheckpoint: db.prepare(
      'INSERT INTO checkpoints (projection, position, log_id) VALUES (?, ?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position',
    ),
    maxId: db.prepare<[], number | null>('SELECT max(id) FROM orders').pluck(),
    byId: db.prepare<[number], OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE id = ?`),
    // As an array of the columns retrieve needs: no object with named keys built per request.
    viewJsonById: db
      .prepare<[number], [string, string, string, number]>('SELECT company_group, stream, view, checksum FROM orders WHERE id = ?')
      .raw(true),
    streamById: db.prepare<[number], unknown>('SELECT stream FROM orders WHERE id = ?').pluck(),
    // A repair writes every column: any of them may be what was damaged.
    upsert: db.prepare(`
      INSERT INTO orders (id, company_group, service_ref, reference, search_text, stream, view, checksum, listed, status) VALUES (@id, @company_group, @service_ref, @reference, @search_text, @stream, @view, @checksum, @listed, @status)
      ON CONFLICT (id) DO UPDATE SET company_group = excluded.company_group, service_ref = excluded.service_ref, reference = excluded.reference,
        search_text = excluded.search_text, stream = excluded.stream, view = excluded.view, checksum = excluded.checksum, listed = excluded.listed, status = excluded.status`),
    deleteOrder: db.prepare('DELETE FROM orders WHERE id = ?'),
    palletsById: db.prepare<[number], PalletsRow>('SELECT document, checksum FROM pallet_contents WHERE id = ?'),
    upsertPallets: db.prepare(
      'INSERT INTO pallet_contents (id, document, checksum) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET document = excluded.document, checksum = excluded.checksum',
    ),
    deletePallets: db.prepare('DELETE FROM pallet_contents WHERE id = ?'),
    newestByReference: db.prepare<[string, string], OrderRow>(
      `SELECT ${COLUMNS} FROM orders WHERE company_group = ${TEXT_PARAM} AND reference = ${TEXT_PARAM} ORDER BY id DESC LIMIT 1`,
    ),
    byServiceRef: db.prepare<[string, string], OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE company_group = ? AND service_ref = ?`),
    countAll: db.prepare<[string], { count: number }>('SELECT count FROM order_counts WHERE company_group = ?'),
    countOneMore: db.prepare(
      'INSERT INTO order_counts (company_group, count) VALUES (?, 1) ON CONFLICT (company_group) DO UPDATE SET count = count + 1',
    ),
    countOneLess: db.prepare('UPDATE order_counts SET count = count - 1 WHERE company_group = ?'),
    countMatching: db.prepare<[string, string], { count: number }>(
      'SELECT count(*) AS count FROM orders WHERE company_group = ? AND listed = 1 AND instr(search_text, ?) > 0',
    ),
    pageAll: db.prepare<[string, number, number], OrderRow>(
      `SELECT ${COLUMNS} FROM orders WHERE company_group = ${TEXT_PARAM} AND listed = 1 ORDER BY id DESC LIMIT ${INTEGER_PARAM} OFFSET ${INTEGER_PARAM}`,
    ),
    pageMatching: db.prepare<[string, string, number, number], OrderRow>(
      `SELECT ${COLUMNS} FROM orders WHERE company_group = ${TEXT_PARAM} AND listed = 1 AND instr(search_text, ?) > 0 ORDER BY id DESC LIMIT ${INTEGER_PARAM} OFFSET ${INTEGER_PARAM}`,
    ),
  };
}

type OrderDocuments = ReturnType<typeof orderDocuments>;

/** Rows read back as documents (only after their checksum matched) and documents written as rows. */
function orderDocuments(statements: OrderStatements, views: ViewBodyCache) {
  const { streamById, upsert, upsertPallets, readCheckpoint } = statements;
  const streamHint = (id: number): string | undefined => {
    const stream = streamById.get(id);
    return typeof stream === 'string' ? stream : undefined;
  };
  return {
    // Only a row that matches its checksum is parsed: JSON.parse of flipped bytes either throws or returns wrong data.
    parse: (row: OrderRow | undefined, id = row?.id): OrderDocument | undefined => {
      if (!row) return undefined;
      if (!checksumMatches(row.checksum, [row.company_group, row.stream, row.view]) || row.id !== id) {
        throw new DamagedDocument(Number(id), 'order', typeof row.stream === 'string' ? row.stream : undefined);
      }
      return { company_group: row.company_group, stream: row.stream, view: JSON.parse(row.view) };
    },
    parsePallets: (id: number, row: PalletsRow | undefined): PalletContentsDocument | undefined => {
      if (!row) return undefined;
      if (!checksumMatches(row.checksum, [row.document])) throw new DamagedDocument(id, 'pallet contents', streamHint(id));
      return JSON.parse(row.document) as PalletContentsDocument;
    },
    checkpoint: (): bigint | undefined => readCheckpoint.get(PROJECTION)?.position,
    writeOrder: (id: number, document: OrderDocument): void => {
      views.delete(id);
      const view = JSON.stringify(document.view);
      upsert.run({
        listed: document.view.consolidated_into === null ? 1 : 0,
        status: document.view.status,
        id,
        company_group: document.company_group,
        service_ref: document.view.service_ref,
        reference: document.view.reference,
        search_text: searchText(document),
        stream: document.stream,
        view,
        checksum: orderChecksum(document.company_group, document.stream, view),
      });
    },
    writePallets: (id: number, document: PalletContentsDocument): void => {
      const text = JSON.stringify(document);
      upsertPallets.run(id, text, checksumOf(text));
    },
  };
}

/** The projector's batches and the repair of one order, each one transaction. */
function orderWrites(db: Database.Database, statements: OrderStatements, documents: OrderDocuments, views: ViewBodyCache) {
  const { byId, palletsById, writeCheckpoint, countOneMore, countOneLess, deleteOrder, deletePallets } = statements;
  const { parse, parsePallets, checkpoint, writeOrder, writePallets } = documents;
  const applyBatch = db.transaction((events: readonly RecordedEvent[]): number => {
    const after = checkpoint() ?? -1n;
    let last: bigint | undefined;
    let applied = 0;
    for (const event of events) {
      if (event.position <= after) continue;
      last = event.position;
      applied++;
      const id = orderIdOf(event);
      if (id === undefined) continue;
      // A damaged document throws DamagedDocument here and rolls the batch back: it is repaired, then the batch applied again.
      const before = parse(byId.get(id), id);
      const next = projectOrderView(before, event);
      if (next && next !== before) {
        const listed = next.view.consolidated_into === null;
        const listedBefore = before !== undefined && before.view.consolidated_into === null;
        // a child joins the list's count again when it leaves its shipment (a cancel, an amend, a shipment dissolved)
        if (!listedBefore && listed) countOneMore.run(next.company_group);
        if (listedBefore && !listed) countOneLess.run(next.company_group);
        writeOrder(id, next);
      }
      const palletsBefore = parsePallets(id, palletsById.get(id));
      const palletsNext = projectPalletContents(palletsBefore, event);
      if (palletsNext && palletsNext !== palletsBefore) writePallets(id, palletsNext);
    }
    // An empty read model's first batch starts at the log's first event, which names the log.
    if (last !== undefined) writeCheckpoint.run(PROJECTION, last, events[0]!.id);
    return applied;
  });

  // The same projections as applyBatch, over the order's events up to the checkpoint. The list counts
  // are left as they are: they were counted from the events, not from the damaged row.
  const repairOrder = db.transaction((id: number, events: readonly RecordedEvent[]) => {
    const { order, pallets } = foldOrderDocuments(id, events, checkpoint() ?? -1n);
    if (order) writeOrder(id, order);
    else {
      views.delete(id);
      deleteOrder.run(id);
    }
    if (pallets) writePallets(id, pallets);
    else deletePallets.run(id);
  });

  return { applyBatch, repairOrder };
}
