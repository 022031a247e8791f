/**
 * The low-water mark of a consumer that finishes events out of order, its checkpoint: the last position
 * up to which every event it began is finished. Restarting from it redoes at most the unfinished ones.
 */
export class LowWaterMark {
  private readonly begun: bigint[] = [];
  private head = 0;
  private readonly finished = new Set<bigint>();

  /** Positions must be begun in increasing order. */
  begin(position: bigint): void {
    this.begun.push(position);
  }

  /** Marks one finished; returns the new mark when it moved. */
  finish(position: bigint): bigint | undefined {
    this.finished.add(position);
    let mark: bigint | undefined;
    while (this.head < this.begun.length && this.finished.has(this.begun[this.head]!)) {
      mark = this.begun[this.head]!;
      this.finished.delete(mark);
      this.head += 1;
    }
    // drop the finished prefix now and then, so memory follows what is still open
    if (this.head > 1024 && this.head * 2 > this.begun.length) {
      this.begun.splice(0, this.head);
      this.head = 0;
    }
    return mark;
  }
}
