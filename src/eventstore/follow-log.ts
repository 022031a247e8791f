// A consumer of the log that outlives failures: when handling a batch fails (a read model's disk,
// SMTP down, a broker unreachable) the same batch is tried again after a growing pause instead of
// being dropped or stopping for good; when the subscription itself fails (a server restart, a lost
// connection) it subscribes again from the checkpoint. Handlers must be idempotent per event: after
// a failure the whole batch comes again. Used by the projector, the planning reactor and every
// notification consumer.
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent, Subscription } from './event-store.js';
import { backoffDelay, DEFAULT_MAX_DELAY_MS, retryWithBackoff } from '../storage/retry-with-backoff.js';

/** With an error: logged at error level unless `level` says otherwise; without one: info unless it says so. */
export type Log = (message: string, error?: unknown, level?: 'info' | 'warn' | 'error') => void;

export interface FollowOptions {
  store: EventStore;
  /** For log lines. */
  name: string;
  /** Only these event types; every event when omitted. */
  types?: readonly string[];
  /** Of `types`, those whose commits wake the follower at once (SubscribeOptions.wakeOn). */
  wakeOn?: readonly string[];
  loadCheckpoint(): Promise<bigint | undefined>;
  /** Must be idempotent per event: after a failure the whole batch comes again. */
  handle(events: RecordedEvent[], stopping: () => boolean): Promise<void>;
  /** First pause after a failure; doubles up to maxRetryDelayMs. */
  retryDelayMs: number;
  maxRetryDelayMs?: number;
  log: Log;
  /** In [0, 1): the jitter of resubscribe pauses. Math.random unless a test fixes it. */
  random?: () => number;
  /**
   * After each batch handled, how long to wait before the next one: what arrives meanwhile comes as one
   * batch. For consumers whose every batch costs fixed work (a transaction, a journal entry, an event
   * of their own) and whose events may wait that long (notifications). The first event after a quiet
   * spell is handled at once. 0 or omitted: the next batch is read as soon as this one is handled.
   */
  lingerMs?: number;
}

export interface Follower {
  stop(): Promise<void>;
}

export async function followLog(options: FollowOptions): Promise<Follower> {
  const { store, name, log } = options;
  const maxDelayMs = options.maxRetryDelayMs ?? Math.max(options.retryDelayMs, DEFAULT_MAX_DELAY_MS);
  const random = options.random ?? Math.random;
  let stopping = false;
  const stopped = new AbortController();
  // Resubscribe failures in a row: the pause doubles with each, and a delivered batch resets it.
  let subscribeFailures = 0;
  let subscription: Subscription | undefined;
  let resubscribeTimer: NodeJS.Timeout | undefined;

  async function handleWithRetry(events: RecordedEvent[]): Promise<void> {
    const handled = await retryWithBackoff(() => options.handle(events, () => stopping), {
      firstDelayMs: options.retryDelayMs,
      maxDelayMs,
      signal: stopped.signal,
      onFailure(error, failures, delay) {
        log(
          `${name}: handling events up to position ${events.at(-1)?.position} failed (${failures} time(s)); trying again in ${delay} ms`,
          error,
        );
      },
    });
    if (handled) subscribeFailures = 0;
    // a stop does not wait out the linger: the abort ends the sleep
    if (handled && options.lingerMs) await sleep(options.lingerMs, undefined, { signal: stopped.signal }).catch(() => {});
  }

  async function subscribe(): Promise<void> {
    const after = await options.loadCheckpoint();
    if (stopping) return;
    subscription = store.subscribe({
      ...(after !== undefined ? { after } : {}),
      ...(options.types ? { types: options.types } : {}),
      ...(options.wakeOn ? { wakeOn: options.wakeOn } : {}),
      handle: handleWithRetry,
      onError(error) {
        // Only the store itself gets here (handle never throws): start again from the checkpoint.
        if (stopping) return;
        resubscribeLater('reading the log failed', error);
      },
    });
  }

  // Exponential backoff with jitter: after a server restart every consumer of every replica comes
  // back, and spread out rather than all in the same millisecond, retry after retry.
  function resubscribeLater(what: string, error: unknown): void {
    subscribeFailures += 1;
    const delay = backoffDelay(subscribeFailures, { firstDelayMs: options.retryDelayMs, maxDelayMs, jitter: 0.5 }, random);
    log(`${name}: ${what}; resubscribing from the checkpoint in ${delay} ms`, error);
    resubscribeTimer = setTimeout(() => {
      if (stopping) return;
      subscribe().catch((failure: unknown) => resubscribeLater('resubscribing failed', failure));
    }, delay);
  }

  await subscribe();
  return {
    async stop() {
      stopping = true;
      clearTimeout(resubscribeTimer);
      stopped.abort();
      await subscription?.stop();
    },
  };
}
