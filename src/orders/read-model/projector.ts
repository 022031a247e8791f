// Keeps a read model up to date from the log and lets a command wait until its own events are
// visible (read-your-writes). A read model found damaged while running is rebuilt from the log; while
// it is being built from empty, it is not `available`, so requests answer 503 rather than 404s for
// orders it has not reached yet.
//
// With a lease (replicas sharing one read model), one replica at a time projects: the holder of the
// lease follows the log and writes; the others read the read model's checkpoint to know what it shows,
// and take over when the holder's lease runs out. So the read model is written once per event whatever
// the number of replicas, and a submit on any replica still answers only once its order can be read.
import type { ClaimStore } from '../../checkpoints/claim-store.js';
import { holdSingletonLease, type SingletonLease } from '../../checkpoints/singleton-lease.js';
import type { EventStore, RecordedEvent } from '../../eventstore/event-store.js';
import { followLog, type Follower, type Log } from '../../eventstore/follow-log.js';
import { PositionWaiters } from '../../eventstore/position-waiters.js';
import { answersWithin } from '../../eventstore/answers-within.js';
import { isDamage } from '../../storage/damaged-storage.js';
import { ORDER_PROJECTION, progressAnnouncer } from './projector-progress.js';

export interface ProjectedReadModel {
  checkpoint(): Promise<bigint | undefined>;
  /** Resolves with how many of the events were applied (the rest were at or before its checkpoint). */
  apply(events: readonly RecordedEvent[]): Promise<number>;
  reset(): Promise<void>;
}

export interface Projector {
  /** Resolves once every event up to `position` is applied. */
  waitFor(position: bigint): Promise<void>;
  readonly position: bigint;
  /** False while the read model is being built from empty and has not reached the log's head of that moment. */
  readonly available: boolean;
  /** Whether this replica is the one projecting (always, without a lease). */
  readonly projecting: boolean;
  /** Empties the read model and builds it again from the log; one rebuild at a time. */
  rebuild(reason: string): Promise<void>;
  /** Resolves once the read model is available and has applied every event up to `target`: after a rebuild under way, the rebuilt one. */
  caughtUp(target: bigint): Promise<void>;
  stop(): Promise<void>;
}

export interface ProjectorOptions {
  /** Replicas share the read model: only the holder of this lease projects. */
  lease?: { claims: ClaimStore; key: string; holder: string; leaseMs: number };
  /** How often a replica that does not project reads the checkpoint while someone waits for it. */
  checkpointPollMs?: number;
  /** Events applied to the read model by this replica (its writes). */
  onApplied?(events: number): void;
}

// While nobody waits, a replica that does not project still reads the checkpoint now and then, for the
// lag it reports and so that `available` stays true to the read model.
const IDLE_POLL_MS = 1000;
// While someone waits and the holder's announcements are heard, the checkpoint is read only as the
// safety net for an announcement lost: the announcement is what answers the waiter.
const ANNOUNCED_WAIT_POLL_MS = 250;

