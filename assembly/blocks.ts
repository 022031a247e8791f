// Blocks: nx x ny x nz boxes of one type in one orientation, the unit the search places at once.
// Big blocks make whole layers and columns of one SKU; single boxes fill what is left.
import { Bin, Cargo, orientedX, orientedY, orientedZ } from './cargo';
import { POLICY_FREE } from './wire-layout';

export class Blocks {
  n: i32 = 0;
  type: StaticArray<i32>;
  l: StaticArray<i32>;
  w: StaticArray<i32>;
  h: StaticArray<i32>;
  ul: StaticArray<i32>;
  uw: StaticArray<i32>;
  uh: StaticArray<i32>;
  nx: StaticArray<i32>;
  ny: StaticArray<i32>;
  nz: StaticArray<i32>;
  count: StaticArray<i32>;
  volume: StaticArray<f64>;
  weight: StaticArray<f64>;
  /** What the search maximises: the volume, unless the job weights some types' volume higher. */
  value: StaticArray<f64>;
  /** The search's preference, blocks in this order (best first): volume, or volume with a density bonus. */
  score: StaticArray<f64>;
  /**
   * l, w and h of four blocks at a time (groups of 4 l, 4 w, 4 h, 16-byte aligned; past n they are
   * i32.MAX_VALUE, so fit nothing): firstWithin tests four blocks with three SIMD compares.
   */
  dims: StaticArray<i32>;
  /**
   * A composite block (composite-blocks.ts) is leafLen > 0 leaves from leafStart on: blocks of one
   * kind (leafBlock, indices into these blocks) at offsets (leafX, leafY, leafZ), bottom ones
   * first; type, ul ... nz then describe its first leaf, count is every leaf's boxes, and l, w, h,
   * volume, weight, value and score the whole. A block of one kind has leafLen 0.
   */
  leafStart: StaticArray<i32>;
  leafLen: StaticArray<i32>;
  leafBlock: StaticArray<i32> = new StaticArray<i32>(0);
  leafX: StaticArray<i32> = new StaticArray<i32>(0);
  leafY: StaticArray<i32> = new StaticArray<i32>(0);
  leafZ: StaticArray<i32> = new StaticArray<i32>(0);
  /** No block's score exceeds its volume times this. */
  scoreFactor: f64 = 1;
  constructor(public cap: i32) {
    this.leafStart = new StaticArray<i32>(cap);
    this.leafLen = new StaticArray<i32>(cap);
    this.type = new StaticArray<i32>(cap);
    this.l = new StaticArray<i32>(cap);
    this.w = new StaticArray<i32>(cap);
    this.h = new StaticArray<i32>(cap);
    this.ul = new StaticArray<i32>(cap);
    this.uw = new StaticArray<i32>(cap);
    this.uh = new StaticArray<i32>(cap);
    this.nx = new StaticArray<i32>(cap);
    this.ny = new StaticArray<i32>(cap);
    this.nz = new StaticArray<i32>(cap);
    this.count = new StaticArray<i32>(cap);
    this.volume = new StaticArray<f64>(cap);
    this.weight = new StaticArray<f64>(cap);
    this.value = new StaticArray<f64>(cap);
    this.score = new StaticArray<f64>(cap);
    this.dims = new StaticArray<i32>(((cap + 3) >> 2) * 12 + 4);
  }
  /** Group g (blocks 4g ... 4g + 3) of dims, at a 16-byte boundary. */
  @inline groupAt(g: i32): usize {
    return ((changetype<usize>(this.dims) + 15) & ~15) + <usize>g * 48;
  }
  @inline setDims(b: i32, l: i32, w: i32, h: i32): void {
    const at = this.groupAt(b >> 2) + ((<usize>(b & 3)) << 2);
    store<i32>(at, l);
    store<i32>(at, w, 16);
    store<i32>(at, h, 32);
  }
  allocLeaves(n: i32): void {
    this.leafBlock = new StaticArray<i32>(n);
    this.leafX = new StaticArray<i32>(n);
    this.leafY = new StaticArray<i32>(n);
    this.leafZ = new StaticArray<i32>(n);
  }
  /** Block i of from as block m, with the whole's outer size and figures (its leaves are the caller's). */
  copyFrom(m: i32, from: Blocks, i: i32, l: i32, w: i32, h: i32, volume: f64, weight: f64, value: f64, score: f64): void {
    this.type[m] = from.type[i];
    this.ul[m] = from.ul[i];
    this.uw[m] = from.uw[i];
    this.uh[m] = from.uh[i];
    this.nx[m] = from.nx[i];
    this.ny[m] = from.ny[i];
    this.nz[m] = from.nz[i];
    this.l[m] = l;
    this.w[m] = w;
    this.h[m] = h;
    this.count[m] = from.count[i];
    this.volume[m] = volume;
    this.weight[m] = weight;
    this.value[m] = value;
    this.score[m] = score;
    this.setDims(m, l, w, h);
  }
  /** Fills the last group past n, so firstWithin never takes a block that is not there. */
  sealDims(): Blocks {
    for (let b = this.n; b < ((this.n + 3) & ~3); b++) this.setDims(b, i32.MAX_VALUE, i32.MAX_VALUE, i32.MAX_VALUE);
    return this;
  }
}

