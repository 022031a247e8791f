// A partial load: the free spaces left, the boxes still to load and the blocks placed so far.
//
// With full support the load is a height map: every box stands on the floor or wholly on tops
// of boxes, so the space above any point is free from its height up. A free space is therefore
// a rectangle of the floor plan at one level z where everything below is exactly at z, open
// upwards to the bin's top; the spaces of one level are the maximal rectangles of that level.
import { Blocks } from './blocks';
import { OutputWriter } from './wire';
import { pushBox } from './wire-layout';

export const SP_X1: i32 = 0;
export const SP_Y1: i32 = 1;
export const SP_X2: i32 = 2;
export const SP_Y2: i32 = 3;
export const SP_Z: i32 = 4;
export const SP_KIND: i32 = 5;
export const SP_STRIDE: i32 = 6;

/** A level of tops anything may stand on (the floor, tops of free-stacking boxes). */
export const KIND_LEVEL: i32 = 0;
// Kinds 1 + c: the top of one double_stacked_bottom item of stack class c.
/** Set on a space no remaining block fits; it still counts for merging levels. */
export const DEAD: i32 = 1 << 16;

export const PL_BLOCK: i32 = 0;
export const PL_X: i32 = 1;
export const PL_Y: i32 = 2;
export const PL_Z: i32 = 3;
export const PL_STRIDE: i32 = 4;

export class LoadState {
  sp: StaticArray<i32>;
  ns: i32 = 0;
  rem: StaticArray<i32>;
  pl: StaticArray<i32>;
  np: i32 = 0;
  volume: f64 = 0;
  weight: f64 = 0;
  /** The blocks' value summed: what the search maximises. */
  value: f64 = 0;
  /**
   * What rests on each placement's columns, for cargo some of whose boxes bear only so much
   * (bearing.ts; empty otherwise): per placement where its columns start in cellLoad (one per
   * column, nx by ny, x fastest) and whether its own boxes or any below it have a limit.
   */
  cellAt: StaticArray<i32>;
  cellLoad: StaticArray<f64>;
  limitedBelow: StaticArray<i32>;
  cells: i32 = 0;
  constructor(public spCap: i32, public nTypes: i32, public plCap: i32, bearing: bool = false) {
    this.sp = new StaticArray<i32>(spCap * SP_STRIDE);
    this.rem = new StaticArray<i32>(nTypes);
    this.pl = new StaticArray<i32>(plCap * PL_STRIDE);
    // a placement holds a box per column at least: no load has more columns than placements' boxes
    const cellCap = bearing ? plCap : 0;
    this.cellAt = new StaticArray<i32>(cellCap);
    this.cellLoad = new StaticArray<f64>(cellCap);
    this.limitedBelow = new StaticArray<i32>(cellCap);
  }
  copyFrom(o: LoadState): void {
    memory.copy(changetype<usize>(this.sp), changetype<usize>(o.sp), (<usize>(o.ns * SP_STRIDE)) << 2);
    memory.copy(changetype<usize>(this.rem), changetype<usize>(o.rem), (<usize>this.nTypes) << 2);
    memory.copy(changetype<usize>(this.pl), changetype<usize>(o.pl), (<usize>(o.np * PL_STRIDE)) << 2);
    if (o.cellAt.length > 0) {
      if (this.cellAt.length < o.cellAt.length) {
        this.cellAt = new StaticArray<i32>(o.cellAt.length);
        this.cellLoad = new StaticArray<f64>(o.cellAt.length);
        this.limitedBelow = new StaticArray<i32>(o.cellAt.length);
      }
      memory.copy(changetype<usize>(this.cellAt), changetype<usize>(o.cellAt), (<usize>o.np) << 2);
      memory.copy(changetype<usize>(this.limitedBelow), changetype<usize>(o.limitedBelow), (<usize>o.np) << 2);
      memory.copy(changetype<usize>(this.cellLoad), changetype<usize>(o.cellLoad), (<usize>o.cells) << 3);
    }
    this.cells = o.cells;
    this.ns = o.ns;
    this.np = o.np;
    this.volume = o.volume;
    this.weight = o.weight;
    this.value = o.value;
  }
  @inline addSpace(x1: i32, y1: i32, x2: i32, y2: i32, z: i32, kind: i32): void {
    // Past capacity a space is dropped: the load stays valid, it only loses a place to fill.
    if (this.ns >= this.spCap) return;
    const b = this.ns * SP_STRIDE;
    unchecked((this.sp[b + SP_X1] = x1));
    unchecked((this.sp[b + SP_Y1] = y1));
    unchecked((this.sp[b + SP_X2] = x2));
    unchecked((this.sp[b + SP_Y2] = y2));
    unchecked((this.sp[b + SP_Z] = z));
    unchecked((this.sp[b + SP_KIND] = kind));
    this.ns++;
  }
}

/** The boxes of a load into an answer: a count, then each box (wire-layout.ts Box), bottom layer first. */
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
          for (let i = 0; i < blocks.nx[b]; i++) pushBox(out, blocks.type[b], x + i * ul, y + j * uw, z + k * uh, ul, uw, uh);
        }
      }
    }
  }
}
