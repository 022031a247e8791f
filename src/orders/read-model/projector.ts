// Keeps a read model up to date from the log and lets a command wait until its own events are
// visible (read-your-writes). A read model found damaged while running (by the projector's own writes
// and checkpoint reads, or by a read: rebuildAfterDamage) is rebuilt from the log; while it is being
// built from empty, it is not `available`, and requests read one order from the log meanwhile
// (served-read-model.ts). The projector writes the read model and knows nothing of who reads it.
//
// With a lease (replicas sharing one read model), one replica at a time projects: the holder of the
// lease follows the log and writes; the others read the read model's checkpoint to know what it shows,
// and take over when the holder's lease runs out. So the read model is written once per event whatever
// the number of replicas, and a submit on any replica still answers only once its order can be read.
import type { WorkLeaseStore } from '../../leases/work-lease-store.js';
import { holdSingletonLease, type SingletonLease } from '../../leases/singleton-lease.js';
import type { EventStore, RecordedEvent } from '../../eventstore/event-store.js';
import { followLog, type Follower, type Log } from '../../eventstore/follow-log.js';
import { PositionWaiters } from '../../eventstore/position-waiters.js';
import { answersWithin } from '../../leases/answers-within.js';
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
  /** The read model's storage was found damaged: it is rebuilt, and told once per rebuild however many find it. */
  rebuildAfterDamage(error: Error): void;
  /** Resolves once the read model is available and has applied every event up to `target`: after a rebuild under way, the rebuilt one. */
  caughtUp(target: bigint): Promise<void>;
  stop(): Promise<void>;
}

export interface ProjectorOptions {
  /** Replicas share the read model: only the holder of this lease projects. */
  lease?: { store: WorkLeaseStore; key: string; holder: string; leaseMs: number };
  /** How often a replica that does not project reads the checkpoint while someone waits for it. */
  checkpointPollMs?: number;
  /** Events applied to the read model by this replica (its writes). */
  onApplied?(events: number): void;
  /** Once per rebuild that damage started (rebuildAfterDamage): the warning and the repair counter. */
  rebuildingAfterDamage?(error: Error): void;
}

// While nobody waits, a replica that does not project still reads the checkpoint now and then, for the
// lag it reports and so that `available` stays true to the read model.
const IDLE_POLL_MS = 1000;
// While someone waits and the holder's announcements are heard, the checkpoint is read only as the
// safety net for an announcement lost: the announcement is what answers the waiter.
const ANNOUNCED_WAIT_POLL_MS = 250;

export async function startProjector(
  store: EventStore,
  readModel: ProjectedReadModel,
  onError: Log,
  options: ProjectorOptions = {},
): Promise<Projector> {
  // A failure is retried (followLog), so a waiter waits for the retry rather than failing.
  const applied = new PositionWaiters((await readModel.checkpoint()) ?? -1n);
  // Built from empty: unavailable until it has reached what the log held when it started.
  const catchingUpTo = applied.position < 0n ? ((await store.headPosition()) ?? -1n) : -1n;
  const projector = new LogProjector(store, readModel, onError, options, applied, catchingUpTo);
  await projector.start();
  return projector;
}

/**
 * One replica's projector. It follows the log while it projects (always without a lease, while it
 * holds the lease with one), and polls the read model's checkpoint while it does not.
 */
