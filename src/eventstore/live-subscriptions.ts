// The subscriptions an adapter has running: each is kept from the moment it is opened until it stops, so
// that a commit can wake them all and close() can stop them all and wait for their handlers. One piece for
// the three adapters, which each kept the same set and the same four steps.

/** What a subscription offers the set: a stop that resolves once its handler has returned. */
interface Stoppable {
  stop(): Promise<void>;
}

export class LiveSubscriptions<S extends Stoppable> {
  readonly #running = new Set<S>();

  /**
   * Opens one with `make`, which is given the callback the subscription calls once it has stopped (by
   * stop(), or by a failure of its own): from then it is no longer woken or stopped by the set.
   */
  open(make: (stopped: () => void) => S): S {
    const subscription = make(() => this.#running.delete(subscription));
    this.#running.add(subscription);
    return subscription;
  }

  /** The ones running now, e.g. to wake each after a commit. */
  [Symbol.iterator](): IterableIterator<S> {
    return this.#running.values();
  }

  /** Stops every one running, and resolves once each has (their handlers have returned). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#running].map((subscription) => subscription.stop()));
  }
}
