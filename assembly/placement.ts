// Placing a block into a load: the level it stands on loses its footprint (maximal-rectangle
// split), its top joins the level it reaches (maximal rectangles of the union) or becomes the
// stacking surface of double_stacked_bottom items.
import { Bin, Cargo } from './cargo';
import { POLICY_BASE, POLICY_FREE } from './wire-layout';
import { Blocks } from './blocks';
import { Bearing } from './bearing';
import {
  DEAD, KIND_LEVEL, LoadState, PL_BLOCK, PL_STRIDE, PL_X, PL_Y, PL_Z,
  SP_KIND, SP_STRIDE, SP_X1, SP_X2, SP_Y1, SP_Y2, SP_Z,
} from './load-state';

const MAX_GRID: i32 = 64;
/** Flips x2 and y2 of an (x1, y1, x2, y2) row (~v = -v - 1 reverses the order): containment in one lane-wise compare. */
const FAR_CORNER: v128 = i32x4(0, 0, -1, -1);

export class Placement {
  // scratch, sized once per job so placing allocates nothing
  pieces: StaticArray<i32>;
  /** The spaces carve keeps at the footprint's level: only they can hold a piece. */
  sameLevel: StaticArray<i32>;
  xs: StaticArray<i32> = new StaticArray<i32>(2 * 256);
  ys: StaticArray<i32> = new StaticArray<i32>(2 * 256);
  cols: StaticArray<u64> = new StaticArray<u64>(MAX_GRID);
  level: StaticArray<i32> = new StaticArray<i32>(256 * 4);
  /** Smallest dimension of any box: a level no box can stand on is not kept. */
  minDim: i32 = 0;
  /** What rests on each box, when some type bears only so much (null otherwise). */
  bearing: Bearing | null = null;

  constructor(public cargo: Cargo, public bin: Bin, public blocks: Blocks, spCap: i32) {
    this.pieces = new StaticArray<i32>(spCap * 4 * 5 + 20);
    this.sameLevel = new StaticArray<i32>(spCap + 1);
    let m = i32.MAX_VALUE;
    for (let t = 0; t < cargo.n; t++) m = min(m, min(cargo.l[t], min(cargo.w[t], cargo.h[t])));
    this.minDim = m;
  }

  place(s: LoadState, b: i32, x: i32, y: i32, z: i32, kind: i32): void {
    const blocks = this.blocks;
    const x2 = x + unchecked(blocks.l[b]);
    const y2 = y + unchecked(blocks.w[b]);
    this.carve(s, x, y, x2, y2, z);
    const leaves = unchecked(blocks.leafLen[b]);
    if (leaves > 0) {
      // a composite block: its leaves that reach its top (and may carry boxes) make the level above
      const top = z + unchecked(blocks.h[b]);
      const start = unchecked(blocks.leafStart[b]);
      for (let j = start; j < start + leaves; j++) {
        const leaf = unchecked(blocks.leafBlock[j]);
        unchecked((s.rem[blocks.type[leaf]] -= blocks.count[leaf]));
        const lz = z + unchecked(blocks.leafZ[j]);
        if (lz + unchecked(blocks.h[leaf]) != top || top + this.minDim > this.bin.h) continue;
        if (unchecked(this.cargo.policy[blocks.type[leaf]]) != POLICY_FREE) continue;
        const lx = x + unchecked(blocks.leafX[j]), ly = y + unchecked(blocks.leafY[j]);
        this.raiseLevel(s, lx, ly, lx + unchecked(blocks.l[leaf]), ly + unchecked(blocks.w[leaf]), top);
      }
      this.record(s, b, x, y, z);
      return;
    }
    const t = unchecked(blocks.type[b]);
    const policy = unchecked(this.cargo.policy[t]);
    const top = z + unchecked(blocks.h[b]);
    if (kind == KIND_LEVEL && top + this.minDim <= this.bin.h) {
      if (policy == POLICY_FREE) {
        this.raiseLevel(s, x, y, x2, y2, top);
      } else if (policy == POLICY_BASE) {
        // one stacking surface per item: a top item must stand wholly on one bottom item
        const ul = unchecked(blocks.ul[b]), uw = unchecked(blocks.uw[b]);
        const kindTop = 1 + unchecked(this.cargo.stackClass[t]);
        for (let i = 0; i < unchecked(blocks.nx[b]); i++) {
          for (let j = 0; j < unchecked(blocks.ny[b]); j++) {
            s.addSpace(x + i * ul, y + j * uw, x + (i + 1) * ul, y + (j + 1) * uw, top, kindTop);
          }
        }
      }
    }
    unchecked((s.rem[t] -= blocks.count[b]));
    this.record(s, b, x, y, z);
    const bearing = this.bearing;
    if (bearing != null) bearing.commit(s, b, x, y, z);
  }

