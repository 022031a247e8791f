// The hash chain on the embedded store: the `hash` column (32 bytes, SHA-256), its migration, the chain's
// head as the write transaction sees it, and the chaining of events written before the column existed.
// "Previous" is the previous position of the one log: the batch writer reads the last stored hash inside
// its BEGIN IMMEDIATE transaction, so with several processes appending to one file each batch chains
// onto whatever the last committed batch (of any process) ended with.
import type Database from 'better-sqlite3';
import { GENESIS, eventHash } from '../hash-chain.js';
import { HASHED_COLUMNS, toHashedEvent, type HashedRow } from '../sql/event-rows.js';

/** Adds the column to a file made before it: old rows keep NULL until chained. Safe to run concurrently. */
export function addHashColumn(db: Database.Database): void {
  const hasHash = () => (db.prepare('PRAGMA table_info(events)').all() as { name: string }[]).some((column) => column.name === 'hash');
  if (hasHash()) return;
  try {
    // No CHECK on its length: it cost measurably on every insert (docs/benchmarks.md), and verification
    // finds a hash of any other length anyway.
    db.exec('ALTER TABLE events ADD COLUMN hash BLOB');
  } catch (error) {
    // Another process opening the same file added it first.
    if (!hasHash()) throw error;
  }
}

/**
 * Returns the function the batch writer calls inside its transaction for the hash the next event chains
 * onto. A log written before the chain existed is chained first, from its first event.
 * @throws Error when the last event has no hash although earlier ones have: the log was tampered with.
 */
export function chainHead(db: Database.Database): () => string {
  const last = db.prepare<[], { position: bigint; hash: Buffer | null }>(
    'SELECT position, hash FROM events ORDER BY position DESC LIMIT 1',
  );
  const chainLegacy = legacyChainer(db);
  return () => {
    const row = last.get();
    if (!row) return GENESIS;
    if (row.hash !== null) return row.hash.toString('hex');
    chainLegacy();
    const chained = last.get()!;
    if (chained.hash === null)
      throw new Error(
        `events.db: the last event, at position ${chained.position}, has no hash although events before it have: the log was changed; run npm run verify-history`,
      );
    return chained.hash.toString('hex');
  };
}

/**
 * Gives every event written before the chain existed its hash, in log order from the first event, and
 * returns how many. Only a log with no hash at all is chained this way:
 * a missing hash after a hashed event is not legacy, it is a hash removed, and verification names it.
 */
export function legacyChainer(db: Database.Database): () => number {
  // Both ends of the rowid index: what every start and every scrubber pass asks costs the same for any log.
  const first = db.prepare<[], { hash: Buffer | null }>('SELECT hash FROM events ORDER BY position LIMIT 1');
  const anyHashed = db.prepare('SELECT 1 FROM events WHERE hash IS NOT NULL LIMIT 1').pluck();
  const unhashed = db
    .prepare<[bigint], HashedRow>(`SELECT ${HASHED_COLUMNS} FROM events WHERE hash IS NULL AND position > ? ORDER BY position LIMIT 1000`)
    .safeIntegers(true);
  const setHash = db.prepare<[Buffer, bigint]>('UPDATE events SET hash = ? WHERE position = ? AND hash IS NULL');
  // An empty log, or one chained from its first event: nothing is legacy (and no write lock is taken).
  const nothingLegacy = () => {
    const start = first.get();
    return !start || start.hash !== null;
  };
  // Inside the batch's transaction this is a savepoint; alone, a write transaction of its own, where the
  // question is asked again: another process may have chained the log meanwhile.
  const chainAll = db.transaction((): number => {
    if (nothingLegacy()) return 0;
    if (anyHashed.get() !== undefined)
      throw new Error('events.db: the first event has no hash although later events have: the log was changed; run npm run verify-history');
    let previous = GENESIS;
    let count = 0;
    // In pages: better-sqlite3 cannot write while a statement is still being iterated.
    for (let page = unhashed.all(0n); page.length > 0; page = unhashed.all(page[page.length - 1]!.position)) {
      for (const row of page) {
        previous = eventHash(previous, toHashedEvent(row));
        setHash.run(Buffer.from(previous, 'hex'), row.position);
        count++;
      }
    }
    return count;
  });
  return () => (nothingLegacy() ? 0 : chainAll.immediate());
}
