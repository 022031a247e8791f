// The flat i32 wire format between the host and the planner: the host writes the job into
// linear memory, the planner answers with one i32 array (its first element is its length).
import { Cargo } from './cargo';
import { Blocks } from './blocks';
import { SearchLimits } from './block-search';
import { LoadState, PL_BLOCK, PL_STRIDE, PL_X, PL_Y, PL_Z } from './load-state';

export class InputReader {
  pos: i32 = 0;
  constructor(public data: StaticArray<i32>, public len: i32) {}
  next(): i32 {
    return this.pos < this.len ? unchecked(this.data[this.pos++]) : 0;
  }
  /** Time limit in ms, then effort (0: none for either): the limits of a job that started at startMs. */
  readLimits(startMs: f64): SearchLimits {
    const limits = new SearchLimits();
    const timeLimit = this.next();
    const effort = this.next();
    if (timeLimit > 0) limits.deadlineMs = startMs + <f64>timeLimit;
    if (effort > 0) limits.effort = <i64>effort;
    return limits;
  }
  /** n, then per type: l, w, h, weight, count, orientation mask, policy, can top, stack class, the most it may carry (g; -1: no limit). */
  readCargo(): Cargo {
    const n = this.next();
    const c = new Cargo(n);
    for (let t = 0; t < n; t++) {
      c.l[t] = this.next();
      c.w[t] = this.next();
      c.h[t] = this.next();
      c.weight[t] = this.next();
      c.count[t] = this.next();
      c.oriMask[t] = this.next();
      c.policy[t] = this.next();
      c.canTop[t] = this.next();
      c.stackClass[t] = this.next();
      const bears = this.next();
      if (bears >= 0) {
        c.maxLoad[t] = <f64>bears;
        c.bearing = true;
      }
    }
    return c;
  }
}

export class OutputWriter {
  data: StaticArray<i32>;
  len: i32 = 1;
  constructor(capacity: i32) {
    this.data = new StaticArray<i32>(max(capacity, 2));
  }
  push(v: i32): void {
    if (this.len >= this.data.length) {
      const bigger = new StaticArray<i32>(this.data.length * 2);
      memory.copy(changetype<usize>(bigger), changetype<usize>(this.data), (<usize>this.len) << 2);
      this.data = bigger;
    }
    unchecked((this.data[this.len++] = v));
  }
  /** Reserves one element to fill in later; returns its position. */
  reserve(): i32 {
    this.push(0);
    return this.len - 1;
  }
  set(pos: i32, v: i32): void {
    unchecked((this.data[pos] = v));
  }
  finish(): StaticArray<i32> {
    unchecked((this.data[0] = this.len));
    return this.data;
  }
}

/** The boxes of a load: count, then type, x, y, z, l, w, h per box. */
export function writeBoxes(out: OutputWriter, s: LoadState, blocks: Blocks): void {
  let n = 0;
  // a composite's count is every leaf's
  for (let p = 0; p < s.np; p++) n += blocks.count[s.pl[p * PL_STRIDE + PL_BLOCK]];
  out.push(n);
  for (let p = 0; p < s.np; p++) {
    const o = p * PL_STRIDE;
    const placed = s.pl[o + PL_BLOCK];
    // a composite block's leaves, bottom ones first (composite-blocks.ts)
    const leaves = blocks.leafLen[placed];
    for (let part = 0; part < max(1, leaves); part++) {
      const at = blocks.leafStart[placed] + part;
      const b = leaves == 0 ? placed : blocks.leafBlock[at];
      const x = s.pl[o + PL_X] + (leaves == 0 ? 0 : blocks.leafX[at]);
      const y = s.pl[o + PL_Y] + (leaves == 0 ? 0 : blocks.leafY[at]);
      const z = s.pl[o + PL_Z] + (leaves == 0 ? 0 : blocks.leafZ[at]);
      const ul = blocks.ul[b], uw = blocks.uw[b], uh = blocks.uh[b];
      // bottom layer first, so a box's support comes before it
      for (let k = 0; k < blocks.nz[b]; k++) {
        for (let j = 0; j < blocks.ny[b]; j++) {
          for (let i = 0; i < blocks.nx[b]; i++) {
            out.push(blocks.type[b]);
            out.push(x + i * ul);
            out.push(y + j * uw);
            out.push(z + k * uh);
            out.push(ul);
            out.push(uw);
            out.push(uh);
          }
        }
      }
    }
  }
}
