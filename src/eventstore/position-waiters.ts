// Read-your-writes for any consumer of the log (the order projector, master data): a command that
// appended at a log position waits until the consumer has applied everything up to it. The deadline
// on that wait (visibleWithin) is the caller's; this only keeps the waiting list.

export class PositionWaiters {
  readonly #waiting: { target: bigint; resolve: () => void }[] = [];
  #position: bigint;

  /** `position`: what the consumer has applied already; -1 for nothing. */
  constructor(position = -1n) {
    this.#position = position;
  }

  /** The last log position the consumer has applied. */
  get position(): bigint {
    return this.#position;
  }

  /** How many are waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Resolves once the consumer has applied every event up to `target` (at once when it has). */
  waitFor(target: bigint): Promise<void> {
    if (target <= this.#position) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ target, resolve }));
  }

  /** The consumer has applied everything up to `position`: those waiting for it or less go on. */
  reached(position: bigint): void {
    this.#position = position;
    for (let i = this.#waiting.length - 1; i >= 0; i--) {
      const waiter = this.#waiting[i]!;
      if (waiter.target > position) continue;
      this.#waiting.splice(i, 1);
      waiter.resolve();
    }
  }

  /** The consumer starts again from the beginning (a rebuild): those waiting wait for the new pass. */
  restart(): void {
    this.#position = -1n;
  }
}
