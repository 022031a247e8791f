import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { damageIn, quickCheck } from '../../storage/damaged-storage.js';
import { addHashColumn } from './sqlite-hash-chain.js';
import { openInWalMode } from '../../storage/open-in-wal-mode.js';

export const EVENTS_FILE = 'events.db';

// `position` aliases the rowid. SQLite gives a new row max(rowid) + 1 while the transaction holds the
// write lock, and nothing is ever deleted, so positions rise in commit order and a committed position is
// never followed by a smaller one: a reader that has seen position p can never miss a later event by
// continuing from p. Positions start at 1.
// (stream, revision) is unique, and its index also answers "current revision of this stream".
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY,
  id          TEXT    NOT NULL UNIQUE,
  stream      TEXT    NOT NULL,
  revision    INTEGER NOT NULL CHECK (revision >= 0),
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL CHECK (json_valid(data)),
  recorded_at INTEGER NOT NULL, -- microseconds since the Unix epoch, UTC
  UNIQUE (stream, revision)
) STRICT;
`;

/**
 * Opens (creating if needed) `<dataDir>/events.db` in WAL mode with synchronous=NORMAL; the store fsyncs
 * the -wal file itself before it acknowledges or hands out an event (storage/wal-sync.ts).
 * @throws DamagedStorage when the file is not a sound SQLite database: the log is never served damaged.
 */
export function openEventsDatabase(dataDir: string, check = true): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, EVENTS_FILE);
  let db: Database.Database;
  try {
    // busyTimeoutMs: how long a write waits for another process holding the write lock before SQLITE_BUSY.
    db = openInWalMode(file, {
      busyTimeoutMs: 5000,
      pageCacheKiB: null,
      setUp(db) {
        // NORMAL: a commit only writes the -wal file; the store fsyncs it off the main thread before an append
        // is acknowledged (storage/wal-sync.ts), which is what FULL would do on the main thread inside COMMIT.
        db.pragma('synchronous = NORMAL');
        db.exec(SCHEMA);
        addHashColumn(db);
      },
    });
  } catch (error) {
    throw damageIn(file, error);
  }
  try {
    if (check) quickCheck(db, file);
    // Positions and revisions are bigint at the port.
    db.defaultSafeIntegers(true);
    return db;
  } catch (error) {
    db.close();
    throw damageIn(file, error);
  }
}
