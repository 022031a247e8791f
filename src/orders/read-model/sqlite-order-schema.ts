// The embedded order read model's tables. It can always be rebuilt from the log, so commits need not
// wait for fsync (WAL + synchronous=NORMAL stays consistent after a crash; the checkpoint rolls back
// with the data), and a file of another schema version is emptied, to be rebuilt.
import type Database from 'better-sqlite3';
import { quickCheck } from '../../storage/damaged-storage.js';

// Raised whenever the tables change shape: a read model of another version is dropped and rebuilt from the log.
const SCHEMA_VERSION = 7;
// SQLite's page cache of this file. Retrieves are answered from the view cache; what misses it reads its
// page from the OS's file cache (a pread), which the process's memory does not hold.
const PAGE_CACHE_KIB = 16 * 1024;

/**
 * Sets the connection (already in WAL mode: storage/open-in-wal-mode.ts) up and makes the tables; with
 * `check`, reads the whole file once for damage.
 */
export function createOrderTables(db: Database.Database, file: string, check: boolean): void {
  db.pragma('synchronous = NORMAL');
  // The cache grows as pages are read and written, up to its bound: a larger bound only grew the
  // process with the number of orders stored (docs/benchmarks.md).
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) {
    db.exec(`
      DROP TABLE IF EXISTS orders; DROP TABLE IF EXISTS order_counts;
      DROP TABLE IF EXISTS pallet_contents; DROP TABLE IF EXISTS checkpoints;
      PRAGMA user_version = ${SCHEMA_VERSION};
    `);
  }
  db.exec(`
    CREATE TABLE IF NOT EXISTS orders (
      id INTEGER PRIMARY KEY,
      company_group TEXT NOT NULL,
      service_ref TEXT NOT NULL UNIQUE,
      reference TEXT NOT NULL,
      search_text TEXT NOT NULL,
      stream TEXT NOT NULL,
      view TEXT NOT NULL,
      -- checksumOf(company_group, stream, view): checked on every read (document-checksum.ts)
      checksum INTEGER NOT NULL,
      -- 0 for a child of a consolidated shipment: retrieve shows it, the list omits it (spec 4.3)
      listed INTEGER NOT NULL DEFAULT 1,
      -- the view's status, for the list's status filter (outside the checksum: a row it finds is checked against its view)
      status TEXT NOT NULL DEFAULT 'submitted'
    );
    CREATE INDEX IF NOT EXISTS orders_by_group ON orders (company_group, listed, id DESC);
    CREATE INDEX IF NOT EXISTS orders_by_status ON orders (company_group, listed, status, id DESC);
    CREATE INDEX IF NOT EXISTS orders_by_reference ON orders (company_group, reference, id DESC);
    -- Orders per company group, kept by the projection: a list page must not count every row.
    CREATE TABLE IF NOT EXISTS order_counts (company_group TEXT PRIMARY KEY, count INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS pallet_contents (id INTEGER PRIMARY KEY, document TEXT NOT NULL, checksum INTEGER NOT NULL);
    -- log_id: the id of the log's first event, naming the log this read model was built from.
    CREATE TABLE IF NOT EXISTS checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL, log_id TEXT NOT NULL);
  `);
  // The whole file once: pages damaged since the last run are found now, not by a request.
  if (check) quickCheck(db, file);
}
