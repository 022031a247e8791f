// Durable commits without blocking the event loop. better-sqlite3 is synchronous: with
// synchronous = FULL every COMMIT waits for fsync of the -wal file on the main thread, and under load
// that wait took a large share of the main thread (docs/benchmarks.md). Instead a file is opened with
// synchronous = NORMAL (a COMMIT only write()s its frames) and its -wal file is fdatasync'ed here, on
// libuv's thread pool, before anything is acknowledged. An fsync flushes every frame written to the
// file before it started, by any connection or process, so one fsync covers all the commits made
// while the previous one ran: a group commit across the transactions of the whole process.
//
// Why this is as durable as FULL: WAL frames carry cumulative checksums, so recovery after power loss
// replays a prefix of the commits and never a later commit without an earlier one; NORMAL still syncs
// the -wal file before each checkpoint and the database file after it (sqlite.org/pragma.html#pragma_synchronous).
// A crash of the process alone loses nothing written: the frames are in the OS's page cache.
import type Database from 'better-sqlite3';
import { close, fdatasync, openSync } from 'node:fs';

export interface WalSync {
  /**
   * Resolves once an fdatasync of the -wal file that started after this call has returned: everything
   * committed to the file before the call is then on disk. Calls made while an fsync runs share the next one.
   */
  sync(): Promise<void>;
  /** Waits for the fsyncs asked for, then closes the file descriptor. Call before closing the database. */
  close(): Promise<void>;
}

export type FileSync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void;

/** `db` must be in WAL mode and have been read or written (the -wal file exists from then on). */
export function walSync(db: Database.Database, fileSync: FileSync = fdatasync): WalSync {
  let fd: number | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  const fsyncOnce = (): Promise<void> =>
    new Promise((resolve, reject) => {
      try {
        // Read-only: never creates the file. SQLite keeps the -wal file (same inode) while a connection is open.
        fd ??= openSync(`${db.name}-wal`, 'r');
      } catch (error) {
        reject(error as Error);
        return;
      }
      fileSync(fd, (error) => (error ? reject(error) : resolve()));
    });

  const start = (): Promise<void> => {
    const current = fsyncOnce().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };

  return {
    sync() {
      if (!running) return start();
      // The running fsync may have started before the caller's commit: wait for the one after it.
      next ??= running
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          next = undefined;
          return start();
        });
      return next;
    },
    async close() {
      await Promise.allSettled([running, next]);
      if (fd !== undefined) {
        const open = fd;
        fd = undefined;
        await new Promise<void>((resolve) => close(open, () => resolve()));
      }
    },
  };
}