/**
 * The first block from b on (or blocks.n) whose l, w and h are within the space's (sx, sy, sz
 * each splatted): what testing each block in turn finds, four blocks per step.
 */
@inline export function firstWithin(blocks: Blocks, b: i32, sx: v128, sy: v128, sz: v128): i32 {
  const n = blocks.n;
  if (b >= n) return n;
  let g = b >> 2;
  let at = blocks.groupAt(g);
  const within = v128.and(v128.and(i32x4.le_s(v128.load(at), sx), i32x4.le_s(v128.load(at, 16), sy)), i32x4.le_s(v128.load(at, 32), sz));
  // the lanes before b in its group do not count
  let m = i32x4.bitmask(within) & (0xf << (b & 3));
  const groups = (n + 3) >> 2;
  while (m == 0) {
    if (++g >= groups) return n;
    at += 48;
    m = i32x4.bitmask(v128.and(v128.and(i32x4.le_s(v128.load(at), sx), i32x4.le_s(v128.load(at, 16), sy)), i32x4.le_s(v128.load(at, 32), sz)));
  }
  return (g << 2) + ctz(m);
}

/** The same as firstWithin, one block at a time: the reference the tests hold it to. */
export function firstWithinPlain(blocks: Blocks, b: i32, sx: i32, sy: i32, sz: i32): i32 {
  for (; b < blocks.n; b++) {
    if (unchecked(blocks.l[b]) <= sx && unchecked(blocks.w[b]) <= sy && unchecked(blocks.h[b]) <= sz) return b;
  }
  return blocks.n;
}

function countBlocks(cargo: Cargo, bin: Bin, counts: StaticArray<i32>, maxLayers: i32, maxRun: i32): i32 {
  let total = 0;
  for (let t = 0; t < cargo.n; t++) {
    const c = counts[t];
    if (c <= 0) continue;
    for (let o = 0; o < 6; o++) {
      if (!orientationUsable(cargo, bin, t, o)) continue;
      const ul = orientedX(o, cargo.l[t], cargo.w[t], cargo.h[t]);
      const uw = orientedY(o, cargo.l[t], cargo.w[t], cargo.h[t]);
      const uh = orientedZ(o, cargo.l[t], cargo.w[t], cargo.h[t]);
      const mz = cargo.policy[t] == POLICY_FREE ? min(min(maxLayers, bin.h / uh), cargo.bearableLayers(t)) : 1;
      for (let nz = 1; nz <= mz && nz <= c; nz++) {
        for (let ny = 1; ny <= min(maxRun, bin.w / uw) && ny * nz <= c; ny++) {
          total += min(maxRun, min(bin.l / ul, c / (ny * nz)));
        }
      }
    }
  }
  return total;
}

