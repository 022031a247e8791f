// The orders whose submit this process took, for its planning reactor: it leases those at once and
// leaves another replica's new orders to that replica for a moment (planning-reactor.ts), so that of
// several replicas only one usually tries each lease. Process memory only, and bounded: after a
// restart, or past the bound, an order simply counts as another replica's.
export class SubmittedHere {
  readonly #ids = new Set<number>();

  /** `max`: ids remembered at most; the oldest goes first (the reactor normally forgets each within ms). */
  constructor(private readonly max = 10_000) {}

  /**
   * Before the order's append: the log's announcement of the commit can reach the reactor before the
   * append's own answer reaches the submit.
   */
  add(orderId: number): void {
    if (this.#ids.size >= this.max) this.#ids.delete(this.#ids.values().next().value as number);
    this.#ids.add(orderId);
  }

  /** Checks the order off: whether its submit was made here (and added); forgotten once asked. */
  checkOff(orderId: number): boolean {
    return this.#ids.delete(orderId);
  }

  get size(): number {
    return this.#ids.size;
  }
}
