// Keeps a read model up to date from the log and lets a command wait until its own events are
// visible (read-your-writes).
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/event-store.js';
import { subscribeFromCheckpoint } from '../eventstore/resubscribe.js';

export interface ProjectedReadModel {
  checkpoint(): Promise<bigint | undefined>;
  apply(events: readonly RecordedEvent[]): Promise<void>;
}

export interface Projector {
  /** Resolves once every event up to `position` is applied. */
  waitFor(position: bigint): Promise<void>;
  readonly position: bigint;
  stop(): Promise<void>;
}

export async function startProjector(store: EventStore, readModel: ProjectedReadModel, onError: (message: string, error?: unknown) => void): Promise<Projector> {
  let position = (await readModel.checkpoint()) ?? -1n;
  // A failed subscription is retried, so a waiter waits for the retry rather than failing.
  const waiters: { position: bigint; resolve: () => void }[] = [];

  const release = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (waiter.position > position) continue;
      waiter.resolve();
      waiters.splice(i, 1);
    }
  };

  const subscription: Subscription = subscribeFromCheckpoint(store, {
    name: 'order projection',
    checkpoint: () => readModel.checkpoint(),
    async handle(events) {
      await readModel.apply(events);
      const last = events[events.length - 1];
      if (last) position = last.position;
      release();
    },
    log: onError,
  });

  return {
    get position() {
      return position;
    },
    waitFor(target) {
      if (target <= position) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ position: target, resolve }));
    },
    async stop() {
      await subscription.stop();
    },
  };
}
