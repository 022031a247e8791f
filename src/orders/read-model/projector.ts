// Keeps a read model up to date from the log and lets a command wait until its own events are
// visible (read-your-writes).
import type { EventStore, RecordedEvent } from '../../eventstore/event-store.js';
import { followLog } from '../../eventstore/follow-log.js';

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
  // A failure is retried (followLog), so a waiter waits for the retry rather than failing.
  const waiters: { position: bigint; resolve: () => void }[] = [];

  const release = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (waiter.position > position) continue;
      waiter.resolve();
      waiters.splice(i, 1);
    }
  };

  const follower = await followLog({
    store,
    name: 'order projection',
    loadCheckpoint: () => readModel.checkpoint(),
    retryDelayMs: 1000,
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
      await follower.stop();
    },
  };
}
