// Work that one replica at a time should do for all of them (projecting the read model): the replica
// that holds the named lease in the work lease store does it and renews the lease a few times per lease
// period; the others try to acquire it at the same pace and step in once it has run out. A holder that
// cannot reach the store keeps the work only until its lease would have run out, then steps
// down, so two replicas overlap by at most a renewal's pause. The work itself must tolerate that
// overlap (the read model's writes are idempotent by log position).
import type { LeaseStore } from './lease-store.js';

/** The keys of singleton work in the work lease store start with this: planning leases never do. */
export const SINGLETON_PREFIX = 'singleton:';

/** The lease key of a piece of singleton work. */
export const singletonKey = (work: string): string => `${SINGLETON_PREFIX}${work}`;

export interface SingletonLease {
  /** Whether this replica holds the lease now. */
  readonly held: boolean;
  /** Lets the lease go (a clean stop): another replica takes it at its next try instead of after the lease. */
  release(): Promise<void>;
}

export interface SingletonLeaseOptions {
  /** Where the lease is kept. */
  store: LeaseStore;
  key: string;
  holder: string;
  leaseMs: number;
  /** Called when this replica comes to hold the lease (true) or stops holding it (false); awaited before the next try. */
  onChange(held: boolean): Promise<void> | void;
  /**
   * Whether this replica can do the work now (the projector: whether it can read the log). One that
   * cannot does not take the lease, and one that holds it lets it go once it has been unable for a
   * whole lease, so that one that can takes over. Not at the first failed look: a busy machine's
   * stalled event loop looks the same for a moment, and a lone replica would drop its own work.
   */
  able?(): Promise<boolean>;
  log(message: string, error?: unknown, level?: 'info' | 'warn' | 'error'): void;
  now?: () => number;
}

/** Starts trying at once; resolves after the first try, so the caller knows whether it starts as the holder. */
export async function holdSingletonLease(options: SingletonLeaseOptions): Promise<SingletonLease> {
  const lease = new HeldLease(options);
  await lease.loop();
  return lease;
}

/** One replica's hold on a singleton lease: a try every third of a lease, and what it saw last. */
class HeldLease implements SingletonLease {
  #held = false;
  /** Until when the last renewal that succeeded holds the lease for this replica. */
  #heldUntil = 0;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  /** Tries in a row the work lease store did not answer. */
  #failures = 0;
  /** Since when this replica has been unable (undefined: it is able). */
  #unableSince: number | undefined;
  readonly #options: SingletonLeaseOptions;
  readonly #now: () => number;
  readonly #everyMs: number;

  constructor(options: SingletonLeaseOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#everyMs = Math.max(50, Math.floor(options.leaseMs / 3));
  }

  get held(): boolean {
    return this.#held;
  }

  async loop(): Promise<void> {
    if (this.#stopped) return;
    await this.#attempt();
    if (!this.#stopped) {
      this.#timer = setTimeout(() => void this.loop(), this.#everyMs);
      this.#timer.unref();
    }
  }

  async release(): Promise<void> {
    const { store: leases, key, holder, log } = this.#options;
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (!this.#held) return;
    await this.#change(false);
    await leases
      .release(key, holder)
      .catch((error: unknown) => log(`${key}: releasing the lease failed; another replica takes it when it runs out`, error, 'warn'));
  }

  async #change(next: boolean): Promise<void> {
    if (next === this.#held) return;
    this.#held = next;
    try {
      await this.#options.onChange(next);
    } catch (error) {
      this.#options.log(`${this.#options.key}: ${next ? 'taking up' : 'giving up'} the work of the lease failed`, error);
    }
  }

  /** False when this replica should not try now: it cannot do the work (and has let the lease go if it was unable for a whole lease). */
  async #able(): Promise<boolean> {
    const { able, store: leases, key, holder, leaseMs, log } = this.#options;
    if (!able || (await able().catch(() => false))) {
      this.#unableSince = undefined;
      return true;
    }
    this.#unableSince ??= this.#now();
    if (!this.#held) return false;
    if (this.#now() - this.#unableSince < leaseMs) return true;
    log(`${key}: this replica has not been able to do the work for ${leaseMs} ms; letting the lease go`, undefined, 'warn');
    await this.#change(false);
    await leases.release(key, holder).catch(() => {});
    return false;
  }

  async #attempt(): Promise<void> {
    if (!(await this.#able())) return;
    const { store: leases, key, holder, leaseMs, log } = this.#options;
    const at = this.#now();
    try {
      const acquired = await leases.acquire(key, holder, at, at + leaseMs);
      if (this.#failures > 0) log(`${key}: the lease store answers again`, undefined, 'info');
      this.#failures = 0;
      if (acquired) this.#heldUntil = at + leaseMs;
      await this.#change(acquired);
    } catch (error) {
      this.#failures += 1;
      if (this.#failures === 1)
        log(
          `${key}: renewing or taking the lease failed; ${this.#held ? `keeping it until it would run out` : 'trying again'}`,
          error,
          'warn',
        );
      // Not renewed: the lease is another replica's to take once it runs out, and then this one must have stopped.
      if (this.#held && this.#now() >= this.#heldUntil - this.#everyMs) await this.#change(false);
    }
  }
}

export interface LeasedWork<T> {
  /** The work while this replica holds the lease; undefined otherwise. */
  current(): T | undefined;
  /** Stops the work and lets the lease go. */
  stop(): Promise<void>;
}

/**
 * Runs `start`'s work on this replica only while it holds the lease `key`: started when the lease is
 * taken, stopped when it is lost or let go. What one replica does for all of them (the notification
 * consumers, the read-model scrubber) is done once, and moves when its replica dies.
 */
export async function whileLeased<T extends { stop(): Promise<void> }>(
  options: Omit<SingletonLeaseOptions, 'onChange'>,
  start: () => Promise<T>,
): Promise<LeasedWork<T>> {
  let work: T | undefined;
  let stopping = false;
  const lease = await holdSingletonLease({
    ...options,
    async onChange(held) {
      if (held && !stopping) {
        options.log(`${options.key}: this replica does it now (it holds the lease)`, undefined, 'info');
        work = await start();
      } else if (!held && work) {
        const running = work;
        work = undefined;
        options.log(`${options.key}: another replica does it now`, undefined, 'info');
        await running.stop();
      }
    },
  });
  return {
    current: () => work,
    async stop() {
      stopping = true;
      await lease.release();
      await work?.stop();
    },
  };
}
