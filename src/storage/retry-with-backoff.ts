// The one way this service tries again after a failure it expects to pass (a database or broker
// down, a server restarting): pauses that double from a first one up to a ceiling, so a long outage
// costs a retry a minute rather than a busy loop, optionally spread by jitter, so that every consumer
// of every replica does not come back in the same millisecond after a restart. The schedule is a pure
// function; the loop around it stops waiting the moment its signal aborts (shutdown).

export interface BackoffSchedule {
  /** The pause after the first failure. */
  firstDelayMs: number;
  /** The pauses double up to this; default 60 s. */
  maxDelayMs?: number;
  /**
   * In [0, 1]: the share of each pause drawn at random, taken off its top. 0 (the default): every
   * pause is exactly the doubled one; 0.5: somewhere in its upper half.
   */
  jitter?: number;
}

export const DEFAULT_MAX_DELAY_MS = 60_000;

/** The pause after the `failures`-th failure in a row (1 for the first); `random` in [0, 1). */
export function backoffDelay(failures: number, schedule: BackoffSchedule, random: () => number = Math.random): number {
  const max = schedule.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  // the exponent stops growing long before 2 ** n could overflow to Infinity
  const ceiling = Math.min(max, schedule.firstDelayMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
  const jitter = Math.min(Math.max(schedule.jitter ?? 0, 0), 1);
  if (jitter === 0) return ceiling;
  return Math.round(ceiling * (1 - jitter) + ceiling * jitter * random());
}

/** Resolves after `ms`, or at once when `signal` aborts (it never rejects). */
export function pauseUnlessAborted(ms: number, signal?: AbortSignal, options: { unref?: boolean } = {}): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (options.unref) timer.unref();
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface RetryOptions extends BackoffSchedule {
  /** Aborted: no further attempt, and a pause under way ends at once. */
  signal?: AbortSignal;
  /** Told of each failure before its pause (not of one that ends in an abort): for the log. */
  onFailure?(error: unknown, failures: number, delayMs: number): void;
  /** In [0, 1): for the jitter; Math.random unless a test fixes it. */
  random?: () => number;
  /** The pause's timer does not keep the process alive (a retry nobody will stop). */
  unref?: boolean;
}

/**
 * Runs `attempt` until it succeeds, pausing on the schedule after each failure. Resolves with its
 * value, or with undefined when the signal aborted first: an abort is not an error.
 */
export async function retryWithBackoff<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<{ value: T } | undefined> {
  const { signal } = options;
  for (let failures = 1; !signal?.aborted; failures++) {
    try {
      return { value: await attempt() };
    } catch (error) {
      if (signal?.aborted) break;
      const delay = backoffDelay(failures, options, options.random);
      options.onFailure?.(error, failures, delay);
      await pauseUnlessAborted(delay, signal, { unref: options.unref ?? false });
    }
  }
  return undefined;
}
