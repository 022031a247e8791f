// Orders waiting for the planner, one line per company group, served in turn: a group that submits
// a thousand orders waits behind its own orders, not in front of everyone else's. Within a group,
// orders keep the log's order. The scan for the next group is linear in the groups waiting, which
// master data keeps to a handful.
export class FairQueue<T> {
  // The group served longest ago goes next. A group that had nothing waiting is forgotten, so a
  // newcomer goes before a group that was just served: a group with one order waits at most for
  // the order being planned, however many another group has queued.
  private readonly lines = new Map<string, { items: T[]; head: number; lastServed: number }>();
  private served = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(group: string, item: T): void {
    const line = this.lines.get(group);
    if (line) line.items.push(item);
    else this.lines.set(group, { items: [item], head: 0, lastServed: -1 });
    this.count += 1;
  }

  shift(): T | undefined {
    let turn: string | undefined;
    let oldest = Infinity;
    for (const [group, line] of this.lines) {
      if (line.lastServed < oldest) {
        oldest = line.lastServed;
        turn = group;
      }
    }
    if (turn === undefined) return undefined;
    const line = this.lines.get(turn)!;
    const item = line.items[line.head]!;
    line.head += 1;
    line.lastServed = this.served++;
    if (line.head === line.items.length) this.lines.delete(turn);
    else if (line.head > 1024 && line.head * 2 > line.items.length) {
      line.items.splice(0, line.head);
      line.head = 0;
    }
    this.count -= 1;
    return item;
  }

  /** Waiting items per group, for metrics. */
  depths(): Map<string, number> {
    return new Map([...this.lines].map(([group, line]) => [group, line.items.length - line.head]));
  }
}

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
