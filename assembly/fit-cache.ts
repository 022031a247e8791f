// Which blocks a space's size admits, remembered per size: the greedy completions of a search meet
// the same space sizes again and again (most rank calls, src/planner/README.md), and the
// blocks within a size, in order, depend on the blocks alone, not on the load. The rank loops read
// the list and test each block against the load; past the list they scan on (firstWithin) where
// the list stopped, so they take exactly the blocks a scan from the start would.
import { Blocks, firstBlockWithin, firstWithin } from './blocks';
import { room } from './room';

/** Blocks listed per size by default: a little more than a rank call with the dead-space window tests. */
export const LISTED: i32 = 48;
/** What list() returns for a size it keeps no list of: a list of none, scan from the start. */
export const NOT_KEPT: i32 = 0;
/** Sizes are packed 21 bits each into one key. */
const SIZE_LIMIT: i32 = 1 << 21;

export class FitCache {
  /** Per entry: [where to scan on from, listed, the blocks listed]; [0, 1] a list of none, for a size not kept. */
  pool: StaticArray<i32> = new StaticArray<i32>(4096);
  private top: i32 = 2;
  private keys: StaticArray<u64>;
  private at: StaticArray<i32>;
  private entries: i32 = 0;
  private mask: i32;
  private enabled: bool;

  /** 2^bits slots, half of them used at most, `listed` blocks per size; bins of sizes past SIZE_LIMIT keep nothing. */
  constructor(bits: i32, binL: i32, binW: i32, binH: i32, private listed: i32 = LISTED) {
    this.keys = new StaticArray<u64>(1 << bits);
    this.at = new StaticArray<i32>(1 << bits);
    this.mask = (1 << bits) - 1;
    this.enabled = max(binL, max(binW, binH)) < SIZE_LIMIT;
  }

  /** Keeps nothing from now on: every list is a scan from the start (the tests' reference). */
  disable(): void {
    this.enabled = false;
  }

  /** Forgets every list (the blocks changed). */
  clear(): void {
    if (this.entries == 0) return;
    memory.fill(changetype<usize>(this.keys), 0, (<usize>this.keys.length) << 3);
    this.entries = 0;
    this.top = 2;
  }

  /**
   * Where in pool the list for a space of sx x sy x sz starts: pool[at] is where to scan on from
   * past the list, pool[at + 1] how many blocks it lists, from pool[at + 2] on.
   */
  list(blocks: Blocks, sx: i32, sy: i32, sz: i32, vx: v128, vy: v128, vz: v128): i32 {
    // where a scan starts (a binary search by volume) is only needed when no list is kept
    if (!this.enabled) return this.none(firstBlockWithin(blocks, <f64>sx * <f64>sy * <f64>sz));
    const key = (<u64>1 << 63) | (<u64>sx << 42) | (<u64>sy << 21) | <u64>sz;
    let h = <i32>((key * 0x9e3779b97f4a7c15) >> 40) & this.mask;
    while (true) {
      const k = unchecked(this.keys[h]);
      if (k == key) return unchecked(this.at[h]);
      if (k == 0) break;
      h = (h + 1) & this.mask;
    }
    const start = firstBlockWithin(blocks, <f64>sx * <f64>sy * <f64>sz);
    if (this.entries * 2 >= this.mask + 1) return this.none(start);
    // a new size: list its first `listed` blocks
    this.pool = room(this.pool, this.top + this.listed + 2);
    const pool = this.pool;
    const at = this.top;
    let n = 0;
    let b = firstWithin(blocks, start, vx, vy, vz);
    while (b < blocks.n && n < this.listed) {
      unchecked((pool[at + 2 + n] = b));
      n++;
      b = n < this.listed ? firstWithin(blocks, b + 1, vx, vy, vz) : b;
    }
    unchecked((pool[at] = n == this.listed ? b + 1 : blocks.n));
    unchecked((pool[at + 1] = n));
    this.top = at + 2 + n;
    unchecked((this.keys[h] = key));
    unchecked((this.at[h] = at));
    this.entries++;
    return at;
  }

  private none(start: i32): i32 {
    unchecked((this.pool[0] = start));
    unchecked((this.pool[1] = 0));
    return NOT_KEPT;
  }
}

/** The block after the j-th within the space: the list's next, or past it the next a scan finds. */
@inline export function nextWithin(pool: StaticArray<i32>, at: i32, j: i32, b: i32, blocks: Blocks, vx: v128, vy: v128, vz: v128): i32 {
  const i = j + 1;
  const listed = unchecked(pool[at + 1]);
  return i < listed ? unchecked(pool[at + 2 + i]) : firstWithin(blocks, i == listed ? unchecked(pool[at]) : b + 1, vx, vy, vz);
}

/** The first block within the space. */
@inline export function firstListed(pool: StaticArray<i32>, at: i32, blocks: Blocks, vx: v128, vy: v128, vz: v128): i32 {
  return unchecked(pool[at + 1]) > 0 ? unchecked(pool[at + 2]) : firstWithin(blocks, unchecked(pool[at]), vx, vy, vz);
}
