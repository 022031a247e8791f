// Opening an embedded SQLite file in WAL mode that another process may be creating at the same moment:
// every file of a data directory (the log, the read model, and the bookkeeping files: checkpoints, leases,
// delivery state), which replicas sharing it open at once.
import Database from 'better-sqlite3';

/**
 * SQLite's page cache of each bookkeeping connection. Each file is written a row at a time and read by key:
 * its working set is a few pages. better-sqlite3's default of 16 MiB filled up with pages read once (a
 * million orders' delivery rows) and held them for the process's life.
 */
const PAGE_CACHE_KIB = 4 * 1024;

/** How long the opening as a whole is tried again while SQLite answers SQLITE_BUSY. */
const RETRY_FOR_MS = 10_000;

export interface WalOpenOptions {
  /** How long one statement waits on another process's lock before SQLITE_BUSY (better-sqlite3's `timeout`). */
  busyTimeoutMs?: number;
  /** The connection's page cache; default 4 MiB (a bookkeeping file's); `null` leaves it to `setUp` or to better-sqlite3 (16 MiB). */
  pageCacheKiB?: number | null;
  /** The rest of the connection's setting up (pragmas, schema), tried again with the switch to WAL. */
  setUp?: (db: Database.Database) => void;
}

/**
 * Two processes starting at once on a new data directory both switch the new file to WAL, and make its
 * tables; SQLite answers one of them SQLITE_BUSY at once, without waiting on the busy timeout (it would be
 * a deadlock): one of three processes starting at once on a new log was answered so on a loaded machine,
 * and never started. Every step here is idempotent, so the whole opening is tried again.
 * @returns the connection in WAL mode, or throws what the last try threw (a busy file past the deadline).
 */
export function openInWalMode(file: string, options: WalOpenOptions = {}): Database.Database {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (;;) {
    const db = new Database(file, options.busyTimeoutMs === undefined ? {} : { timeout: options.busyTimeoutMs });
    try {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new Error(`${file}: cannot use WAL journal mode (got ${String(mode)})`);
      const cacheKiB = options.pageCacheKiB === undefined ? PAGE_CACHE_KIB : options.pageCacheKiB;
      if (cacheKiB !== null) db.pragma(`cache_size = -${cacheKiB}`);
      options.setUp?.(db);
      return db;
    } catch (error) {
      db.close();
      if (!isBusy(error) || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // start-up only: a synchronous pause is fine
    }
  }
}

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY, SQLITE_BUSY_SNAPSHOT, ...). */
const isBusy = (error: unknown): boolean => String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY');
