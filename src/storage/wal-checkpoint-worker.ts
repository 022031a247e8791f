// The worker thread of wal-checkpointer.ts: a connection of its own to each file it is given, and a
// PASSIVE checkpoint of each in turn, every ACTIVE_INTERVAL_MS while any of them is being written,
// less and less often (down to IDLE_INTERVAL_MS) while none is.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerPriorityAsAsked, type NicenessData } from '../workers/lower-thread-priority.js';

export type CheckpointWorkerData = NicenessData;

/** From the main thread: a file to take over, one to let go, or the end. */
export type CheckpointJob = { open: number; file: string } | { close: number } | { stop: true };

/** To the main thread: a file whose checkpoints fail (told once until they succeed again), or a file let go. */
export type CheckpointerReport = { file: string; problem: string } | { closed: number };

/**
 * While files are written, how often each is checkpointed. Each checkpoint costs two fsyncs when it
 * has frames to copy; at 50 ms the -wal files stayed at a few MiB to a few tens under a burst of
 * 3,000 submits/s, and the worker was busy about a twentieth of the time.
 */
const ACTIVE_INTERVAL_MS = 50;
/** The longest pause while nothing is written: a commit after a quiet spell waits at most this for its checkpoint. */
const IDLE_INTERVAL_MS = 1000;

interface Watched {
  file: string;
  db: Database.Database;
  /** The WAL's frames as the last checkpoint found them. */
  lastLog: number;
  failing: boolean;
}

lowerPriorityAsAsked(workerData);
const watched = new Map<number, Watched>();
let interval = ACTIVE_INTERVAL_MS;
let timer: NodeJS.Timeout | undefined;

function checkpointAll(): void {
  let written = false;
  for (const entry of watched.values()) {
    try {
      const [result] = entry.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      if (!result) continue;
      // Frames added since the last look, or some left uncopied: the file is being written.
      if (result.log !== entry.lastLog || result.checkpointed < result.log) written = true;
      entry.lastLog = result.log;
      entry.failing = false;
    } catch (error) {
      if (!entry.failing) parentPort!.postMessage({ file: entry.file, problem: (error as Error).message } satisfies CheckpointerReport);
      entry.failing = true;
    }
  }
  interval = written ? ACTIVE_INTERVAL_MS : Math.min(IDLE_INTERVAL_MS, interval * 2);
  timer = setTimeout(checkpointAll, interval);
}

parentPort!.on('message', (job: CheckpointJob) => {
  if ('open' in job) {
    try {
      // Never creates a file: the main thread has opened it, in WAL mode, before handing it over.
      const db = new Database(job.file, { fileMustExist: true });
      watched.set(job.open, { file: job.file, db, lastLog: -1, failing: false });
    } catch (error) {
      parentPort!.postMessage({ file: job.file, problem: `not opened: ${(error as Error).message}` } satisfies CheckpointerReport);
    }
    // A file taken over is looked at soon, whatever the pause had grown to.
    interval = ACTIVE_INTERVAL_MS;
    clearTimeout(timer);
    timer = setTimeout(checkpointAll, interval);
  } else if ('close' in job) {
    watched.get(job.close)?.db.close();
    watched.delete(job.close);
    parentPort!.postMessage({ closed: job.close } satisfies CheckpointerReport);
  } else {
    clearTimeout(timer);
    for (const entry of watched.values()) entry.db.close();
    watched.clear();
    parentPort!.close();
  }
});
