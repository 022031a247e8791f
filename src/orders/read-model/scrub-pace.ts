// The scrubber's pace: a bounded rate of orders per second, kept on average, and pauses that a stop
// cuts short. Between orders, and between pages of the log, requests go first.

/**
 * The orders due within this much go together, one after another: at 50 orders a second that is one
 * timer a fifth of a second instead of one per order. Waking an idle process costs more than the
 * comparison it wakes for, so the scrubber's cost was mostly its timers (docs/operations.md).
 */
const BATCH_MS = 200;

export class ScrubPace {
  #due = performance.now();
  #wake: (() => void) | undefined;
  #cancel: (() => void) | undefined;

  constructor(private readonly intervalMs: number) {}

  /**
   * Waits `ms`, or until `interrupt`. Zero or less yields to what else waits (requests go first)
   * without the timer's 1 ms floor, which would cap the scrubber's rate.
   */
  pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
      if (ms > 0) {
        const timer = setTimeout(resolve, ms);
        this.#cancel = () => clearTimeout(timer);
      } else {
        const immediate = setImmediate(resolve);
        this.#cancel = () => clearImmediate(immediate);
      }
    });
  }

  /**
   * Waits until the next order is due: never before, and when it is not due yet, until BATCH_MS from
   * now, so that the orders due by then go one after another. The time comparing takes counts toward
   * the interval; after a stall (a long repair, a busy machine) at most BATCH_MS of orders catch up.
   */
  nextOrder(): Promise<void> {
    const now = performance.now();
    this.#due = Math.max(this.#due + this.intervalMs, now - BATCH_MS);
    const ahead = this.#due - now;
    return this.pause(ahead > 0 ? Math.max(ahead, BATCH_MS) : 0);
  }

  /** Ends the pause under way at once. */
  interrupt(): void {
    this.#cancel?.();
    this.#wake?.();
  }
}
