// What rests on each box of a load, for cargo some of whose boxes bear only so much (an item's
// max_load_on_top, docs/decisions.md "Load bearing"). The rule is the conservative one: a box carries
// the whole weight of everything that rests on it, directly or through other boxes, however many
// boxes share it. A block's boxes stand in columns, so what rests on a column's bottom box is the
// boxes above it in the column and what rests on the column's top: one figure per column (a load's
// cellLoad). A block placed on tops at a level adds, to each column under it, the weight of its
// own columns over that column; that weight rests on whatever the column stands on too, and so on
// down. Two ways down to one column add up twice (a brick pattern), up to the block's weight: an
// overstatement, never an understatement. Used only when some type of the job has a limit.
import { Blocks } from './blocks';
import { Cargo } from './cargo';
import { LoadState, PL_BLOCK, PL_STRIDE, PL_X, PL_Y, PL_Z } from './load-state';

export class Bearing {
  /** Added weight per column of the load being tried (only where stamped with the current try). */
  private delta: StaticArray<f64>;
  private stamp: StaticArray<i32>;
  private tick: i32 = 0;
  /** The columns touched by the try, and the placement each belongs to. */
  private touched: StaticArray<i32>;
  private owner: StaticArray<i32>;
  private done: StaticArray<bool>;
  private n: i32 = 0;

  constructor(public cargo: Cargo, public blocks: Blocks, cellCap: i32) {
    this.delta = new StaticArray<f64>(cellCap);
    this.stamp = new StaticArray<i32>(cellCap);
    this.touched = new StaticArray<i32>(cellCap);
    this.owner = new StaticArray<i32>(cellCap);
    this.done = new StaticArray<bool>(cellCap);
  }

  /** Block b at (x, y, z) leaves every box under it within what it may bear. */
  allows(s: LoadState, b: i32, x: i32, y: i32, z: i32): bool {
    if (!this.limitedUnder(s, b, x, y, z)) return true;
    return this.spread(s, b, x, y, z, false);
  }

  /** Block b, just recorded as s's last placement at (x, y, z): its weight onto the columns below, and its own columns. */
  commit(s: LoadState, b: i32, x: i32, y: i32, z: i32): void {
    const p = s.np - 1;
    if (p < 0 || p >= s.cellAt.length) return;
    const limited = this.limitedUnder(s, b, x, y, z);
    if (limited) this.spread(s, b, x, y, z, true);
    const first = s.cells;
    const columns = this.blocks.nx[b] * this.blocks.ny[b];
    unchecked((s.cellAt[p] = first));
    for (let c = first; c < first + columns && c < s.cellLoad.length; c++) unchecked((s.cellLoad[c] = 0));
    s.cells = first + columns;
    unchecked((s.limitedBelow[p] = limited || this.cargo.maxLoad[this.blocks.type[b]] != Infinity ? 1 : 0));
  }

  /** Some box with a limit is under the footprint of b at (x, y, z), directly or further down. */
  private limitedUnder(s: LoadState, b: i32, x: i32, y: i32, z: i32): bool {
    if (z == 0) return false;
    const x2 = x + this.blocks.l[b], y2 = y + this.blocks.w[b];
    for (let q = 0; q < s.np; q++) {
      if (unchecked(s.limitedBelow[q]) == 0) continue;
      if (this.topOf(s, q) != z) continue;
      if (this.overlaps(s, q, x, y, x2, y2)) return true;
    }
    return false;
  }

  /**
   * Spreads block b's weight down from (x, y, z): false when a box would carry more than it may
   * (nothing is changed then); with commit, adds each column's share to what rests on it.
   */
  private spread(s: LoadState, b: i32, x: i32, y: i32, z: i32, commit: bool): bool {
    const blocks = this.blocks, cargo = this.cargo;
    this.tick++;
    this.n = 0;
    const weight = blocks.weight[b];
    const ul = blocks.ul[b], uw = blocks.uw[b], nx = blocks.nx[b], ny = blocks.ny[b];
    const columnWeight = <f64>blocks.nz[b] * <f64>cargo.weight[blocks.type[b]];
    // the columns the block stands on, each with the weight of the block's columns over it
    for (let q = 0; q < s.np; q++) {
      if (this.topOf(s, q) != z) continue;
      const qb = unchecked(s.pl[q * PL_STRIDE + PL_BLOCK]);
      const qx = unchecked(s.pl[q * PL_STRIDE + PL_X]), qy = unchecked(s.pl[q * PL_STRIDE + PL_Y]);
      const ql = blocks.ul[qb], qw = blocks.uw[qb];
      for (let j = 0; j < blocks.ny[qb]; j++) {
        const cy1 = qy + j * qw;
        const across = spans(cy1, cy1 + qw, y, uw, ny);
        if (across == 0) continue;
        for (let i = 0; i < blocks.nx[qb]; i++) {
          const cx1 = qx + i * ql;
          const along = spans(cx1, cx1 + ql, x, ul, nx);
          if (along == 0) continue;
          this.add(s, q, unchecked(s.cellAt[q]) + j * blocks.nx[qb] + i, min(weight, <f64>(along * across) * columnWeight), weight);
        }
      }
    }
    // level by level down: a column's share rests on the columns it stands on, once each share is whole
    while (true) {
      let top = -1;
      for (let k = 0; k < this.n; k++) if (!unchecked(this.done[k])) top = max(top, this.topOf(s, unchecked(this.owner[k])));
      if (top < 0) break;
      for (let k = 0; k < this.n; k++) {
        if (unchecked(this.done[k])) continue;
        const q = unchecked(this.owner[k]);
        if (this.topOf(s, q) != top) continue;
        unchecked((this.done[k] = true));
        const cell = unchecked(this.touched[k]);
        const added = unchecked(this.delta[cell]);
        const qb = unchecked(s.pl[q * PL_STRIDE + PL_BLOCK]);
        const t = blocks.type[qb];
        const limit = cargo.maxLoad[t];
        // the column's bottom box carries the boxes above it in the column and all that rests on its top
        if (limit != Infinity && <f64>(blocks.nz[qb] - 1) * <f64>cargo.weight[t] + unchecked(s.cellLoad[cell]) + added > limit) return false;
        if (unchecked(s.limitedBelow[q]) == 0 && limit == Infinity) {
          // nothing with a limit below this column: no need to go further down
          continue;
        }
        this.down(s, q, cell - unchecked(s.cellAt[q]), added, weight);
      }
    }
    if (commit) for (let k = 0; k < this.n; k++) unchecked((s.cellLoad[this.touched[k]] += this.delta[this.touched[k]]));
    return true;
  }

