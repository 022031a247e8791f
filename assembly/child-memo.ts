// What one search run's beams found for each child they tried. The beams of a run (width 2, 4,
// 8, ...) all start from the same root, and a node is its moves from the root: the same moves give
// the same load, the same candidates and the same greedy completion. So a wider beam meets again
// most of what the narrower ones tried (the root's children, and the nodes both kept), and a child
// found here is not run again: its greedy value, the placements its run took and their moves are
// the run's, as if it ran. A node is named by its entry (entry + 1; the root is 0), and an entry is
// keyed by its parent's name and the block, so a name stands for one sequence of moves, exactly.
import { room } from './room';

/** The most entries a run keeps: past them a child runs as without the memo, and its own children are not kept. */
const MAX_ENTRIES: i32 = 1 << 17;
/** The most path slots (two per move) a run keeps. */
const MAX_PATH_SLOTS: i32 = 1 << 22;

export class ChildMemo {
  /** Per slot: its entry; a slot holds one only while its stamp is the run's (a new run needs no clearing). */
  private slotEntry: StaticArray<i32> = new StaticArray<i32>(1 << 12);
  private slotStamp: StaticArray<i32> = new StaticArray<i32>(1 << 12);
  private run: i32 = 1;
  private mask: i32 = (1 << 12) - 1;
  /** Per entry: the parent's name and the block (the key), the greedy value, its moves (from pathAt, len moves). */
  private parent: StaticArray<i32> = new StaticArray<i32>(1024);
  private block: StaticArray<i32> = new StaticArray<i32>(1024);
  value: StaticArray<f64> = new StaticArray<f64>(1024);
  pathAt: StaticArray<i32> = new StaticArray<i32>(1024);
  len: StaticArray<i32> = new StaticArray<i32>(1024);
  paths: StaticArray<i32> = new StaticArray<i32>(4096);
  private top: i32 = 0;
  private n: i32 = 0;

  /** Forgets every entry: a new run (another root, limits or blocks). */
  reset(): void {
    this.run++;
    this.n = 0;
    this.top = 0;
  }

  @inline private slotOf(parent: i32, block: i32): i32 {
    let x = <u32>parent * 0x9e3779b1 ^ <u32>block * 0x85ebca6b;
    x ^= x >> 15;
    x *= 0x2c1b3c6d;
    x ^= x >> 12;
    return <i32>x & this.mask;
  }

  /** The entry of block b tried from node `parent`, or -1. */
  find(parent: i32, b: i32): i32 {
    let h = this.slotOf(parent, b);
    while (unchecked(this.slotStamp[h]) == this.run) {
      const e = unchecked(this.slotEntry[h]);
      if (unchecked(this.parent[e]) == parent && unchecked(this.block[e]) == b) return e;
      h = (h + 1) & this.mask;
    }
    return -1;
  }

  /**
   * Keeps block b tried from node `parent`: its greedy value and its len moves, read from `from`
   * at `at`. Returns the entry (the child's name less one), or -1 when the run keeps no more.
   */
  add(parent: i32, b: i32, value: f64, from: StaticArray<i32>, at: i32, len: i32): i32 {
    const e = this.n;
    if (e >= MAX_ENTRIES || this.top + 2 * len > MAX_PATH_SLOTS) return -1;
    if (2 * (e + 1) > this.mask + 1) this.grow();
    if (e >= this.parent.length) this.growEntries();
    this.paths = room(this.paths, this.top + 2 * len);
    unchecked((this.parent[e] = parent));
    unchecked((this.block[e] = b));
    unchecked((this.value[e] = value));
    unchecked((this.pathAt[e] = this.top));
    unchecked((this.len[e] = len));
    memory.copy(changetype<usize>(this.paths) + ((<usize>this.top) << 2), changetype<usize>(from) + ((<usize>at) << 2), (<usize>(2 * len)) << 2);
    this.top += 2 * len;
    this.n = e + 1;
    this.place(e);
    return e;
  }

  private place(e: i32): void {
    let h = this.slotOf(unchecked(this.parent[e]), unchecked(this.block[e]));
    while (unchecked(this.slotStamp[h]) == this.run) h = (h + 1) & this.mask;
    unchecked((this.slotStamp[h] = this.run));
    unchecked((this.slotEntry[h] = e));
  }

  /** Twice the slots, every entry of the run placed again. */
  private grow(): void {
    const size = (this.mask + 1) * 2;
    this.slotEntry = new StaticArray<i32>(size);
    this.slotStamp = new StaticArray<i32>(size);
    this.mask = size - 1;
    this.run = 1;
    for (let e = 0; e < this.n; e++) this.place(e);
  }

  private growEntries(): void {
    const n = this.n + 1;
    this.parent = room(this.parent, n);
    this.block = room(this.block, n);
    this.pathAt = room(this.pathAt, n);
    this.len = room(this.len, n);
    this.value = room(this.value, n);
  }
}
