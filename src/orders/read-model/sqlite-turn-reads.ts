// The reads of one event-loop turn share one read transaction. On its own each statement is a
// transaction of its own, and beginning and ending one costs two fcntl locks and an fstat: as much as
// the rest of a lookup (docs/benchmarks.md). The read ends before this connection writes (so a read
// after a write sees it, as read-your-writes needs) and at the latest when the turn's I/O is done.
import type Database from 'better-sqlite3';

export class SqliteTurnReads {
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  // Changes when another connection has committed to the file (not for this one's own writes).
  readonly #dataVersion: Database.Statement<[], number>;
  #seenVersion: number | undefined;
  #versionReadAt = -Infinity;
  #reading = false;

  constructor(
    db: Database.Database,
    /** Another connection has committed since the last look: whatever was cached of the file may be stale. */
    private readonly changedElsewhere: () => void,
  ) {
    this.#begin = db.prepare('BEGIN');
    this.#commit = db.prepare('COMMIT');
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  get reading(): boolean {
    return this.#reading;
  }

  /** Milliseconds since the data version was last read. */
  versionAgeMs(): number {
    return performance.now() - this.#versionReadAt;
  }

  /** Begins the turn's read transaction unless one is open. */
  read(): void {
    if (this.#reading) return;
    this.#begin.run();
    this.#reading = true;
    setImmediate(this.end);
    // Read inside the transaction, so the version is the one of the snapshot this turn reads.
    const version = this.#dataVersion.get();
    this.#versionReadAt = performance.now();
    if (version !== this.#seenVersion) {
      this.changedElsewhere();
      this.#seenVersion = version;
    }
  }

  /** Ends the turn's read transaction, if one is open: before a write, and when the turn ends. */
  readonly end = (): void => {
    if (!this.#reading) return;
    this.#reading = false;
    try {
      this.#commit.run();
    } catch {
      // Ending a read cannot lose anything; what failed (damage found mid-read) was already thrown to that read's caller.
    }
  };
}
