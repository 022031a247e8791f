// The checkpoint of a consumer that moves it many times a second (a reactor finishing orders one by
// one): one write per turn of the event loop at most, always of the newest mark, one write at a time.
// Each write is a transaction of its own on the checkpoint file (a WAL frame, a page written), and the
// planning and consolidation reactors move theirs with every order they finish. A mark
// not yet written when the process dies costs only a re-read of events that were handled already.
import type { CheckpointStore } from './checkpoint-store.js';

export interface CheckpointWriter {
  /** Marks must not move back. Written at the end of this turn, or after the write in progress. */
  save(position: bigint): void;
  /** Resolves once every mark given so far is written (or its write failed and was reported). */
  settled(): Promise<void>;
}

export function checkpointWriter(checkpoints: CheckpointStore, consumer: string, onError: (error: unknown) => void): CheckpointWriter {
  let unsaved: bigint | undefined;
  let writing: Promise<void> = Promise.resolve();
  const endOfTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    save(position) {
      const queued = unsaved !== undefined;
      unsaved = position;
      if (queued) return;
      writing = writing.then(endOfTurn).then(async () => {
        const next = unsaved!;
        unsaved = undefined;
        try {
          await checkpoints.save(consumer, next);
        } catch (error) {
          onError(error);
        }
      });
    },
    settled: () => writing,
  };
}