  /** Adds block b at (x, y, z) to the load's figures and placements. */
  private record(s: LoadState, b: i32, x: i32, y: i32, z: i32): void {
    const blocks = this.blocks;
    s.volume += unchecked(blocks.volume[b]);
    s.weight += unchecked(blocks.weight[b]);
    s.value += unchecked(blocks.value[b]);
    if (s.np < s.plCap) {
      const p = s.np * PL_STRIDE;
      unchecked((s.pl[p + PL_BLOCK] = b));
      unchecked((s.pl[p + PL_X] = x));
      unchecked((s.pl[p + PL_Y] = y));
      unchecked((s.pl[p + PL_Z] = z));
      s.np++;
    }
  }

  /** Removes the footprint from the spaces at level z (the MaxRects split). */
  carve(s: LoadState, x1: i32, y1: i32, x2: i32, y2: i32, z: i32): void {
    const sp = s.sp;
    const pieces = this.pieces;
    const sameLevel = this.sameLevel;
    let np = 0;
    let w = 0;
    let nl = 0;
    const n = s.ns;
    for (let i = 0; i < n; i++) {
      const b = i * SP_STRIDE;
      const rz = unchecked(sp[b + SP_Z]);
      if (rz != z) {
        if (w != i) {
          const d = w * SP_STRIDE;
          copySpace(sp, d, b);
        }
        w++;
        continue;
      }
      const rx1 = unchecked(sp[b + SP_X1]), ry1 = unchecked(sp[b + SP_Y1]);
      const rx2 = unchecked(sp[b + SP_X2]), ry2 = unchecked(sp[b + SP_Y2]);
      const kind = unchecked(sp[b + SP_KIND]);
      if (rx1 < x2 && x1 < rx2 && ry1 < y2 && y1 < ry2) {
        if (x1 > rx1) np = pushPiece(pieces, np, rx1, ry1, x1, ry2, kind);
        if (x2 < rx2) np = pushPiece(pieces, np, x2, ry1, rx2, ry2, kind);
        if (y1 > ry1) np = pushPiece(pieces, np, rx1, ry1, rx2, y1, kind);
        if (y2 < ry2) np = pushPiece(pieces, np, rx1, y2, rx2, ry2, kind);
        continue;
      }
      if (w != i) {
        const d = w * SP_STRIDE;
        copySpace(sp, d, b);
      }
      unchecked((sameLevel[nl++] = w));
      w++;
    }
    s.ns = w;
    // A piece goes only if no other piece and no space kept at the level holds it, each test one
    // compare of (x1, y1, ~x2, ~y2) rows: r holds p when every lane of r's is <= p's.
    const pieceAt = changetype<usize>(pieces), spAt = changetype<usize>(sp);
    for (let k = 0; k < np; k++) {
      const a = k * 5;
      const p = v128.load(pieceAt + ((<usize>a) << 2));
      const pc = v128.xor(p, FAR_CORNER);
      let inside = false;
      for (let j = 0; j < np && !inside; j++) {
        if (j == k) continue;
        const q = v128.load(pieceAt + ((<usize>(j * 5)) << 2));
        if (i32x4.all_true(i32x4.le_s(v128.xor(q, FAR_CORNER), pc))) {
          // equal pieces: keep the first
          inside = !i32x4.all_true(i32x4.eq(q, p)) || j < k;
        }
      }
      for (let j = 0; j < nl && !inside; j++) {
        const r = v128.load(spAt + ((<usize>(unchecked(sameLevel[j]) * SP_STRIDE)) << 2));
        inside = i32x4.all_true(i32x4.le_s(v128.xor(r, FAR_CORNER), pc));
      }
      const px1 = i32x4.extract_lane(p, 0), py1 = i32x4.extract_lane(p, 1);
      const px2 = i32x4.extract_lane(p, 2), py2 = i32x4.extract_lane(p, 3);
      if (!inside) s.addSpace(px1, py1, px2, py2, z, unchecked(pieces[a + 4]));
    }
  }