/** Orientation o of type t is allowed, fits the bin, and is not a duplicate of an earlier one. */
function orientationUsable(cargo: Cargo, bin: Bin, t: i32, o: i32): bool {
  const mask = cargo.oriMask[t];
  if ((mask & (1 << o)) == 0) return false;
  const l = cargo.l[t], w = cargo.w[t], h = cargo.h[t];
  const x = orientedX(o, l, w, h), y = orientedY(o, l, w, h), z = orientedZ(o, l, w, h);
  if (x > bin.l || y > bin.w || z > bin.h) return false;
  for (let p = 0; p < o; p++) {
    if ((mask & (1 << p)) == 0) continue;
    if (orientedX(p, l, w, h) == x && orientedY(p, l, w, h) == y && orientedZ(p, l, w, h) == z) return false;
  }
  return true;
}

let sortKey: StaticArray<f64> = new StaticArray<f64>(0);
let sortTie: StaticArray<i32> = new StaticArray<i32>(0);
let sortSeed: u32 = 1;

/** The seed's only say: the order of blocks that score the same (so a different seed may give a different plan). */
@inline function seededRank(i: i32): u32 {
  let x = <u32>i * 0x9e3779b1 ^ sortSeed * 0x85ebca6b;
  x ^= x >> 16;
  x *= 0x7feb352d;
  x ^= x >> 15;
  return x;
}

/**
 * Every block of every type within the bin and the counts, best score first (ties: fewer
 * boxes, then a seeded rank, so the order is deterministic). The score is the volume, raised
 * by densityBonus for the densest type, so heavy units load first (low). Past maxBlocks the
 * longest rows go first, then the tallest stacks; every single box stays. Composite blocks are
 * made from these by the caller (composite-blocks.ts withCompositeBlocks), so that this file, which
 * they are made of, does not depend on them.
 *
 * Over 100 lines, one of assembly/'s named exceptions (docs/architecture.md): one pass over locals its
 * steps share; left whole until `bench:planner` shows that a split leaves the plans and the time alike.
 */
