/**
 * The checkpoint of a consumer that finishes events out of order: the last position up to which
 * every event taken in is finished. Restarting from it redoes at most the unfinished ones.
 */
export class CompletionMark {
  private readonly taken: bigint[] = [];
  private head = 0;
  private readonly finished = new Set<bigint>();

  /** Positions must be taken in increasing order. */
  take(position: bigint): void {
    this.taken.push(position);
  }

  /** Marks one finished; returns the new checkpoint when it moved. */
  finish(position: bigint): bigint | undefined {
    this.finished.add(position);
    let mark: bigint | undefined;
    while (this.head < this.taken.length && this.finished.has(this.taken[this.head]!)) {
      mark = this.taken[this.head]!;
      this.finished.delete(mark);
      this.head += 1;
    }
    // drop the finished prefix now and then, so memory follows what is still open
    if (this.head > 1024 && this.head * 2 > this.taken.length) {
      this.taken.splice(0, this.head);
      this.head = 0;
    }
    return mark;
  }
}
