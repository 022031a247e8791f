// The checkpoint of a consumer that moves it many times a second (a reactor finishing orders one by
// one): one write at a time, always of the newest mark, and at most one a `minIntervalMs` (a second by
// default) and one a turn of the event loop. Each write is a transaction of its own on the checkpoint
// file, or a round trip to MongoDB, and the planning and consolidation reactors of every replica move
// theirs with every order they finish. A mark not yet written when the process dies costs only a
// re-read of events that were handled already.
import type { CheckpointStore } from './checkpoint-store.js';

export interface CheckpointWriter {
  /** Marks must not move back. Written at the end of this turn, or after the write in progress and the pause. */
  save(position: bigint): void;
  /** Writes the newest mark now (no pause), and resolves once every mark given so far is written (or its write failed and was reported). */
  settled(): Promise<void>;
}

export function checkpointWriter(
  checkpoints: CheckpointStore,
  consumer: string,
  onError: (error: unknown) => void,
  options: { minIntervalMs?: number; now?: () => number } = {},
): CheckpointWriter {
  const minIntervalMs = options.minIntervalMs ?? 1000;
  const now = options.now ?? Date.now;
  let unsaved: bigint | undefined;
  let writing: Promise<void> = Promise.resolve();
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let endPause: (() => void) | undefined;
  // settled() was called: the writes it waits for go without their pause
  let hurry = false;
  // until the turn ends, and until minIntervalMs after the last write began; settled() cuts it short
  const pause = (): Promise<void> =>
    new Promise((resolve) => {
      const ms = hurry ? 0 : lastWriteAt + minIntervalMs - now();
      if (ms <= 0) return void setImmediate(resolve);
      const timer = setTimeout(() => {
        endPause = undefined;
        resolve();
      }, ms);
      endPause = () => {
        clearTimeout(timer);
        endPause = undefined;
        resolve();
      };
    });
  return {
    save(position) {
      const queued = unsaved !== undefined;
      unsaved = position;
      if (queued) return;
      writing = writing.then(pause).then(async () => {
        const next = unsaved!;
        unsaved = undefined;
        lastWriteAt = now();
        try {
          await checkpoints.save(consumer, next);
        } catch (error) {
          onError(error);
        }
      });
    },
    settled() {
      hurry = true;
      endPause?.();
      return writing.then(() => {
        hurry = false;
      });
    },
  };
}
