// The consolidation's checkpoint. Its orders are done out of order (most the moment they are read,
// a window's orders when it is written out), so the checkpoint is the low-water mark of the
// positions begun: it stays before the first order of the oldest window not yet written out, and a
// restart reads the log again from there. Most orders are done the moment they are read, so the
// mark is written at most once a second (checkpointWriter), not once per order.
import type { CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import { LowWaterMark } from '../checkpoints/low-water-mark.js';

export class OrderProgress {
  private readonly marks = new LowWaterMark();
  private lastBegun: bigint | undefined;
  private stopped = false;

  constructor(private readonly checkpoint: CheckpointWriter) {}

  /** An order read from the log; a batch read again begins nothing twice. */
  begin(position: bigint): void {
    if (this.lastBegun !== undefined && position <= this.lastBegun) return;
    this.marks.begin(position);
    this.lastBegun = position;
  }

  done(position: bigint): void {
    const mark = this.marks.finish(position);
    if (mark === undefined || this.stopped) return;
    this.checkpoint.save(mark);
  }

  /** Saves nothing more; resolves once the marks given so far are written. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.checkpoint.settled();
  }
}
