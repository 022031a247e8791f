// Composite blocks (general blocks, Fanslau & Bortfeldt 2010): two blocks of one kind side by side
// as tall, or one on the other, filling COMPOSITE_MIN_FILL of their bounding box. A composite is a
// list of leaves, blocks of one kind at offsets, bottom ones first; the search places it as one box: its footprint leaves the level
// it stands on, and the tops of the leaves that reach its top make the new level.
import { Bin, Cargo } from './cargo';
import { POLICY_FREE } from './wire-layout';
import { Blocks, sortByKey } from './blocks';

/** A composite must fill this share of its bounding box: the rest is space lost. */
export const COMPOSITE_MIN_FILL: f64 = 0.98;

/** Blocks being built: every block of one kind (items 0 ... n - 1), then the composites. */
class Items {
  l: Array<i32> = [];
  w: Array<i32> = [];
  h: Array<i32> = [];
  volume: Array<f64> = [];
  weight: Array<f64> = [];
  value: Array<f64> = [];
  score: Array<f64> = [];
  leafStart: Array<i32> = [];
  leafLen: Array<i32> = [];
  // the leaves: a block of one kind (its index in simple) and its offset in the item
  leafBlock: Array<i32> = [];
  leafX: Array<i32> = [];
  leafY: Array<i32> = [];
  leafZ: Array<i32> = [];
  /** Boxes per type of the pair being tested (touched types listed, reset after). */
  used: StaticArray<i32>;
  touched: StaticArray<i32>;
  constructor(public simple: Blocks, public cargo: Cargo, public bin: Bin, public counts: StaticArray<i32>) {
    this.used = new StaticArray<i32>(cargo.n);
    this.touched = new StaticArray<i32>(cargo.n);
    for (let b = 0; b < simple.n; b++) {
      this.l.push(simple.l[b]); this.w.push(simple.w[b]); this.h.push(simple.h[b]);
      this.volume.push(simple.volume[b]); this.weight.push(simple.weight[b]);
      this.value.push(simple.value[b]); this.score.push(simple.score[b]);
      this.leafStart.push(b); this.leafLen.push(1);
      this.leafBlock.push(b); this.leafX.push(0); this.leafY.push(0); this.leafZ.push(0);
    }
  }

  get n(): i32 {
    return this.l.length;
  }

  /** Whether a and b together take no more boxes of any type than there are. */
  boxesLeft(a: i32, b: i32): bool {
    const simple = this.simple;
    let nt = 0;
    let ok = true;
    for (let part = 0; part < 2 && ok; part++) {
      const it = part == 0 ? a : b;
      const s = this.leafStart[it], e = s + this.leafLen[it];
      for (let j = s; j < e; j++) {
        const leaf = this.leafBlock[j];
        const t = simple.type[leaf];
        if (this.used[t] == 0) this.touched[nt++] = t;
        this.used[t] += simple.count[leaf];
        if (this.used[t] > this.counts[t]) { ok = false; break; }
      }
    }
    for (let j = 0; j < nt; j++) this.used[this.touched[j]] = 0;
    return ok;
  }

  /** Whether the leaves of a reaching its top cover the rectangle [0, l) x [0, w) and may carry boxes. */
  topCarries(a: i32, l: i32, w: i32): bool {
    const simple = this.simple;
    const top = this.h[a];
    let covered: f64 = 0;
    const s = this.leafStart[a], e = s + this.leafLen[a];
    for (let j = s; j < e; j++) {
      const leaf = this.leafBlock[j];
      if (this.leafZ[j] + simple.h[leaf] != top) continue;
      if (this.cargo.policy[simple.type[leaf]] != POLICY_FREE) return false;
      const ox = min(l, this.leafX[j] + simple.l[leaf]) - max(0, this.leafX[j]);
      const oy = min(w, this.leafY[j] + simple.w[leaf]) - max(0, this.leafY[j]);
      if (ox > 0 && oy > 0) covered += <f64>ox * <f64>oy;
    }
    return covered == <f64>l * <f64>w;
  }

