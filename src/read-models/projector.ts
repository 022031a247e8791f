// Keeps a read model up to date from the log and lets a command wait until its own events are
// visible (read-your-writes).
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/event-store.js';

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

export async function startProjector(store: EventStore, readModel: ProjectedReadModel, onError: (error: unknown) => void): Promise<Projector> {
  let position = (await readModel.checkpoint()) ?? -1n;
  let failure: unknown;
  const waiters: { position: bigint; resolve: () => void; reject: (error: unknown) => void }[] = [];

  const release = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (failure !== undefined) waiter.reject(failure);
      else if (waiter.position <= position) waiter.resolve();
      else continue;
      waiters.splice(i, 1);
    }
  };

  const subscription: Subscription = store.subscribe({
    ...(position >= 0n ? { after: position } : {}),
    async handle(events) {
      await readModel.apply(events);
      const last = events[events.length - 1];
      if (last) position = last.position;
      release();
    },
    onError(error) {
      failure = error;
      release();
      onError(error);
    },
  });

  return {
    get position() {
      return position;
    },
    waitFor(target) {
      if (failure !== undefined) return Promise.reject(failure);
      if (target <= position) return Promise.resolve();
      return new Promise((resolve, reject) => waiters.push({ position: target, resolve, reject }));
    },
    async stop() {
      await subscription.stop();
    },
  };
}
