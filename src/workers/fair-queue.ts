// Work waiting for its turn, one line per company group, served in turn: a group that submits a
// thousand orders (or asks for a thousand PDFs) waits behind its own work, not in front of everyone
// else's. Within a group, items keep the order they came in. The scan for the next group is linear
// in the groups waiting, which master data keeps to a handful.
export class FairQueue<T> {
  // The group served longest ago goes next, and one never served before everyone. A group's last
  // turn is remembered while it has nothing waiting: a group that sends its jobs one at a time, each
  // as the last one starts, still waits its turn behind a newcomer.
  private readonly lines = new Map<string, { items: T[]; head: number }>();
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(group: string, item: T): void {
    const line = this.lines.get(group);
    if (line) line.items.push(item);
    else this.lines.set(group, { items: [item], head: 0 });
    this.count += 1;
  }

  /** Puts an item back at the head of its group's line: one taken earlier and not done (another replica held it). */
  pushFront(group: string, item: T): void {
    const line = this.lines.get(group);
    if (!line) this.lines.set(group, { items: [item], head: 0 });
    else if (line.head > 0) line.items[--line.head] = item;
    else line.items.unshift(item);
    this.count += 1;
  }

  shift(): T | undefined {
    let turn: string | undefined;
    let oldest = Infinity;
    for (const group of this.lines.keys()) {
      const last = this.lastServed.get(group) ?? -1;
      if (last < oldest) {
        oldest = last;
        turn = group;
      }
    }
    if (turn === undefined) return undefined;
    const line = this.lines.get(turn)!;
    const item = line.items[line.head]!;
    line.head += 1;
    this.lastServed.set(turn, this.served++);
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

  /** Everything waiting, taken out (a closing pool fails it). */
  drain(): T[] {
    const all = [...this.lines.values()].flatMap((line) => line.items.slice(line.head));
    this.lines.clear();
    this.count = 0;
    return all;
  }
}