  /** Adds the composite of a and b, b at (dx, dy, dz), l x w x h. */
  add(a: i32, b: i32, dx: i32, dy: i32, dz: i32, l: i32, w: i32, h: i32): void {
    this.l.push(l); this.w.push(w); this.h.push(h);
    this.volume.push(this.volume[a] + this.volume[b]);
    this.weight.push(this.weight[a] + this.weight[b]);
    this.value.push(this.value[a] + this.value[b]);
    this.score.push(this.score[a] + this.score[b]);
    this.leafStart.push(this.leafBlock.length);
    this.leafLen.push(this.leafLen[a] + this.leafLen[b]);
    for (let part = 0; part < 2; part++) {
      const it = part == 0 ? a : b;
      const ox = part == 0 ? 0 : dx, oy = part == 0 ? 0 : dy, oz = part == 0 ? 0 : dz;
      const s = this.leafStart[it], e = s + this.leafLen[it];
      for (let j = s; j < e; j++) {
        this.leafBlock.push(this.leafBlock[j]);
        this.leafX.push(this.leafX[j] + ox);
        this.leafY.push(this.leafY[j] + oy);
        this.leafZ.push(this.leafZ[j] + oz);
      }
    }
  }

  /** One kind in one orientation twice: a block of one kind already (or an L of it). */
  sameUnit(a: i32, b: i32): bool {
    if (this.leafLen[a] != 1 || this.leafLen[b] != 1) return false;
    const simple = this.simple;
    const x = this.leafBlock[this.leafStart[a]], y = this.leafBlock[this.leafStart[b]];
    return simple.type[x] == simple.type[y] && simple.ul[x] == simple.ul[y] && simple.uw[x] == simple.uw[y] && simple.uh[x] == simple.uh[y];
  }
}

/**
 * Composites of two blocks of one kind (items 0 ... n - 1), up to cap more items: side by side (as
 * tall) along the length, then the width; then, when stacked, one on the other (half of cap is kept
 * for these).
 */
function combine(items: Items, cap: i32, stacked: bool): void {
  const n = items.n;
  const bin = items.bin;
  const limit = n + cap;
  const sideLimit = stacked ? n + (cap >> 1) : limit;
  // side by side: by height, so only items as tall as each other are paired
  const byH = new StaticArray<i32>(n);
  const key = new StaticArray<f64>(n);
  for (let i = 0; i < n; i++) { byH[i] = i; key[i] = <f64>items.h[i]; }
  sortByKey(byH, key);
  let g0 = 0;
  while (g0 < n && items.n < sideLimit) {
    const h = key[byH[g0]];
    let g1 = g0;
    while (g1 < n && key[byH[g1]] == h) g1++;
    for (let x = g0; x < g1 && items.n < sideLimit; x++) {
      const a = byH[x];
      for (let y = x + 1; y < g1 && items.n < sideLimit; y++) {
        const b = byH[y];
        if (items.sameUnit(a, b) || !items.boxesLeft(a, b)) continue;
        const hh = items.h[a];
        const fill = items.volume[a] + items.volume[b];
        const lx = items.l[a] + items.l[b], wx = max(items.w[a], items.w[b]);
        if (lx <= bin.l && wx <= bin.w && fill >= COMPOSITE_MIN_FILL * <f64>lx * <f64>wx * <f64>hh) {
          items.add(a, b, items.l[a], 0, 0, lx, wx, hh);
          if (items.n >= sideLimit) break;
        }
        const ly = max(items.l[a], items.l[b]), wy = items.w[a] + items.w[b];
        if (ly <= bin.l && wy <= bin.w && fill >= COMPOSITE_MIN_FILL * <f64>ly * <f64>wy * <f64>hh) {
          items.add(a, b, 0, items.w[a], 0, ly, wy, hh);
        }
      }
    }
    g0 = g1;
  }
  if (!stacked) return;
  // one on the other: by footprint area, largest first; b's is at most a's, and not much less
  const byArea = new StaticArray<i32>(n);
  const area = new StaticArray<f64>(n);
  let minH = i32.MAX_VALUE;
  for (let i = 0; i < n; i++) {
    byArea[i] = i;
    area[i] = <f64>items.l[i] * <f64>items.w[i];
    minH = min(minH, items.h[i]);
  }
  sortByKey(byArea, area);
  for (let x = 0; x < n && items.n < limit; x++) {
    const a = byArea[x];
    const la = items.l[a], wa = items.w[a], ha = items.h[a];
    if (ha + minH > bin.h) continue;
    const aa = area[a];
    // lb wb hb >= la wa (F hb - (1 - F) ha) with hb >= minH: b's area at least aa (F - (1 - F) ha / minH)
    const floor = aa * (COMPOSITE_MIN_FILL - (1 - COMPOSITE_MIN_FILL) * <f64>ha / <f64>minH);
    // items of the same area sorted before a may go on it too
    let y0 = x;
    while (y0 > 0 && area[byArea[y0 - 1]] == aa) y0--;
    for (let y = y0; y < n && items.n < limit; y++) {
      if (area[byArea[y]] < floor) break;
      if (y == x) continue;
      const b = byArea[y];
      const lb = items.l[b], wb = items.w[b], hb = items.h[b];
      if (lb > la || wb > wa || ha + hb > bin.h) continue;
      if (items.volume[a] + items.volume[b] < COMPOSITE_MIN_FILL * aa * <f64>(ha + hb)) continue;
      if (items.sameUnit(a, b) && lb == la && wb == wa) continue;
      if (!items.boxesLeft(a, b) || !items.topCarries(a, lb, wb)) continue;
      items.add(a, b, 0, 0, ha, la, wa, ha + hb);
    }
  }
}

