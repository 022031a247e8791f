// Background work that can wait (the packing-instructions e-mails of planned orders) holds off while the
// main thread is saturated. Its threads already run niced (lower-thread-priority.ts), but a niced thread
// still gets a share of a busy core, and V8 collects its garbage on helper threads at the process's
// priority. Under a burst of submits on 2 cores, drawing the e-mails' PDFs took the main thread's core
// often enough to cost a share of the submit rate (docs/benchmarks.md). So before each such job the
// caller waits while the main thread's event loop was busy more than BUSY_ABOVE of the last window, at
// most `maxWaitMs`: the e-mails go out later during a burst, at one per `maxWaitMs` at least, and at
// once when requests leave the loop room.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The share of a window the event loop was busy from which the main thread counts as saturated. */
const BUSY_ABOVE = 0.8;
/** The shortest window measured: shorter ones keep the verdict of the last. */
const WINDOW_MS = 100;
/** How often a waiting job looks again. */
const POLL_MS = 50;

export interface ForegroundGateOptions {
  /** The longest a job waits; 0 lets every job through at once. */
  maxWaitMs: number;
}

/** Resolves when the caller's job may start: the main thread has room, or it has waited `maxWaitMs`. */
export type ForegroundGate = () => Promise<void>;

/** Must be made on the main thread: it measures the event loop of the thread it is made on. */
export function foregroundGate(options: ForegroundGateOptions): ForegroundGate {
  let mark = performance.eventLoopUtilization();
  let busy = false;

  // The loop's utilization since the last window closed; no wake-up of its own while nothing waits.
  const saturated = (): boolean => {
    const current = performance.eventLoopUtilization();
    const window = performance.eventLoopUtilization(current, mark);
    if (window.idle + window.active >= WINDOW_MS) {
      busy = window.utilization > BUSY_ABOVE;
      mark = current;
    }
    return busy;
  };

  return async () => {
    const deadline = performance.now() + options.maxWaitMs;
    while (saturated() && performance.now() < deadline) await sleep(Math.min(POLL_MS, Math.max(1, deadline - performance.now())));
  };
}