  /** Adds a rectangle to the free level at height z, keeping that level's maximal rectangles. */
  raiseLevel(s: LoadState, x1: i32, y1: i32, x2: i32, y2: i32, z: i32): void {
    const sp = s.sp;
    const n = s.ns;
    let touching = false;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const b = i * SP_STRIDE;
      if (unchecked(sp[b + SP_Z]) != z || (unchecked(sp[b + SP_KIND]) & ~DEAD) != KIND_LEVEL) continue;
      count++;
      const ox = min(x2, unchecked(sp[b + SP_X2])) - max(x1, unchecked(sp[b + SP_X1]));
      const oy = min(y2, unchecked(sp[b + SP_Y2])) - max(y1, unchecked(sp[b + SP_Y1]));
      if (ox >= 0 && oy >= 0 && (ox > 0 || oy > 0)) touching = true;
    }
    if (!touching || count >= 255) {
      s.addSpace(x1, y1, x2, y2, z, KIND_LEVEL);
      return;
    }
    // Gather the level's rectangles (and the new one), drop them from the load.
    const level = this.level;
    let m = 0;
    let w = 0;
    for (let i = 0; i < n; i++) {
      const b = i * SP_STRIDE;
      if (unchecked(sp[b + SP_Z]) == z && (unchecked(sp[b + SP_KIND]) & ~DEAD) == KIND_LEVEL) {
        unchecked((level[m * 4] = sp[b + SP_X1]));
        unchecked((level[m * 4 + 1] = sp[b + SP_Y1]));
        unchecked((level[m * 4 + 2] = sp[b + SP_X2]));
        unchecked((level[m * 4 + 3] = sp[b + SP_Y2]));
        m++;
        continue;
      }
      if (w != i) {
        const d = w * SP_STRIDE;
        copySpace(sp, d, b);
      }
      w++;
    }
    unchecked((level[m * 4] = x1));
    unchecked((level[m * 4 + 1] = y1));
    unchecked((level[m * 4 + 2] = x2));
    unchecked((level[m * 4 + 3] = y2));
    m++;
    const nx = uniqueCoords(level, m, 0, this.xs);
    const ny = uniqueCoords(level, m, 1, this.ys);
    if (nx > MAX_GRID || ny > MAX_GRID) {
      // too fragmented to merge cheaply: keep the rectangles as they are
      s.ns = w;
      for (let r = 0; r < m; r++) s.addSpace(level[r * 4], level[r * 4 + 1], level[r * 4 + 2], level[r * 4 + 3], z, KIND_LEVEL);
      return;
    }
    s.ns = w;
    const xs = this.xs, ys = this.ys, cols = this.cols;
    const cx = nx - 1, cy = ny - 1;
    for (let i = 0; i < cx; i++) unchecked((cols[i] = 0));
    for (let r = 0; r < m; r++) {
      const i1 = indexOf(xs, nx, unchecked(level[r * 4])), i2 = indexOf(xs, nx, unchecked(level[r * 4 + 2]));
      const j1 = indexOf(ys, ny, unchecked(level[r * 4 + 1])), j2 = indexOf(ys, ny, unchecked(level[r * 4 + 3]));
      const bits = ((<u64>1 << <u64>(j2 - j1)) - 1) << <u64>j1;
      for (let i = i1; i < i2; i++) unchecked((cols[i] |= bits));
    }
    // Every maximal rectangle: a column range [i1, i2] and a maximal run of rows common to all
    // its columns, that neither neighbouring column covers whole.
    for (let i1 = 0; i1 < cx; i1++) {
      let mask = unchecked(cols[i1]);
      for (let i2 = i1; i2 < cx && mask != 0; i2++) {
        if (i2 > i1) mask &= unchecked(cols[i2]);
        let rest = mask;
        while (rest != 0) {
          const j1 = <i32>ctz(rest);
          const len = <i32>ctz(~(rest >> <u64>j1));
          const run = len >= 64 ? rest : (((<u64>1 << <u64>len) - 1) << <u64>j1);
          rest &= ~run;
          if (i1 > 0 && (unchecked(cols[i1 - 1]) & run) == run) continue;
          if (i2 + 1 < cx && (unchecked(cols[i2 + 1]) & run) == run) continue;
          s.addSpace(unchecked(xs[i1]), unchecked(ys[j1]), unchecked(xs[i2 + 1]), unchecked(ys[j1 + len]), z, KIND_LEVEL);
        }
      }
    }
  }
}

/** Moves a space's SP_STRIDE (6) slots from b to d: one 16-byte and one 8-byte copy, not six. */
@inline function copySpace(sp: StaticArray<i32>, d: i32, b: i32): void {
  const base = changetype<usize>(sp);
  const to = base + ((<usize>d) << 2), from = base + ((<usize>b) << 2);
  v128.store(to, v128.load(from));
  store<i64>(to, load<i64>(from, 16), 16);
}

@inline function pushPiece(p: StaticArray<i32>, n: i32, x1: i32, y1: i32, x2: i32, y2: i32, kind: i32): i32 {
  if (n * 5 + 5 > p.length) return n;
  const a = n * 5;
  unchecked((p[a] = x1));
  unchecked((p[a + 1] = y1));
  unchecked((p[a + 2] = x2));
  unchecked((p[a + 3] = y2));
  unchecked((p[a + 4] = kind));
  return n + 1;
}

/** Sorted distinct values of coordinate axis (0: x, 1: y) of the m rectangles; returns how many. */
function uniqueCoords(rects: StaticArray<i32>, m: i32, axis: i32, out: StaticArray<i32>): i32 {
  let n = 0;
  for (let r = 0; r < m; r++) {
    for (let e = 0; e < 2; e++) {
      const v = unchecked(rects[r * 4 + axis + 2 * e]);
      // insertion into the sorted prefix, skipping duplicates
      let k = n;
      while (k > 0 && unchecked(out[k - 1]) > v) k--;
      if (k > 0 && unchecked(out[k - 1]) == v) continue;
      if (n >= out.length) return out.length + 1;
      for (let q = n; q > k; q--) unchecked((out[q] = out[q - 1]));
      unchecked((out[k] = v));
      n++;
    }
  }
  return n;
}

@inline function indexOf(values: StaticArray<i32>, n: i32, v: i32): i32 {
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (unchecked(values[mid]) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
