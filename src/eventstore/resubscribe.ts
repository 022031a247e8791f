// A consumer of the log that outlives failures of its subscription: a server restart, a lost
// connection, a handler that failed on a bad day. After a failure it waits, reloads its
// checkpoint and subscribes again, so nothing is skipped and, with idempotent handlers, nothing
// is applied twice.
import type { EventStore, RecordedEvent, Subscription } from './event-store.js';

export interface ResubscribingOptions {
  name: string;
  /** Where to continue from: re-read after every failure. */
  checkpoint(): Promise<bigint | undefined>;
  handle(events: RecordedEvent[]): Promise<void> | void;
  types?: readonly string[];
  log: (message: string, error?: unknown) => void;
  retryDelayMs?: number;
}

export function subscribeFromCheckpoint(store: EventStore, options: ResubscribingOptions): Subscription {
  let current: Subscription | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const start = async () => {
    if (stopped) return;
    try {
      const after = await options.checkpoint();
      if (stopped) return;
      current = store.subscribe({
        ...(after !== undefined ? { after } : {}),
        ...(options.types ? { types: options.types } : {}),
        handle: options.handle,
        onError(error) {
          if (stopped) return;
          options.log(`${options.name}: subscription failed; resubscribing from its checkpoint`, error);
          scheduleRestart();
        },
      });
    } catch (error) {
      options.log(`${options.name}: could not load its checkpoint; retrying`, error);
      scheduleRestart();
    }
  };
  const scheduleRestart = () => {
    retry = setTimeout(() => void start(), options.retryDelayMs ?? 1000);
  };

  void start();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await current?.stop();
    },
  };
}
