// A worker thread doing long CPU work (a plan) yields to the main thread, which serves HTTP, projects
// and writes the log: on Linux a thread is a task of its own, /proc/thread-self names its id, and
// setpriority on that id changes this thread alone. With as many planner threads as cores, the main
// thread then still gets a core the moment it has work, and the planners take what it leaves.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Raises this thread's niceness to `niceness`; false where that cannot be done (not Linux), and the thread runs as before. */
export function lowerThreadPriority(niceness: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, niceness);
    return true;
  } catch {
    return false;
  }
}

/** What a worker pool hands a background worker (planner, PDF renderer) about its priority. */
export interface NicenessData {
  /** 0: the thread runs at the process's priority. */
  niceness: number;
}

/** For a worker thread at its start: lowers its priority as its workerData (NicenessData) asks. */
export function lowerPriorityAsAsked(workerData: unknown): void {
  const { niceness } = (workerData ?? { niceness: 0 }) as NicenessData;
  if (niceness > 0) lowerThreadPriority(niceness);
}
