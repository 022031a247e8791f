// A loop that works in passes, one at a time: woken when there is news, otherwise asleep until the time
// its last pass asked for. A wake that comes during a pass runs another pass right after it, because
// what the pass read may already be stale. The webhook delivery loop and the outcome journal run on it.

/** One pass; resolves to how long to sleep before the next unless woken (undefined: until woken). */
export type Pass = () => Promise<number | undefined>;

export class WakeableLoop {
  #stopped = false;
  #running: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #pass: Pass;

  constructor(pass: Pass) {
    this.#pass = pass;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#run();
  }

  /** No pass starts after this; resolves once the one under way has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #run(): Promise<void> {
    let sleepMs: number | undefined;
    try {
      do {
        this.#again = false;
        sleepMs = await this.#pass();
      } while (this.#again && !this.#stopped);
    } finally {
      this.#running = undefined;
    }
    if (!this.#stopped && sleepMs !== undefined) this.#timer = setTimeout(() => this.wake(), sleepMs);
  }
}
