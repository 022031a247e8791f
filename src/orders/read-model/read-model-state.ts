// Whether the order read model can answer just now, and read-your-writes around its rebuilds. While it is
// built from the log (from empty at start, or again after damage) it is not current: reads of one order
// are answered from the log (log-served-read-model.ts), and a list waits for the rebuild to reach the
// log's head. A command's change is then visible at once, through the log, and the read model counts as
// current again only once it holds that change too.
import type { EventStore } from '../../eventstore/event-store.js';
import { NotVisibleInTime, visibleWithin } from '../../eventstore/visibility-deadline.js';
import type { Projector } from './projector.js';

export interface ReadModelState {
  /** Reads may go to the read model: it is not being rebuilt, and holds every change a command was told is visible. */
  current(): boolean;
  /**
   * Resolves once the read model is current and holds the log up to its head of now. Waits as long as the
   * rebuild moves on; NotVisibleInTime when it has not moved for the visibility deadline (its storage is
   * down: the truth cannot be listed just now).
   */
  caughtUp(): Promise<void>;
  /** A read found the read model's storage damaged: it is rebuilt from the log, once however many reads find it. */
  damaged(error: Error): void;
  /** Read-your-writes for a command that appended at `position`. */
  visible(position: bigint): Promise<void>;
}

export interface ReadModelStateOptions {
  /** ORDERS_VISIBLE_WITHIN_MS. */
  visibleWithinMs: number;
  /** Once per rebuild that damage found at a read started: the warning and the repair counter. */
  rebuildingAfterDamage(error: Error): void;
}

/**
 * `projectorOnceStarted` is asked for when needed: the projector is started after the read model this
 * state serves, and reads that model's checkpoint as it starts (damage found then is thrown, not rebuilt).
 */
export function readModelState(
  store: EventStore,
  projectorOnceStarted: () => Projector | undefined,
  options: ReadModelStateOptions,
): ReadModelState {
  const projector = (): Projector => {
    const started = projectorOnceStarted();
    if (!started) throw new Error('the order projector has not started yet');
    return started;
  };
  // The highest position a command was told is visible while the read model was not current.
  let promised = -1n;
  let rebuildAfterDamage: Promise<void> | undefined;
  const current = () => projector().available && projector().position >= promised;
  const promise = (position: bigint) => {
    if (position > promised) promised = position;
  };

  return {
    current,
    async caughtUp() {
      const head = (await store.headPosition()) ?? -1n;
      const target = head > promised ? head : promised;
      const caughtUp = projector().caughtUp(target);
      for (let seen = projector().position; ; seen = projector().position) {
        try {
          return await visibleWithin(caughtUp, options.visibleWithinMs, 'the order list');
        } catch (error) {
          if (!(error instanceof NotVisibleInTime) || projector().position === seen) throw error;
        }
      }
    },
    damaged(error) {
      if (!projectorOnceStarted()) return;
      const rebuild = projector().rebuild(error.message);
      if (rebuild === rebuildAfterDamage) return;
      rebuildAfterDamage = rebuild;
      options.rebuildingAfterDamage(error);
    },
    async visible(position) {
      if (!current()) return promise(position);
      try {
        await visibleWithin(projector().waitFor(position), options.visibleWithinMs, 'the change');
      } catch (error) {
        // A rebuild began while this waited: reads come from the log now, and they show the change.
        if (!(error instanceof NotVisibleInTime) || current()) throw error;
        promise(position);
      }
    },
  };
}
