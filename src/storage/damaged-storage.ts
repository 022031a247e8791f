// A storage file that is not what it should be (damaged pages, not a database at all). Start-up
// checks every SQLite file with quick_check; what a running process finds later arrives as SQLite's
// own error codes. Either way the caller answers 503 and says which file, never serves what it read.
import type Database from 'better-sqlite3';

export class DamagedStorage extends Error {
  constructor(
    /** The file, as an operator would look for it. */
    readonly file: string,
    detail: string,
  ) {
    super(`${file} is damaged (${detail})`);
    this.name = 'DamagedStorage';
  }
}

// SQLITE_CORRUPT and its extended codes (SQLITE_CORRUPT_INDEX, ...), SQLITE_NOTADB: what SQLite says of
// bytes that are not a valid database. Not I/O errors or a full disk: those are worth retrying.
const DAMAGE_CODES = /^SQLITE_(CORRUPT|NOTADB)/;

export function isDamage(error: unknown): boolean {
  if (error instanceof DamagedStorage) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DAMAGE_CODES.test(code);
}

/** The error to throw for what a call on `file` threw: DamagedStorage naming it when it is damage, else the error itself. */
export function damageIn(file: string, error: unknown): unknown {
  return isDamage(error) && !(error instanceof DamagedStorage) ? new DamagedStorage(file, (error as Error).message) : error;
}

/**
 * PRAGMA quick_check: the b-trees' structure and every page's format, without comparing indexes to
 * their tables (integrity_check, several times slower). It reads the whole file once.
 */
export function quickCheck(db: Database.Database, file: string): void {
  let rows: unknown[];
  try {
    rows = db.pragma('quick_check(3)', { simple: false }) as unknown[];
  } catch (error) {
    throw damageIn(file, error);
  }
  const problems = rows.map((row) => String(Object.values(row as object)[0])).filter((value) => value !== 'ok');
  // One line: a start-up reason is read in a terminal or a log collector, where newlines split it.
  if (problems.length > 0) throw new DamagedStorage(file, `quick_check: ${problems.join('; ').replace(/\s+/g, ' ').trim()}`);
}