export function generateBlocks(
  cargo: Cargo, bin: Bin, counts: StaticArray<i32>, maxBlocks: i32, densityBonus: f64 = 0, seed: u32 = 1,
  valuePerVolume: StaticArray<f64> | null = null,
): Blocks {
  let maxDensity = 0.0;
  for (let t = 0; t < cargo.n; t++) maxDensity = max(maxDensity, <f64>cargo.weight[t] / max(1.0, cargo.volumeOf(t)));
  // Over the cap, rows get shorter first, then stacks lower: a stack fills the height in one
  // move, which loose boxes laid level by level rarely do as well (pallets of many SKUs).
  let maxLayers = 1 << 20;
  let maxRun = 1 << 20;
  while (maxRun > 1 && countBlocks(cargo, bin, counts, maxLayers, maxRun) > maxBlocks) {
    maxRun = maxRun > max(bin.l, bin.w) ? max(bin.l, bin.w) : maxRun - max(1, maxRun >> 2);
  }
  while (maxLayers > 1 && countBlocks(cargo, bin, counts, maxLayers, maxRun) > maxBlocks) {
    maxLayers = maxLayers > bin.h ? bin.h : maxLayers - max(1, maxLayers >> 2);
  }
  const total = countBlocks(cargo, bin, counts, maxLayers, maxRun);
  // Each block first as what the sort and the duplicate test read (type, orientation, counts
  // along x, y and z, boxes, score); the whole row is written only for the blocks kept.
  const rawType = new StaticArray<i32>(total);
  const rawOri = new StaticArray<i32>(total);
  const rawNx = new StaticArray<i32>(total);
  const rawNy = new StaticArray<i32>(total);
  const rawNz = new StaticArray<i32>(total);
  const rawCount = new StaticArray<i32>(total);
  const rawScore = new StaticArray<f64>(total);
  // per type its preference and value factor, per type and orientation its box's size along x, y, z
  const preference = new StaticArray<f64>(cargo.n);
  const valueFactor = new StaticArray<f64>(cargo.n);
  const oriented = new StaticArray<i32>(cargo.n * 18);
  // where each type's blocks start: the sort orders each type's run, then merges the runs
  const runStart = new StaticArray<i32>(cargo.n + 1);
  let runs = 0;
  let n = 0;
  for (let t = 0; t < cargo.n; t++) {
    const c = counts[t];
    if (c <= 0) continue;
    unchecked((runStart[runs++] = n));
    const unitWeight = <f64>cargo.weight[t];
    const pref = maxDensity > 0 ? 1 + densityBonus * (unitWeight / max(1.0, cargo.volumeOf(t))) / maxDensity : 1.0;
    unchecked((preference[t] = pref));
    unchecked((valueFactor[t] = valuePerVolume != null ? valuePerVolume[t] : 1.0));
    for (let o = 0; o < 6; o++) {
      if (!orientationUsable(cargo, bin, t, o)) continue;
      const ul = orientedX(o, cargo.l[t], cargo.w[t], cargo.h[t]);
      const uw = orientedY(o, cargo.l[t], cargo.w[t], cargo.h[t]);
      const uh = orientedZ(o, cargo.l[t], cargo.w[t], cargo.h[t]);
      unchecked((oriented[(t * 6 + o) * 3] = ul));
      unchecked((oriented[(t * 6 + o) * 3 + 1] = uw));
      unchecked((oriented[(t * 6 + o) * 3 + 2] = uh));
      const unitVolume = <f64>ul * <f64>uw * <f64>uh;
      // a column of a block stands on its bottom box, which bears only so many above it
      const mz = cargo.policy[t] == POLICY_FREE ? min(min(maxLayers, bin.h / uh), cargo.bearableLayers(t)) : 1;
      const my = min(maxRun, bin.w / uw), mx = min(maxRun, bin.l / ul);
      for (let nz = 1; nz <= mz && nz <= c; nz++) {
        for (let ny = 1; ny <= my && ny * nz <= c; ny++) {
          for (let nx = 1; nx <= mx && nx * ny * nz <= c; nx++) {
            const k = nx * ny * nz;
            unchecked((rawType[n] = t));
            unchecked((rawOri[n] = o));
            unchecked((rawNx[n] = nx));
            unchecked((rawNy[n] = ny));
            unchecked((rawNz[n] = nz));
            unchecked((rawCount[n] = k));
            unchecked((rawScore[n] = unitVolume * <f64>k * pref));
            n++;
          }
        }
      }
    }
  }
  // Sort an index by volume (desc), then by generation order, and drop blocks of the same type,
  // count and outer size as an earlier one: they pack the same.
  unchecked((runStart[runs] = n));
  sortSeed = seed;
  const order = sortedBlocks(rawScore, rawCount, n, runStart, runs);
  const out = new Blocks(n);
  // the blocks kept so far by (type, outer size), open addressing: the same outer size of one type
  // is the same count and score, so this finds what a scan of the kept blocks of equal score would
  const slots = 1 << (32 - clz(max(4, 2 * n)));
  const kept = new StaticArray<i32>(slots);
  memory.fill(changetype<usize>(kept), 0xff, (<usize>slots) << 2);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const i = unchecked(order[k]);
    const t = unchecked(rawType[i]), o = unchecked(rawOri[i]);
    const ul = unchecked(oriented[(t * 6 + o) * 3]), uw = unchecked(oriented[(t * 6 + o) * 3 + 1]), uh = unchecked(oriented[(t * 6 + o) * 3 + 2]);
    const nx = unchecked(rawNx[i]), ny = unchecked(rawNy[i]), nz = unchecked(rawNz[i]);
    const l = nx * ul, w = ny * uw, h = nz * uh;
    const score = unchecked(rawScore[i]);
    let at = <i32>(blockHash(t, l, w, h) & <u32>(slots - 1));
    let dup = false;
    for (let j = unchecked(kept[at]); j >= 0; j = unchecked(kept[at])) {
      if (unchecked(out.type[j]) == t && unchecked(out.l[j]) == l && unchecked(out.w[j]) == w && unchecked(out.h[j]) == h && unchecked(out.score[j]) == score) {
        dup = true;
        break;
      }
      at = (at + 1) & (slots - 1);
    }
    if (dup) continue;
    unchecked((kept[at] = m));
    const count = unchecked(rawCount[i]);
    const volume = <f64>ul * <f64>uw * <f64>uh * <f64>count;
    unchecked((out.type[m] = t));
    unchecked((out.ul[m] = ul));
    unchecked((out.uw[m] = uw));
    unchecked((out.uh[m] = uh));
    unchecked((out.nx[m] = nx));
    unchecked((out.ny[m] = ny));
    unchecked((out.nz[m] = nz));
    unchecked((out.l[m] = l));
    unchecked((out.w[m] = w));
    unchecked((out.h[m] = h));
    unchecked((out.count[m] = count));
    unchecked((out.volume[m] = volume));
    unchecked((out.weight[m] = <f64>cargo.weight[t] * <f64>count));
    unchecked((out.value[m] = volume * unchecked(valueFactor[t])));
    unchecked((out.score[m] = score));
    out.setDims(m, l, w, h);
    m++;
  }
  out.n = m;
  out.scoreFactor = 1 + max(0.0, densityBonus);
  return out.sealDims();
}