/**
 * The blocks of one kind (generateBlocks) with up to maxComposites composites merged in score order
 * (the largest by volume of all found): pairs of blocks of one kind; the blocks as they are when
 * maxComposites is 0. (A second round, pairing the largest composites again into blocks of three or
 * four parts, cost more CPU than it gained: docs/history/2026-11.md, "Loader ideas, measured".)
 */
export function withCompositeBlocks(
  simple: Blocks, cargo: Cargo, bin: Bin, counts: StaticArray<i32>, maxComposites: i32, stacked: bool,
): Blocks {
  if (maxComposites <= 0) return simple;
  const n = simple.n;
  const items = new Items(simple, cargo, bin, counts);
  combine(items, maxComposites * (stacked ? 8 : 4), stacked);
  // the largest maxComposites, merged with the blocks of one kind by score
  const found = items.n - n;
  const order = new StaticArray<i32>(found);
  const volume = new StaticArray<f64>(found);
  for (let i = 0; i < found; i++) { order[i] = i; volume[i] = items.volume[n + i]; }
  sortByKey(order, volume);
  const kept = min(found, maxComposites);
  let leaves = 0;
  for (let k = 0; k < kept; k++) leaves += items.leafLen[n + order[k]];
  const out = new Blocks(n + kept);
  out.allocLeaves(leaves);
  const newIndex = new StaticArray<i32>(n);
  // first pass: where each block of one kind lands (the leaves refer to them)
  let i = 0, k = 0, m = 0;
  while (i < n || k < kept) {
    if (k >= kept || (i < n && simple.score[i] >= items.score[n + order[k]])) newIndex[i++] = m;
    else k++;
    m++;
  }
  i = 0; k = 0; m = 0;
  let leaf = 0;
  while (i < n || k < kept) {
    if (k >= kept || (i < n && simple.score[i] >= items.score[n + order[k]])) {
      out.copyFrom(m, simple, i, simple.l[i], simple.w[i], simple.h[i], simple.volume[i], simple.weight[i], simple.value[i], simple.score[i]);
      i++;
    } else {
      const c = n + order[k];
      const s = items.leafStart[c], e = s + items.leafLen[c];
      const first = items.leafBlock[s];
      out.copyFrom(m, simple, first, items.l[c], items.w[c], items.h[c], items.volume[c], items.weight[c], items.value[c], items.score[c]);
      out.leafStart[m] = leaf;
      out.leafLen[m] = e - s;
      let boxes = 0;
      for (let j = s; j < e; j++) {
        out.leafBlock[leaf] = newIndex[items.leafBlock[j]];
        out.leafX[leaf] = items.leafX[j];
        out.leafY[leaf] = items.leafY[j];
        out.leafZ[leaf] = items.leafZ[j];
        boxes += simple.count[items.leafBlock[j]];
        leaf++;
      }
      out.count[m] = boxes;
      k++;
    }
    m++;
  }
  out.n = m;
  out.scoreFactor = simple.scoreFactor;
  return out.sealDims();
}
