// WAL checkpoints off the main thread. SQLite copies a file's -wal frames back into the database
// file when a commit leaves 1,000 pages in the WAL (its auto-checkpoint), inside that commit, on the
// thread that commits: here the main thread. With synchronous = NORMAL that copy also fsyncs the
// -wal file before it and the database file after it. Under a burst of submits about one commit in
// 70 of events.db and of read-models.db took 1-10 ms that way, half a second of every ten
// (docs/benchmarks.md). So each file the service writes is also opened by one worker thread, which
// checkpoints it every few tens of milliseconds while it is written (PASSIVE: it never waits for,
// nor holds up, the main thread's readers and writers), and the main thread's own auto-checkpoint
// is raised to MAIN_THREAD_CHECKPOINT_PAGES.
//
// As safe as before: the checkpoint is SQLite's own, run by another connection to the same file;
// SQLite orders the syncs, and a crash mid-checkpoint is recovered from the -wal file as ever.
import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import type { CheckpointJob, CheckpointWorkerData, CheckpointerReport } from './wal-checkpoint-worker.js';

/**
 * The main thread's auto-checkpoint once the worker checkpoints a file: about 64 MiB of -wal file at
 * 4 KiB pages. The -wal file starts again from its beginning only at a commit that finds every frame
 * copied, which a sustained burst of commits seldom leaves the worker time for: the busiest files
 * then grow to this bound, and the commit that reaches it checkpoints what the worker has not copied
 * yet (a few frames, and the two fsyncs) and starts the file again: once per 64 MiB instead of once
 * per 4 MiB. A worker that falls behind or dies leaves the whole copy to the commits again, at this bound.
 */
export const MAIN_THREAD_CHECKPOINT_PAGES = 16_384;

export interface WalCheckpointer {
  /**
   * The worker checkpoints `db`'s file from now on. Returns what to call, and wait for, before `db`
   * is closed: the file may be deleted then, and the worker's connection must not outlive it (its
   * close, the file's last, would delete the -wal file by name: a new file's). An in-memory database,
   * or one not in WAL mode, is left as it is.
   */
  takeOver(db: Database.Database): () => Promise<void>;
  /** Stops the worker after closing its connections; the files' own connections checkpoint again on their close. */
  close(): Promise<void>;
}

export interface WalCheckpointerOptions {
  /** Niceness of the worker thread (Linux), as the planners'. */
  niceness: number;
  log: (message: string, error?: unknown, level?: 'info' | 'warn' | 'error') => void;
}

/** The worker starts with the first file taken over: a service whose storage is all on servers has none. */
export function walCheckpointer(options: WalCheckpointerOptions): WalCheckpointer {
  let worker: Worker | undefined;
  let running = false;
  let exited: Promise<void> = Promise.resolve();
  let nextId = 1;
  let closed = false;
  // Files let go whose connection in the worker is not closed yet.
  const lettingGo = new Map<number, () => void>();

  function started(): Worker | undefined {
    if (closed) return undefined;
    if (worker) return running ? worker : undefined;
    const workerData: CheckpointWorkerData = { niceness: options.niceness };
    const thread = new Worker(new URL('./wal-checkpoint-worker.js', import.meta.url), { workerData });
    // It never keeps the process alive: a tool that forgets close() still exits.
    thread.unref();
    running = true;
    thread.on('message', (report: CheckpointerReport) => {
      if ('closed' in report) {
        lettingGo.get(report.closed)?.();
        lettingGo.delete(report.closed);
      } else options.log(`WAL checkpoints: ${report.file}: ${report.problem}`, undefined, 'warn');
    });
    thread.on('error', (error) => {
      // The files' own auto-checkpoint, at its raised bound, takes over; nothing is lost.
      options.log(
        `WAL checkpoints: the worker failed; SQLite checkpoints in the commits again past ${MAIN_THREAD_CHECKPOINT_PAGES} pages`,
        error,
        'warn',
      );
    });
    exited = new Promise((resolve) =>
      thread.once('exit', () => {
        running = false;
        // its connections are closed with it
        for (const letGo of lettingGo.values()) letGo();
        lettingGo.clear();
        resolve();
      }),
    );
    worker = thread;
    return thread;
  }

  return {
    takeOver(db) {
      // no worker started for a file it would leave alone
      const thread = db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal' ? undefined : started();
      if (!thread) return async () => {};
      db.pragma(`wal_autocheckpoint = ${MAIN_THREAD_CHECKPOINT_PAGES}`);
      const id = nextId++;
      thread.postMessage({ open: id, file: db.name } satisfies CheckpointJob);
      return () => {
        if (!running) return Promise.resolve();
        const closedThere = new Promise<void>((resolve) => lettingGo.set(id, resolve));
        thread.postMessage({ close: id } satisfies CheckpointJob);
        return closedThere;
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      if (running && worker) {
        // held open until the worker has closed its connections and ended: nothing else may keep the process up by then
        worker.ref();
        worker.postMessage({ stop: true } satisfies CheckpointJob);
      }
      await exited;
    },
  };
}
