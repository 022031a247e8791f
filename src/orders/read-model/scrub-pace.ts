// The scrubber's pace: a bounded rate of orders per second, kept on average, and pauses that a stop
// cuts short. Between orders, and between pages of the log, requests go first.
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
   * Waits until the next order is due. An order waits only until then, so the time comparing takes
   * counts toward the interval; after a stall (a long repair, a busy machine) it does not catch up.
   */
  nextOrder(): Promise<void> {
    const now = performance.now();
    this.#due = Math.max(this.#due + this.intervalMs, now - this.intervalMs);
    return this.pause(this.#due - now);
  }

  /** Ends the pause under way at once. */
  interrupt(): void {
    this.#cancel?.();
    this.#wake?.();
  }
}