class LogProjector implements Projector {
  readonly #pollMs: number;
  #follower: Follower | undefined;
  #polling: NodeJS.Timeout | undefined;
  #rebuilding: Promise<void> | undefined;
  // The rebuild that damage started last: the same damage found again joins it, told once.
  #rebuildAfterDamage: Promise<void> | undefined;
  #lease: SingletonLease | undefined;
  #stopped = false;
  // With a lease, the log's progress signals: the holder announces how far it has applied, the others listen.
  readonly #signals: EventStore['progress'];
  readonly #announce: ((position: bigint) => void) | undefined;
  #stopListening: (() => void) | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly readModel: ProjectedReadModel,
    private readonly onError: Log,
    private readonly options: ProjectorOptions,
    private readonly applied: PositionWaiters,
    /** Unavailable until the read model has reached this position (-1: it has nothing to catch up with). */
    private catchingUpTo: bigint,
  ) {
    this.#pollMs = options.checkpointPollMs ?? 20;
    this.#signals = options.lease ? store.progress : undefined;
    this.#announce =
      this.#signals &&
      progressAnnouncer(this.#signals, (error) => onError('order projection: announcing its progress failed', error, 'warn'));
  }

  get position(): bigint {
    return this.applied.position;
  }

  get available(): boolean {
    return this.#rebuilding === undefined && this.applied.position >= this.catchingUpTo;
  }

  get projecting(): boolean {
    return this.#follower !== undefined;
  }

  async start(): Promise<void> {
    this.#stopListening = this.#signals?.listen(ORDER_PROJECTION, this.#announced);
    if (!this.options.lease) return this.#startFollowing();
    const { store: leases, key, holder, leaseMs } = this.options.lease;
    this.#lease = await holdSingletonLease({
      store: leases,
      key,
      holder,
      leaseMs,
      log: this.onError,
      // A replica that cannot read the log (partitioned from it) would hold the read model still for everyone.
      able: () => answersWithin(this.store.headPosition(), Math.max(100, Math.floor(leaseMs / 3))),
      onChange: async (held) => {
        this.onError(
          held
            ? 'order projection: this replica projects the read model now (it holds the lease)'
            : 'order projection: another replica projects the read model now',
          undefined,
          'info',
        );
        await (held ? this.#startFollowing() : this.#stopFollowing());
      },
    });
    if (!this.#lease.held) this.#schedulePoll();
  }

  readonly rebuild = (reason: string): Promise<void> => {
    // The holder rebuilds; a replica that does not project leaves it to the holder, which finds the same
    // damage when it next writes there (and the scrubber on its pass). A rebuild under way has stopped
    // its follower: another call joins it.
    if (this.#rebuilding) return this.#rebuilding;
    if (!this.#follower) {
      this.onError(`order read model: ${reason}; the replica that projects it rebuilds it`, undefined, 'warn');
      return Promise.resolve();
    }
    this.#rebuilding = this.#rebuildFromEmpty(reason).finally(() => {
      this.#rebuilding = undefined;
    });
    return this.#rebuilding;
  };

  readonly rebuildAfterDamage = (error: Error): void => {
    const rebuild = this.rebuild(error.message);
    if (rebuild === this.#rebuildAfterDamage) return;
    this.#rebuildAfterDamage = rebuild;
    this.options.rebuildingAfterDamage?.(error);
  };

  /** Damage a read-model call meets starts its rebuild, and is thrown on. */
  async #noting<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isDamage(error)) this.rebuildAfterDamage(error as Error);
      throw error;
    }
  }

  readonly waitFor = (target: bigint): Promise<void> => {
    const waited = this.applied.waitFor(target);
    // A replica that does not project reads the checkpoint soon rather than at its idle pace.
    if (!this.#follower && this.#polling && this.applied.waiting === 1) {
      clearTimeout(this.#polling);
      this.#polling = undefined;
      this.#schedulePoll();
    }
    return waited;
  };

  async caughtUp(target: bigint): Promise<void> {
    // A rebuild restarts the waiters only once the old follower has stopped: wait for that first, and
    // again should another rebuild begin meanwhile.
    do {
      await this.#rebuilding?.catch(() => {});
      await this.waitFor(target > this.catchingUpTo ? target : this.catchingUpTo);
    } while (this.#rebuilding !== undefined);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopListening?.();
    clearTimeout(this.#polling);
    await this.#rebuilding?.catch(() => {});
    await this.#lease?.release();
    await this.#follower?.stop();
  }

  async #rebuildFromEmpty(reason: string): Promise<void> {
    this.onError(`order read model: ${reason}; rebuilding it from the log`);
    const head = (await this.store.headPosition()) ?? -1n;
    this.catchingUpTo = head < 0n ? -1n : head;
    await this.#follower?.stop();
    this.#follower = undefined;
    this.applied.restart();
    if (this.#stopped) return;
    try {
      await this.readModel.reset();
    } catch (error) {
      // Following again finds the damage again, and that asks for another rebuild.
      this.onError('order read model: emptying it for the rebuild failed', error);
    }
    this.#follower = await this.#follow();
  }

  #follow(): Promise<Follower> {
    return followLog({
      store: this.store,
      name: 'order projection',
      loadCheckpoint: () => this.#noting(() => this.readModel.checkpoint()),
      retryDelayMs: 1000,
      handle: async (events) => {
        // A rebuild that damage starts stops this very follower, which waits for this handler to end: not awaited.
        const count = await this.#noting(() => this.readModel.apply(events));
        this.options.onApplied?.(count);
        const last = events[events.length - 1];
        if (last) {
          this.applied.reached(last.position);
          this.#announce?.(last.position);
        }
      },
      log: this.onError,
    });
  }

  async #startFollowing(): Promise<void> {
    clearTimeout(this.#polling);
    this.#polling = undefined;
    if (this.#stopped || this.#follower) return;
    this.#follower = await this.#follow();
  }

  async #stopFollowing(): Promise<void> {
    const current = this.#follower;
    this.#follower = undefined;
    await current?.stop();
    this.#schedulePoll();
  }

  // Not projecting: what the read model shows is its checkpoint, read again while anyone waits for it.
  async #pollCheckpoint(): Promise<void> {
    this.#polling = undefined;
    if (this.#stopped || this.#follower) return;
    try {
      const checkpoint = await this.#noting(() => this.readModel.checkpoint());
      if (checkpoint === undefined) this.applied.restart();
      else if (checkpoint !== this.applied.position) this.applied.reached(checkpoint);
    } catch (error) {
      this.onError('order projection: reading the read model checkpoint failed', error, 'warn');
    }
    this.#schedulePoll();
  }

  // Not projecting: the holder's announcements move what this replica knows the read model shows. A
  // lower position than known means the holder rebuilt it: the checkpoint is read at once.
  readonly #announced = (position: bigint): void => {
    if (this.#follower || this.#stopped) return;
    if (position > this.applied.position) this.applied.reached(position);
    else if (position < this.applied.position) {
      clearTimeout(this.#polling);
      this.#polling = undefined;
      void this.#pollCheckpoint();
    }
  };

  #schedulePoll(): void {
    if (this.#stopped || this.#follower || this.#polling) return;
    const waitingMs = this.#signals?.listening ? Math.max(this.#pollMs, ANNOUNCED_WAIT_POLL_MS) : this.#pollMs;
    this.#polling = setTimeout(() => void this.#pollCheckpoint(), this.applied.waiting > 0 ? waitingMs : IDLE_POLL_MS);
    this.#polling.unref();
  }
}
