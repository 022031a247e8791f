// Keeps a read model up to date from the log and lets a command wait until its own events are
// visible (read-your-writes). A read model found damaged while running is rebuilt from the log; while
// it is being built from empty, it is not `available`, so requests answer 503 rather than 404s for
// orders it has not reached yet.
import type { EventStore, RecordedEvent } from '../../eventstore/event-store.js';
import { followLog, type Follower } from '../../eventstore/follow-log.js';
import { PositionWaiters } from '../../eventstore/position-waiters.js';
import { isDamage } from '../../storage/damaged-storage.js';

export interface ProjectedReadModel {
  checkpoint(): Promise<bigint | undefined>;
  apply(events: readonly RecordedEvent[]): Promise<void>;
  reset(): Promise<void>;
}

export interface Projector {
  /** Resolves once every event up to `position` is applied. */
  waitFor(position: bigint): Promise<void>;
  readonly position: bigint;
  /** False while the read model is being built from empty and has not reached the log's head of that moment. */
  readonly available: boolean;
  /** Empties the read model and builds it again from the log; one rebuild at a time. */
  rebuild(reason: string): Promise<void>;
  /** Resolves once the read model is available and has applied every event up to `target`: after a rebuild under way, the rebuilt one. */
  caughtUp(target: bigint): Promise<void>;
  stop(): Promise<void>;
}

export async function startProjector(store: EventStore, readModel: ProjectedReadModel, onError: (message: string, error?: unknown) => void): Promise<Projector> {
  // A failure is retried (followLog), so a waiter waits for the retry rather than failing.
  const applied = new PositionWaiters((await readModel.checkpoint()) ?? -1n);
  // Built from empty: unavailable until it has reached what the log held when it started.
  let catchingUpTo = applied.position < 0n ? ((await store.headPosition()) ?? -1n) : -1n;
  let rebuilding: Promise<void> | undefined;
  let stopped = false;

  const follow = (): Promise<Follower> =>
    followLog({
      store,
      name: 'order projection',
      loadCheckpoint: () => readModel.checkpoint(),
      retryDelayMs: 1000,
      async handle(events) {
        try {
          await readModel.apply(events);
        } catch (error) {
          // Not awaited: the rebuild stops this very follower, which waits for this handler to end.
          if (isDamage(error)) void rebuild(`applying events failed: ${(error as Error).message}`);
          throw error;
        }
        const last = events[events.length - 1];
        if (last) applied.reached(last.position);
      },
      log: onError,
    });

  let follower = await follow();

  function rebuild(reason: string): Promise<void> {
    rebuilding ??= (async () => {
      onError(`order read model: ${reason}; rebuilding it from the log`);
      const head = (await store.headPosition()) ?? -1n;
      catchingUpTo = head < 0n ? -1n : head;
      await follower.stop();
      applied.restart();
      if (stopped) return;
      try {
        await readModel.reset();
      } catch (error) {
        // Following again finds the damage again, and that asks for another rebuild.
        onError('order read model: emptying it for the rebuild failed', error);
      }
      follower = await follow();
    })().finally(() => {
      rebuilding = undefined;
    });
    return rebuilding;
  }

  return {
    get position() {
      return applied.position;
    },
    get available() {
      return rebuilding === undefined && applied.position >= catchingUpTo;
    },
    rebuild,
    async caughtUp(target) {
      // A rebuild restarts the waiters only once the old follower has stopped: wait for that first, and
      // again should another rebuild begin meanwhile.
      do {
        await rebuilding?.catch(() => {});
        await applied.waitFor(target > catchingUpTo ? target : catchingUpTo);
      } while (rebuilding !== undefined);
    },
    waitFor: (target) => applied.waitFor(target),
    async stop() {
      stopped = true;
      await rebuilding?.catch(() => {});
      await follower.stop();
    },
  };
}