export async function startProjector(store: EventStore, readModel: ProjectedReadModel, onError: Log, options: ProjectorOptions = {}): Promise<Projector> {
  const pollMs = options.checkpointPollMs ?? 20;
  // A failure is retried (followLog), so a waiter waits for the retry rather than failing.
  const applied = new PositionWaiters((await readModel.checkpoint()) ?? -1n);
  // Built from empty: unavailable until it has reached what the log held when it started.
  let catchingUpTo = applied.position < 0n ? ((await store.headPosition()) ?? -1n) : -1n;
  let rebuilding: Promise<void> | undefined;
  let stopped = false;
  let follower: Follower | undefined;
  let polling: NodeJS.Timeout | undefined;
  const signals = options.lease ? store.progress : undefined;
  const announce = signals && progressAnnouncer(signals, (error) => onError('order projection: announcing its progress failed', error, 'warn'));

  const follow = (): Promise<Follower> =>
    followLog({
      store,
      name: 'order projection',
      loadCheckpoint: () => readModel.checkpoint(),
      retryDelayMs: 1000,
      async handle(events) {
        let count: number;
        try {
          count = await readModel.apply(events);
        } catch (error) {
          // Not awaited: the rebuild stops this very follower, which waits for this handler to end.
          if (isDamage(error)) void rebuild(`applying events failed: ${(error as Error).message}`);
          throw error;
        }
        options.onApplied?.(count);
        const last = events[events.length - 1];
        if (last) {
          applied.reached(last.position);
          announce?.(last.position);
        }
      },
      log: onError,
    });

  // Not projecting: what the read model shows is its checkpoint, read again while anyone waits for it.
  const pollCheckpoint = async (): Promise<void> => {
    polling = undefined;
    if (stopped || follower) return;
    try {
      const checkpoint = await readModel.checkpoint();
      if (checkpoint === undefined) applied.restart();
      else if (checkpoint !== applied.position) applied.reached(checkpoint);
    } catch (error) {
      onError('order projection: reading the read model checkpoint failed', error, 'warn');
    }
    schedulePoll();
  };
  const schedulePoll = (): void => {
    if (stopped || follower || polling) return;
    const waitingMs = signals?.listening ? Math.max(pollMs, ANNOUNCED_WAIT_POLL_MS) : pollMs;
    polling = setTimeout(() => void pollCheckpoint(), applied.waiting > 0 ? waitingMs : IDLE_POLL_MS);
    polling.unref();
  };

  const startFollowing = async (): Promise<void> => {
    clearTimeout(polling);
    polling = undefined;
    if (stopped || follower) return;
    follower = await follow();
  };
  const stopFollowing = async (): Promise<void> => {
    const current = follower;
    follower = undefined;
    await current?.stop();
    schedulePoll();
  };

  // Not projecting: the holder's announcements move what this replica knows the read model shows. A
  // lower position than known means the holder rebuilt it: the checkpoint is read at once.
  const stopListening = signals?.listen(ORDER_PROJECTION, (position) => {
    if (follower || stopped) return;
    if (position > applied.position) applied.reached(position);
    else if (position < applied.position) {
      clearTimeout(polling);
      polling = undefined;
      void pollCheckpoint();
    }
  });

  let lease: SingletonLease | undefined;
  if (options.lease) {
    const { claims, key, holder, leaseMs } = options.lease;
    lease = await holdSingletonLease({
      claims, key, holder, leaseMs, log: onError,
      // A replica that cannot read the log (partitioned from it) would hold the read model still for everyone.
      able: () => answersWithin(store.headPosition(), Math.max(100, Math.floor(leaseMs / 3))),
      onChange: async (held) => {
        onError(held ? 'order projection: this replica projects the read model now (it holds the lease)' : 'order projection: another replica projects the read model now', undefined, 'info');
        await (held ? startFollowing() : stopFollowing());
      },
    });
    if (!lease.held) schedulePoll();
  } else {
    await startFollowing();
  }

  function rebuild(reason: string): Promise<void> {
    // The holder rebuilds; a replica that does not project leaves it to the holder, which finds the same
    // damage when it next writes there (and the scrubber on its pass). A rebuild under way has stopped
    // its follower: another call joins it.
    if (rebuilding) return rebuilding;
    if (!follower) {
      onError(`order read model: ${reason}; the replica that projects it rebuilds it`, undefined, 'warn');
      return Promise.resolve();
    }
    rebuilding = (async () => {
      onError(`order read model: ${reason}; rebuilding it from the log`);
      const head = (await store.headPosition()) ?? -1n;
      catchingUpTo = head < 0n ? -1n : head;
      await follower?.stop();
      follower = undefined;
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

  function waitFor(target: bigint): Promise<void> {
    const waited = applied.waitFor(target);
    // A replica that does not project reads the checkpoint soon rather than at its idle pace.
    if (!follower && polling && applied.waiting === 1) {
      clearTimeout(polling);
      polling = undefined;
      schedulePoll();
    }
    return waited;
  }

  return {
    get position() {
      return applied.position;
    },
    get available() {
      return rebuilding === undefined && applied.position >= catchingUpTo;
    },
    get projecting() {
      return follower !== undefined;
    },
    rebuild,
    async caughtUp(target) {
      // A rebuild restarts the waiters only once the old follower has stopped: wait for that first, and
      // again should another rebuild begin meanwhile.
      do {
        await rebuilding?.catch(() => {});
        await waitFor(target > catchingUpTo ? target : catchingUpTo);
      } while (rebuilding !== undefined);
    },
    waitFor,
    async stop() {
      stopped = true;
      stopListening?.();
      clearTimeout(polling);
      await rebuilding?.catch(() => {});
      await lease?.release();
      await follower?.stop();
    },
  };
}

