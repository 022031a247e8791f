// The windows' timers: at most one per window, and when it fires, the window's time-out goes to the
// workflow as a command. While a batch of the log is handled, timers wait for its end: a window
// rebuilt after a restart whose time ran out meanwhile would otherwise close at once, before the
// orders that joined it in time, further on in the same batch, were read back (its closing would
// leave them out).

export class WindowTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** While a batch is handled: the timers to arm when it ends. */
  private waiting: Map<string, number> | undefined;
  private stopped = false;

  constructor(
    private readonly now: () => number,
    private readonly timedOut: (consolidation: string) => void,
  ) {}

  /** In place of the window's timer, if it had one; `at` in epoch ms. */
  arm(consolidation: string, at: number): void {
    clearTimeout(this.timers.get(consolidation));
    this.timers.delete(consolidation);
    if (this.stopped) return;
    if (this.waiting) {
      this.waiting.set(consolidation, at);
      return;
    }
    const timer = setTimeout(
      () => {
        this.timers.delete(consolidation);
        this.timedOut(consolidation);
      },
      Math.max(0, at - this.now()),
    );
    // a window's timer alone does not keep the process alive
    timer.unref();
    this.timers.set(consolidation, timer);
  }

  clear(consolidation: string): void {
    clearTimeout(this.timers.get(consolidation));
    this.timers.delete(consolidation);
    this.waiting?.delete(consolidation);
  }

  /** Timers armed from now on wait for release(). */
  hold(): void {
    this.waiting ??= new Map();
  }

  release(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    for (const [consolidation, at] of waiting ?? []) this.arm(consolidation, at);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.waiting = undefined;
  }
}
