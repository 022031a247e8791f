// Work that one replica at a time should do for all of them (projecting the read model): the replica
// that holds the named lease in the claim store does it and renews the lease a few times per lease
// period; the others try to take it at the same pace and step in once it has run out. A holder that
// cannot reach the claim store keeps the work only until its lease would have run out, then steps
// down, so two replicas overlap by at most a renewal's pause. The work itself must tolerate that
// overlap (the read model's writes are idempotent by log position).
import type { ClaimStore } from './claim-store.js';

/** The keys of singleton work in the claim store start with this: planning claims never do. */
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
  claims: ClaimStore;
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
  const { claims, key, holder, leaseMs, log } = options;
  const now = options.now ?? Date.now;
  const everyMs = Math.max(50, Math.floor(leaseMs / 3));
  let held = false;
  // Until when the last renewal that succeeded holds the lease for this replica.
  let heldUntil = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  /** Since when this replica has been unable (undefined: it is able). */
  let unableSince: number | undefined;

  const change = async (next: boolean): Promise<void> => {
    if (next === held) return;
    held = next;
    try {
      await options.onChange(next);
    } catch (error) {
      log(`${key}: ${next ? 'taking up' : 'giving up'} the work of the lease failed`, error);
    }
  };

  const attempt = async (): Promise<void> => {
    if (options.able && !(await options.able().catch(() => false))) {
      unableSince ??= now();
      if (!held) return;
      if (now() - unableSince >= leaseMs) {
        log(`${key}: this replica has not been able to do the work for ${leaseMs} ms; letting the lease go`, undefined, 'warn');
        await change(false);
        await claims.release(key, holder).catch(() => {});
        return;
      }
    } else {
      unableSince = undefined;
    }
    const at = now();
    try {
      const taken = await claims.take(key, holder, at, at + leaseMs);
      if (failures > 0) log(`${key}: the claim store answers again`, undefined, 'info');
      failures = 0;
      if (taken) heldUntil = at + leaseMs;
      await change(taken);
    } catch (error) {
      failures += 1;
      if (failures === 1) log(`${key}: renewing or taking the lease failed; ${held ? `keeping it until it would run out` : 'trying again'}`, error, 'warn');
      // Not renewed: the lease is another replica's to take once it runs out, and then this one must have stopped.
      if (held && now() >= heldUntil - everyMs) await change(false);
    }
  };

  const loop = async (): Promise<void> => {
    if (stopped) return;
    await attempt();
    if (!stopped) {
      timer = setTimeout(() => void loop(), everyMs);
      timer.unref();
    }
  };
  await loop();

  return {
    get held() {
      return held;
    },
    async release() {
      stopped = true;
      clearTimeout(timer);
      if (!held) return;
      await change(false);
      await claims.release(key, holder).catch((error: unknown) => log(`${key}: releasing the lease failed; another replica takes it when it runs out`, error, 'warn'));
    },
  };
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
  options: Omit<SingletonLeaseOptions, 'onChange'>, start: () => Promise<T>,
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
