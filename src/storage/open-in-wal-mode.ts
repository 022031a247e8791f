// Opening an embedded bookkeeping file (checkpoints, leases, delivery state) that another process may be
// creating at the same moment. The log and the read model open theirs with their own page caches.
import Database from 'better-sqlite3';

/**
 * SQLite's page cache of each bookkeeping connection. Each file is written a row at a time and read by key:
 * its working set is a few pages. better-sqlite3's default of 16 MiB filled up with pages read once (a
 * million orders' delivery rows) and held them for the process's life.
 */
const PAGE_CACHE_KIB = 4 * 1024;

/**
 * Two replicas starting at once on a new data directory both switch the new file to WAL; SQLite answers
 * one of them SQLITE_BUSY at once, without waiting on the busy timeout. Try again for a few seconds.
 */
export function openInWalMode(file: string): Database.Database {
  const deadline = Date.now() + 5000;
  for (;;) {
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      return db;
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // start-up only: a synchronous pause is fine
    }
  }
}