@inline function blockHash(t: i32, l: i32, w: i32, h: i32): u32 {
  let x = <u32>t * 0x9e3779b1 ^ <u32>l * 0x85ebca6b ^ <u32>w * 0xc2b2ae35 ^ <u32>h * 0x27d4eb2f;
  x ^= x >> 15;
  x *= 0x2c1b3c6d;
  x ^= x >> 12;
  return x;
}

/** The first block that could fit a space of this volume: all before it are larger. */
export function firstBlockWithin(blocks: Blocks, volume: f64): i32 {
  const limit = volume * blocks.scoreFactor;
  let lo = 0, hi = blocks.n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (unchecked(blocks.score[mid]) > limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// a comes before b: higher score, then fewer boxes, then the seeded rank, then lower index.
// A strict total order, so any correct sort gives the one same order.
@inline function before(a: i32, b: i32): bool {
  const va = unchecked(sortKey[a]), vb = unchecked(sortKey[b]);
  if (va != vb) return va > vb;
  const ca = unchecked(sortTie[a]), cb = unchecked(sortTie[b]);
  if (ca != cb) return ca < cb;
  const ra = unchecked(sortRank[a]), rb = unchecked(sortRank[b]);
  if (ra != rb) return ra < rb;
  return a < b;
}

/**
 * The blocks 0 ... n - 1 in "before" order (see before). Each block's keys are read once into two
 * u64s: (score, as its bits, which order as the value does for scores of 0 and more, inverted for
 * largest first) and (boxes, seeded rank); the index breaks what ties remain. The blocks come in runs,
 * one per type (runStart), and a type's score is its unit's volume times the boxes (times its
 * preference), so a run is first laid out by boxes, most first (a counting sort), then put in full
 * order by an insertion sort that has only each group of equal boxes to order by rank (a few blocks:
 * one size in its arrangements and turns), and the runs are merged. The insertion sort compares the
 * whole key, so whatever the scores, the order is the one a comparison sort gives.
 */
function sortedBlocks(score: StaticArray<f64>, count: StaticArray<i32>, n: i32, runStart: StaticArray<i32>, runs: i32): StaticArray<i32> {
  const k1 = new StaticArray<u64>(n), k2 = new StaticArray<u64>(n);
  for (let i = 0; i < n; i++) {
    unchecked((k1[i] = ~reinterpret<u64>(unchecked(score[i]))));
    unchecked((k2[i] = (<u64>unchecked(count[i]) << 32) | <u64>seededRank(i)));
  }
  let at = new StaticArray<i32>(n);
  for (let r = 0; r < runs; r++) {
    const s = unchecked(runStart[r]), e = unchecked(runStart[r + 1]);
    let most = 0;
    for (let i = s; i < e; i++) most = max(most, unchecked(count[i]));
    // slot[most - boxes]: where the next block of that many boxes goes
    const slot = new StaticArray<i32>(most + 2);
    for (let i = s; i < e; i++) unchecked((slot[most - unchecked(count[i]) + 1] += 1));
    unchecked((slot[0] = s));
    for (let k = 1; k <= most + 1; k++) unchecked((slot[k] += slot[k - 1]));
    for (let i = s; i < e; i++) {
      const k = most - unchecked(count[i]);
      unchecked((at[unchecked(slot[k])] = i));
      unchecked((slot[k] += 1));
    }
    for (let i = s + 1; i < e; i++) {
      const v = unchecked(at[i]);
      let j = i;
      while (j > s && blockBefore(k1, k2, v, unchecked(at[j - 1]))) {
        unchecked((at[j] = at[j - 1]));
        j--;
      }
      unchecked((at[j] = v));
    }
  }
  // merge neighbouring runs until one is left; a tie (equal keys, another type) keeps the left
  // run's first, the lower index
  let bounds = new StaticArray<i32>(runs + 1);
  for (let r = 0; r <= runs; r++) unchecked((bounds[r] = runStart[r]));
  let to = new StaticArray<i32>(n);
  let m = runs;
  while (m > 1) {
    let r = 0, w = 0;
    for (; r + 1 < m; r += 2) {
      const lo = unchecked(bounds[r]), mid = unchecked(bounds[r + 1]), hi = unchecked(bounds[r + 2]);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (blockBefore(k1, k2, unchecked(at[j]), unchecked(at[i]))) unchecked((to[k++] = at[j++]));
        else unchecked((to[k++] = at[i++]));
      }
      while (i < mid) unchecked((to[k++] = at[i++]));
      while (j < hi) unchecked((to[k++] = at[j++]));
      unchecked((bounds[w++] = lo));
    }
    if (r < m) {
      // an odd run out: copied as it is
      for (let i = unchecked(bounds[r]); i < unchecked(bounds[r + 1]); i++) unchecked((to[i] = at[i]));
      unchecked((bounds[w++] = bounds[r]));
    }
    unchecked((bounds[w] = n));
    m = w;
    const t = at; at = to; to = t;
  }
  return at;
}

/** Block a comes before block b: the smaller first key, then second, then index. */
@inline function blockBefore(k1: StaticArray<u64>, k2: StaticArray<u64>, a: i32, b: i32): bool {
  const a1 = unchecked(k1[a]), b1 = unchecked(k1[b]);
  if (a1 != b1) return a1 < b1;
  const a2 = unchecked(k2[a]), b2 = unchecked(k2[b]);
  if (a2 != b2) return a2 < b2;
  return a < b;
}

/** Sorts order (indices into key) by key, largest first; ties as sortOrder breaks them. */
export function sortByKey(order: StaticArray<i32>, key: StaticArray<f64>): void {
  sortKey = key;
  sortTie = new StaticArray<i32>(key.length);
  sortOrder(order, order.length);
}

// set by each sort (a global kept across jobs would point into the heap the next job resets)
let sortRank: StaticArray<u32> = new StaticArray<u32>(0);

/** Sorts order[0, n) into "before" order: insertion sort of runs of 16, then merges. */
function sortOrder(order: StaticArray<i32>, n: i32): void {
  // the seeded ranks once per element, not per comparison
  sortRank = new StaticArray<u32>(n);
  for (let i = 0; i < n; i++) unchecked((sortRank[i] = seededRank(i)));
  const RUN = 16;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const v = unchecked(order[i]);
      let j = i;
      while (j > lo && before(v, unchecked(order[j - 1]))) {
        unchecked((order[j] = order[j - 1]));
        j--;
      }
      unchecked((order[j] = v));
    }
  }
  let from = order, to = new StaticArray<i32>(n);
  for (let width = RUN; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = min(n, lo + width), hi = min(n, lo + 2 * width);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        // the right run's head goes first only if it comes strictly before: a stable merge
        if (before(unchecked(from[j]), unchecked(from[i]))) unchecked((to[k++] = from[j++]));
        else unchecked((to[k++] = from[i++]));
      }
      while (i < mid) unchecked((to[k++] = from[i++]));
      while (j < hi) unchecked((to[k++] = from[j++]));
    }
    const t = from; from = to; to = t;
  }
  if (from !== order) memory.copy(changetype<usize>(order), changetype<usize>(from), (<usize>n) << 2);
}