  /** Column `local` of placement q passes `added` to the columns it stands on. */
  private down(s: LoadState, q: i32, local: i32, added: f64, cap: f64): void {
    const blocks = this.blocks;
    const o = q * PL_STRIDE;
    const qb = unchecked(s.pl[o + PL_BLOCK]);
    const base = unchecked(s.pl[o + PL_Z]);
    if (base == 0) return;
    const qnx = blocks.nx[qb];
    const x1 = unchecked(s.pl[o + PL_X]) + (local % qnx) * blocks.ul[qb];
    const y1 = unchecked(s.pl[o + PL_Y]) + (local / qnx) * blocks.uw[qb];
    const x2 = x1 + blocks.ul[qb], y2 = y1 + blocks.uw[qb];
    for (let r = 0; r < s.np; r++) {
      if (this.topOf(s, r) != base || unchecked(s.limitedBelow[r]) == 0 || !this.overlaps(s, r, x1, y1, x2, y2)) continue;
      const rb = unchecked(s.pl[r * PL_STRIDE + PL_BLOCK]);
      const rx = unchecked(s.pl[r * PL_STRIDE + PL_X]), ry = unchecked(s.pl[r * PL_STRIDE + PL_Y]);
      const rl = blocks.ul[rb], rw = blocks.uw[rb];
      for (let j = 0; j < blocks.ny[rb]; j++) {
        const cy = ry + j * rw;
        if (cy >= y2 || cy + rw <= y1) continue;
        for (let i = 0; i < blocks.nx[rb]; i++) {
          const cx = rx + i * rl;
          if (cx >= x2 || cx + rl <= x1) continue;
          this.add(s, r, unchecked(s.cellAt[r]) + j * blocks.nx[rb] + i, added, cap);
        }
      }
    }
  }

  private add(s: LoadState, q: i32, cell: i32, weight: f64, cap: f64): void {
    if (unchecked(this.stamp[cell]) != this.tick) {
      unchecked((this.stamp[cell] = this.tick));
      unchecked((this.delta[cell] = 0));
      unchecked((this.touched[this.n] = cell));
      unchecked((this.owner[this.n] = q));
      unchecked((this.done[this.n] = false));
      this.n++;
    }
    // all the block's boxes at most, however many ways they reach the column
    unchecked((this.delta[cell] = min(cap, unchecked(this.delta[cell]) + weight)));
  }

  @inline private topOf(s: LoadState, q: i32): i32 {
    return unchecked(s.pl[q * PL_STRIDE + PL_Z]) + this.blocks.h[unchecked(s.pl[q * PL_STRIDE + PL_BLOCK])];
  }

  private overlaps(s: LoadState, q: i32, x1: i32, y1: i32, x2: i32, y2: i32): bool {
    const o = q * PL_STRIDE;
    const qb = unchecked(s.pl[o + PL_BLOCK]);
    const qx = unchecked(s.pl[o + PL_X]), qy = unchecked(s.pl[o + PL_Y]);
    return qx < x2 && x1 < qx + this.blocks.l[qb] && qy < y2 && y1 < qy + this.blocks.w[qb];
  }
}

/** How many of n columns of width u from `from` overlap [a, b). */
@inline function spans(a: i32, b: i32, from: i32, u: i32, n: i32): i32 {
  if (b <= from || a >= from + n * u) return 0;
  const first = max(0, (a - from) / u);
  const last = min(n - 1, (b - 1 - from) / u);
  return max(0, last - first + 1);
}
