// After a burst of work (catching up with the log, a flood of submits, the scrubber's walk of the hash
// chain) V8 keeps the heap it grew to until its next full collection, and a process with nothing to do
// may not run one for hours: the heap stays at its peak with much of it no longer in use, and the
// resident set follows the timing of the last collection more than the number of orders stored
// (bench:memory; docs/benchmarks.md). Once the event loop has been under a tenth busy
// for a while, one full collection gives that memory back. It runs only while nothing is being served;
// a request arriving during it waits for it.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleHeapReleaseOptions {
  /** How often the event loop's use is looked at; idle means over the whole of this. */
  checkMs?: number;
  /** The event loop's utilization under which it counts as idle. */
  idleBelow?: number;
  /** How much the heap, or the resident set, must have grown since the last collection here for another to be worth it. */
  grownBytes?: number;
}

/** Starts watching; returns how to stop. `collect` is V8's full collection (tests give their own). */
export function releaseHeapWhenIdle(options: IdleHeapReleaseOptions = {}, collect: () => void = fullCollection()): () => void {
  // Idle: under a tenth busy, not quite idle: the read-model scrubber's walk keeps a service with many
  // orders a little busy for hours. A collection delays what arrives meanwhile, once per 32 MiB grown.
  const { checkMs = 5000, idleBelow = 0.1, grownBytes = 32 * 1024 * 1024 } = options;
  let heapAfterLast = 0;
  let outsideHeapAfterLast = 0;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (utilization >= idleBelow) return;
    // The heap grown, or what is resident outside it: pages V8 freed but keeps pooled leave the heap's
    // size and stay resident (after a catch-up whose last collection here ran while they were in use).
    const heap = getHeapStatistics().total_heap_size;
    if (heap < heapAfterLast + grownBytes && process.memoryUsage.rss() - heap < outsideHeapAfterLast + grownBytes) return;
    collect();
    heapAfterLast = getHeapStatistics().total_heap_size;
    outsideHeapAfterLast = process.memoryUsage.rss() - heapAfterLast;
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** V8's fullest collection, which also gives the freed pages back to the system. */
export function fullCollection(): () => void {
  // The documented way to reach V8's gc() without starting node with --expose-gc.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options?: { type: string; execution: string; flavor: string }) => void;
  // A plain gc() frees the pages but V8 keeps them pooled, resident, for its next allocations: after a
  // long catch-up that is several times the heap itself. The last-resort flavour (V8's gc extension)
  // collects as hard as V8 can and releases the pooled pages to the system.
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
