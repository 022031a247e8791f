// Mixed pallets of whole layers (the host side, src/planner/whole-layer-pallets.ts, says what they are
// and finds each SKU's layer patterns): here the layer choices are tried. For each choice, each SKU's
// whole layers (largest cartons first) take the smallest cartons into the strips their pattern
// leaves free, the knapsack stacks them onto pallets (fullest-pallet.ts), and the choice is dropped
// when a pallet's layers would not stand wholly one on another. A mixed order tries many choices;
// most end at their first pallet. In the host's JavaScript this loop was the planner threads'
// costliest, and slowest on a fresh thread (docs/benchmarks.md).
import { fullest, LayerBearing } from './fullest-pallet';
import { InputReader, OutputWriter } from './wire';
import { LayerStacksInput, pushBox, readLayerStacksInput } from './wire-layout';

/** The knapsack runs once per distinct pallet; past this many layer kinds it is not worth it. */
const MAX_LAYER_KINDS: i32 = 48;

/** Boxes of a layer, at its own floor (z from 0). */
class Boxes {
  n: i32 = 0;
  x: StaticArray<i32>;
  y: StaticArray<i32>;
  z: StaticArray<i32>;
  l: StaticArray<i32>;
  w: StaticArray<i32>;
  h: StaticArray<i32>;
  constructor(capacity: i32) {
    this.x = new StaticArray<i32>(capacity);
    this.y = new StaticArray<i32>(capacity);
    this.z = new StaticArray<i32>(capacity);
    this.l = new StaticArray<i32>(capacity);
    this.w = new StaticArray<i32>(capacity);
    this.h = new StaticArray<i32>(capacity);
  }
  push(x: i32, y: i32, z: i32, l: i32, w: i32, h: i32): void {
    const i = this.n++;
    unchecked((this.x[i] = x));
    unchecked((this.y[i] = y));
    unchecked((this.z[i] = z));
    unchecked((this.l[i] = l));
    unchecked((this.w[i] = w));
    unchecked((this.h[i] = h));
  }
  /** The first n boxes into out as the job's answer has them (wire-layout.ts Box, its type the SKU), raised by z; returns n. */
  write(out: OutputWriter, sku: i32, n: i32, z: i32): i32 {
    for (let i = 0; i < n; i++) {
      pushBox(out, sku, unchecked(this.x[i]), unchecked(this.y[i]), z + unchecked(this.z[i]), unchecked(this.l[i]), unchecked(this.w[i]), unchecked(this.h[i]));
    }
    return n;
  }
  /** Deck area of the first n boxes standing at z 0. */
  floorArea(n: i32): f64 {
    let a: f64 = 0;
    for (let i = 0; i < n; i++) if (unchecked(this.z[i]) == 0) a += <f64>unchecked(this.l[i]) * <f64>unchecked(this.w[i]);
    return a;
  }
}

/** One free strip of the deck beside a layer's cartons. */
class Strip {
  constructor(
    public x: i32,
    public y: i32,
    public l: i32,
    public w: i32,
  ) {}
}

/** Layers of one kind: a host pattern, maybe the first fillerCount of a filler's columns, and how many such layers are left. */
class Kind {
  height: i32;
  weightG: f64;
  cover: f64;
  constructor(
    public host: i32,
    public pattern: i32,
    public filler: i32,
    public columns: Boxes | null,
    public fillerCount: i32,
    public count: i32,
    hostBoxes: Boxes,
    hostWeight: f64,
    fillerWeight: f64,
  ) {
    this.height = unchecked(hostBoxes.h[0]);
    this.weightG = <f64>hostBoxes.n * hostWeight + (columns ? <f64>fillerCount * fillerWeight : 0);
    this.cover = hostBoxes.floorArea(hostBoxes.n) + (columns ? columns.floorArea(fillerCount) : 0);
  }
}

class Job {
  deckL: i32 = 0;
  deckW: i32 = 0;
  loadHeight: i32 = 0;
  loadWeightG: f64 = 0;
  /** A filler's columns hold at most this many cartons (the host's bound on a layer's cartons). */
  maxCartons: i32 = 0;
  /** The least score any choice can have: one that reaches it is not beaten. */
  atLeast: f64 = 0;
  n: i32 = 0;
  l: StaticArray<i32> = new StaticArray<i32>(0);
  w: StaticArray<i32> = new StaticArray<i32>(0);
  h: StaticArray<i32> = new StaticArray<i32>(0);
  upright: StaticArray<bool> = new StaticArray<bool>(0);
  weightG: StaticArray<f64> = new StaticArray<f64>(0);
  /** The most one unit may carry above it (g); infinity: no limit. */
  maxLoad: StaticArray<f64> = new StaticArray<f64>(0);
  /** Some SKU has a limit: the knapsack stacks the weakest layers on top (fullest-pallet.ts LayerBearing). */
  bearing: bool = false;
  units: StaticArray<i32> = new StaticArray<i32>(0);
  /** Each SKU's patterns (ids into patterns), at most three. */
  options: StaticArray<StaticArray<i32>> = new StaticArray<StaticArray<i32>>(0);
  patterns: Array<Boxes> = new Array<Boxes>();
  /** Per pattern: its free strips, once asked. */
  strips: Array<Array<Strip> | null> = new Array<Array<Strip> | null>();
  /** Per pattern and filler SKU: the filler's columns in its strips, once asked. */
  columns: Map<i32, Boxes> = new Map<i32, Boxes>();
  /** SKUs largest first (hosts), by volume; a stable sort, so equal volumes keep the SKUs' order. */
  order: StaticArray<i32> = new StaticArray<i32>(0);
  rank: StaticArray<i32> = new StaticArray<i32>(0);

  stripsOf(p: i32): Array<Strip> {
    let s = this.strips[p];
    if (s === null) {
      s = stripsBeside(this.patterns[p], this.deckL, this.deckW);
      this.strips[p] = s;
    }
    return s;
  }

  /** The filler's columns in pattern p's strips, as tall as p's layer. */
  columnsOf(p: i32, filler: i32): Boxes {
    const key = p * this.n + filler;
    if (this.columns.has(key)) return this.columns.get(key);
    const height = this.patterns[p].h[0];
    const c = fillStrips(this.l[filler], this.w[filler], this.h[filler], this.upright[filler], height, this.stripsOf(p), this.maxCartons);
    this.columns.set(key, c);
    return c;
  }
}

/** The free strips beside a layer's cartons: past its far end, and beside it. */
function stripsBeside(boxes: Boxes, deckL: i32, deckW: i32): Array<Strip> {
  let bx = i32.MIN_VALUE;
  let by = i32.MIN_VALUE;
  for (let i = 0; i < boxes.n; i++) {
    bx = max(bx, unchecked(boxes.x[i]) + unchecked(boxes.l[i]));
    by = max(by, unchecked(boxes.y[i]) + unchecked(boxes.w[i]));
  }
  const out = new Array<Strip>();
  const a = new Strip(bx, 0, deckL - bx, deckW);
  const b = new Strip(0, by, bx, deckW - by);
  if (a.l > 0 && a.w > 0) out.push(a);
  if (b.l > 0 && b.w > 0) out.push(b);
  return out;
}

/**
 * Columns of a carton exactly `height` tall in the strips, as many as fit in a simple grid: each
 * face it may stand on (one per height, as single-sku-pallet.ts's stances), both turns, the most
 * boxes winning (the first on a tie), none of more than maxBoxes. Column by column, bottom up.
 */
function fillStrips(l: i32, w: i32, h: i32, upright: bool, height: i32, free: Array<Strip>, maxBoxes: i32): Boxes {
  const sa = new StaticArray<i32>(3), sb = new StaticArray<i32>(3), sh = new StaticArray<i32>(3);
  sa[0] = l; sb[0] = w; sh[0] = h;
  sa[1] = l; sb[1] = h; sh[1] = w;
  sa[2] = w; sb[2] = h; sh[2] = l;
  let best = new Boxes(0);
  const faces = upright ? 1 : 3;
  for (let s = 0; s < faces; s++) {
    // a face whose height an earlier face had is the same stance
    let seen = false;
    for (let t = 0; t < s; t++) if (sh[t] == sh[s]) seen = true;
    if (seen) continue;
    const a = sa[s], b = sb[s], ch = sh[s];
    const levels = <i32>Math.round(<f64>height / <f64>ch);
    if (levels < 1 || levels * ch != height) continue;
    for (let turn = 0; turn < 2; turn++) {
      const fl = turn == 0 ? a : b;
      const fw = turn == 0 ? b : a;
      let count: i64 = 0;
      for (let f = 0; f < free.length; f++) count += <i64>(free[f].l / fl) * <i64>(free[f].w / fw) * <i64>levels;
      if (count <= <i64>best.n || count > <i64>maxBoxes) continue;
      const boxes = new Boxes(<i32>count);
      for (let f = 0; f < free.length; f++) {
        const st = free[f];
        const nx = st.l / fl;
        const ny = st.w / fw;
        for (let i = 0; i < nx; i++)
          for (let j = 0; j < ny; j++)
            for (let k = 0; k < levels; k++) boxes.push(st.x + i * fl, st.y + j * fw, k * ch, fl, fw, ch);
      }
      best = boxes;
    }
  }
  return best;
}

/** True when every base box of a layer of `upper` stands wholly on the tops of a layer of `lower` below it. */
function standsOn(job: Job, lower: Kind, upper: Kind): bool {
  const host = job.patterns[upper.pattern];
  const cols = upper.columns;
  return basesStand(job, lower, host, host.n) && (cols === null || basesStand(job, lower, cols, upper.fillerCount));
}

/** True when every box at z 0 among the first n of `boxes` stands wholly on the tops of a layer of `lower`. */
function basesStand(job: Job, lower: Kind, boxes: Boxes, n: i32): bool {
  for (let i = 0; i < n; i++) {
    if (unchecked(boxes.z[i]) != 0) continue;
    if (!supported(job, lower, lower.height, unchecked(boxes.x[i]), unchecked(boxes.y[i]), unchecked(boxes.l[i]), unchecked(boxes.w[i]))) return false;
  }
  return true;
}

function supported(job: Job, lower: Kind, z: i32, x: i32, y: i32, l: i32, w: i32): bool {
  let area: i64 = 0;
  const host = job.patterns[lower.pattern];
  area += overlap(host, host.n, z, x, y, l, w);
  const cols = lower.columns;
  if (cols) area += overlap(cols, lower.fillerCount, z, x, y, l, w);
  return area == <i64>l * <i64>w;
}

/** Area of the first n boxes' tops at z under the rectangle (x, y, l, w). */
function overlap(b: Boxes, n: i32, z: i32, x: i32, y: i32, l: i32, w: i32): i64 {
  let area: i64 = 0;
  for (let i = 0; i < n; i++) {
    if (unchecked(b.z[i]) + unchecked(b.h[i]) != z) continue;
    const bx = unchecked(b.x[i]), by = unchecked(b.y[i]);
    const ox = min(x + l, bx + unchecked(b.l[i])) - max(x, bx);
    const oy = min(y + w, by + unchecked(b.w[i])) - max(y, by);
    if (ox > 0 && oy > 0) area += <i64>ox * <i64>oy;
  }
  return area;
}

/** A pallet of the chosen layers (kind, how many), and how many such pallets. */
class Pallet {
  constructor(
    public layers: Array<Kind>,
    public times: i32,
  ) {}
}

class Built {
  constructor(
    public pallets: Array<Pallet>,
    public count: i32,
    public rest: StaticArray<i32>,
  ) {}
}

/**
 * One choice's pallets (choice: each SKU's pattern, -1 for none), or null when it builds nothing, a
 * pallet would not stand, or more than mostPallets are built (the choice cannot win).
 */
function stackLayersOnPallets(job: Job, choice: StaticArray<i32>, mostPallets: f64): Built | null {
  const n = job.n;
  const left = new StaticArray<i32>(n);
  let any = false;
  for (let i = 0; i < n; i++) {
    left[i] = job.units[i];
    if (choice[i] >= 0) any = true;
  }
  if (!any) return null;

  // Largest cartons host first; each host's strips take the smallest cartons that fit them before
  // those cartons make layers of their own (a strip is space no layer uses otherwise).
  const kinds = new Array<Kind>();
  for (let o = 0; o < n; o++) {
    const host = job.order[o];
    if (choice[host] < 0) continue;
    const p = job.options[host][choice[host]];
    const boxes = job.patterns[p];
    let layers = left[host] / boxes.n;
    left[host] -= layers * boxes.n;
    const height = boxes.h[0];
    const free = job.stripsOf(p);
    for (let f = n - 1; f >= 0; f--) {
      const filler = job.order[f];
      if (layers == 0 || free.length == 0) break;
      if (job.rank[filler] <= job.rank[host] || left[filler] == 0) continue;
      const columns = job.columnsOf(p, filler);
      if (columns.n == 0) continue;
      let want = left[filler];
      const full = min(layers, want / columns.n);
      if (full > 0) {
        kinds.push(new Kind(host, p, filler, columns, columns.n, full, boxes, job.weightG[host], job.weightG[filler]));
        layers -= full;
        want -= full * columns.n;
      }
      // a last partial fill keeps whole columns, so what stands on it is flat
      const perColumn = <i32>Math.round(<f64>height / <f64>columns.h[0]);
      const part = (want / perColumn) * perColumn;
      if (layers > 0 && part > 0 && want < columns.n) {
        kinds.push(new Kind(host, p, filler, columns, part, 1, boxes, job.weightG[host], job.weightG[filler]));
        layers -= 1;
        want -= part;
      }
      left[filler] = want;
    }
    if (layers > 0) kinds.push(new Kind(host, p, -1, null, 0, layers, boxes, job.weightG[host], 0));
  }
  if (kinds.length == 0 || kinds.length > MAX_LAYER_KINDS) return null;

  const k = kinds.length;
  const height = new StaticArray<i32>(k);
  const weight = new StaticArray<f64>(k);
  const count = new StaticArray<i32>(k);
  const pickKind = new StaticArray<i32>(k);
  const pickLayers = new StaticArray<i32>(k);
  const layersLeft = new StaticArray<i32>(k);
  for (let i = 0; i < k; i++) {
    height[i] = kinds[i].height;
    weight[i] = kinds[i].weightG;
  }
  const pallets = new Array<Pallet>();
  let built = 0;
  while (true) {
    // no more layers of a kind on one pallet than its lowest can bear (layers of it at the top)
    for (let i = 0; i < k; i++) {
      layersLeft[i] = kinds[i].count;
      count[i] = min(kinds[i].count, bearableRun(job, kinds[i]));
    }
    const picked = fullest(job.loadHeight, job.loadWeightG, k, height, weight, count, pickKind, pickLayers, layersLeft, job.bearing ? layerBearing(job, kinds) : null);
    if (picked == 0) break;
    // the same pallet for half of what the layers allow, then a fresh look at what is left: far fewer
    // knapsack runs than one per pallet, and the mix follows what remains
    let least = i32.MAX_VALUE;
    for (let i = 0; i < picked; i++) least = min(least, kinds[pickKind[i]].count / pickLayers[i]);
    const times = max(1, least / 2);
    const layers = stack(job, kinds, pickKind, pickLayers, picked);
    if (layers === null) return null;
    // the layers the stack kept (a weak one that would carry too much, or not stand, goes back)
    let same = times;
    for (let i = 0; i < picked; i++) {
      let kept = 0;
      for (let j = 0; j < layers.length; j++) if (layers[j] === kinds[pickKind[i]]) kept++;
      pickLayers[i] = kept;
      if (kept > 0) same = min(same, max(1, kinds[pickKind[i]].count / kept / 2));
    }
    pallets.push(new Pallet(layers, same));
    built += same;
    for (let i = 0; i < picked; i++) kinds[pickKind[i]].count -= pickLayers[i] * same;
    if (<f64>built > mostPallets) return null;
  }
  // layers no pallet took (one too heavy for the pallet alone) go back to the block search
  for (let i = 0; i < k; i++) {
    const kind = kinds[i];
    if (kind.count == 0) continue;
    left[kind.host] += kind.count * job.patterns[kind.pattern].n;
    if (kind.columns) left[kind.filler] += kind.count * kind.fillerCount;
  }
  if (built == 0) return null;
  return new Built(pallets, built, left);
}

/** The picked layers, widest cover lowest (then heaviest; a stable sort), or null if one would not stand on the one below. */
function stack(job: Job, kinds: Array<Kind>, pickKind: StaticArray<i32>, pickLayers: StaticArray<i32>, picked: i32): Array<Kind> | null {
  const layers = new Array<Kind>();
  for (let i = 0; i < picked; i++) for (let c = 0; c < pickLayers[i]; c++) layers.push(kinds[pickKind[i]]);
  for (let i = 1; i < layers.length; i++) {
    const v = layers[i];
    let j = i;
    while (j > 0 && (layers[j - 1].cover < v.cover || (layers[j - 1].cover == v.cover && layers[j - 1].weightG < v.weightG))) {
      layers[j] = layers[j - 1];
      j--;
    }
    layers[j] = v;
  }
  if (!job.bearing) return standsWhole(job, layers) ? layers : null;
  if (standsWhole(job, layers) && bears(job, layers)) return layers;
  // a layer that bears little goes higher: the strongest lowest, and the layers as far up as they
  // still stand and bear (the rest go back for the next pallets); null when not even the first does
  for (let i = 1; i < layers.length; i++) {
    const v = layers[i];
    let j = i;
    while (j > 0 && strength(job, layers[j - 1]) < strength(job, v)) {
      layers[j] = layers[j - 1];
      j--;
    }
    layers[j] = v;
  }
  // fewer layers above only lighten what each carries: the longest part from the bottom that holds
  let kept = 0;
  while (kept < layers.length) {
    const next = layers.slice(0, kept + 1);
    if ((kept > 0 && !standsOn(job, layers[kept - 1], layers[kept])) || !bears(job, next)) break;
    kept++;
  }
  return kept == 0 ? null : layers.slice(0, kept);
}

function standsWhole(job: Job, layers: Array<Kind>): bool {
  for (let i = 1; i < layers.length; i++) if (!standsOn(job, layers[i - 1], layers[i])) return false;
  return true;
}

/** What each kind's layers may carry, the kinds weakest first (strength, then the narrower cover): the knapsack's bearing. */
function layerBearing(job: Job, kinds: Array<Kind>): LayerBearing {
  const k = kinds.length;
  const b = new LayerBearing(k);
  for (let i = 0; i < k; i++) {
    const kind = kinds[i];
    b.capA[i] = job.maxLoad[kind.host];
    b.incA[i] = job.weightG[kind.host];
    const cols = kind.columns;
    if (cols !== null && kind.fillerCount > 0) {
      const levels = <f64>Math.round(<f64>kind.height / <f64>cols.h[0]);
      const w = job.weightG[kind.filler];
      b.capB[i] = job.maxLoad[kind.filler] - (levels - 1) * w;
      b.incB[i] = levels * w;
    } else {
      b.capB[i] = Infinity;
      b.incB[i] = 0;
    }
    b.weak[i] = strength(job, kind) < kind.weightG;
    for (let j = 0; j < k; j++) b.upperStandsOn[i * k + j] = i == j || standsOn(job, kinds[j], kind);
    let j = i;
    while (j > 0 && weaker(kinds[i], strength(job, kinds[i]), kinds[b.order[j - 1]], strength(job, kinds[b.order[j - 1]]))) {
      b.order[j] = b.order[j - 1];
      j--;
    }
    b.order[j] = i;
  }
  return b;
}

/** a goes above b: it bears less, or as much with less cover. */
function weaker(a: Kind, aRoom: f64, b: Kind, bRoom: f64): bool {
  return aRoom < bRoom || (aRoom == bRoom && a.cover < b.cover);
}

/** Layers of a kind one on another that its lowest bears with nothing else above them (i32.MAX_VALUE: no limit). */
function bearableRun(job: Job, kind: Kind): i32 {
  let run = i32.MAX_VALUE;
  const hostLimit = job.maxLoad[kind.host];
  if (hostLimit != Infinity) run = 1 + <i32>min(Math.floor(hostLimit / job.weightG[kind.host]), 1e9);
  const cols = kind.columns;
  if (cols !== null && kind.fillerCount > 0 && job.maxLoad[kind.filler] != Infinity) {
    const levels = <f64>Math.round(<f64>kind.height / <f64>cols.h[0]);
    const w = job.weightG[kind.filler];
    const spare = job.maxLoad[kind.filler] - (levels - 1) * w;
    run = spare < 0 ? 0 : min(run, 1 + <i32>min(Math.floor(spare / (levels * w)), 1e9));
  }
  return run;
}

/** What one layer of a kind may carry above it: its host's units, and its filler's columns less their own upper units. */
function strength(job: Job, kind: Kind): f64 {
  const host = job.maxLoad[kind.host];
  const cols = kind.columns;
  if (cols === null || kind.fillerCount == 0) return host;
  const levels = <f64>Math.round(<f64>kind.height / <f64>cols.h[0]);
  return min(host, job.maxLoad[kind.filler] - (levels - 1) * job.weightG[kind.filler]);
}

/**
 * Every unit carries no more than it may: what rests on it is at most the units above it in its own
 * column while the layers above are of its kind (the same pattern, so the same columns), then all
 * the layers above those (docs/decisions.md, "Load bearing").
 */
function bears(job: Job, layers: Array<Kind>): bool {
  const n = layers.length;
  for (let i = 0; i < n; i++) {
    const kind = layers[i];
    let run = 0;
    while (i + run + 1 < n && layers[i + run + 1] === kind) run++;
    // the layers above the run of its kind
    let beyond: f64 = 0;
    for (let j = i + run + 1; j < n; j++) beyond += layers[j].weightG;
    if (<f64>run * job.weightG[kind.host] + beyond > job.maxLoad[kind.host]) return false;
    const cols = kind.columns;
    if (cols !== null && kind.fillerCount > 0) {
      const levels = <f64>Math.round(<f64>kind.height / <f64>cols.h[0]);
      const w = job.weightG[kind.filler];
      if ((levels - 1) * w + <f64>run * levels * w + beyond > job.maxLoad[kind.filler]) return false;
    }
  }
  return true;
}

/**
 * The job's input and answer: wire-layout.ts LayerStacksInput and LayerStacksAnswer (the best choice's
 * pallets, each entry how many such pallets and its boxes, bottom layer first, and the units left of
 * each SKU; none when no choice builds a pallet).
 */
export function layerStacksJob(input: InputReader): StaticArray<i32> {
  const given = readLayerStacksInput(input);
  const job = jobOf(given);
  const atLeast = job.atLeast;
  const n = job.n;
  const deckVolume = <f64>job.deckL * <f64>job.deckW * <f64>job.loadHeight;
  const choices = given.choices.length;
  let best: Built | null = null;
  let bestScore: f64 = 0;
  for (let c = 0; c < choices; c++) {
    const choice = given.choices[c].patterns;
    if (best !== null && bestScore <= atLeast) break;
    // a choice whose pallets alone reach the best score cannot beat it (a tie keeps the earlier)
    const built = stackLayersOnPallets(job, choice, best !== null ? bestScore - 1 : f64.MAX_VALUE);
    if (built === null) continue;
    // what the block search will need for the rest, counted by volume: enough to rank the choices
    let restVolume: f64 = 0;
    for (let i = 0; i < n; i++) restVolume += <f64>built.rest[i] * <f64>job.l[i] * <f64>job.w[i] * <f64>job.h[i];
    const score = <f64>built.count + Math.ceil(restVolume / deckVolume);
    if (best === null || score < bestScore) {
      best = built;
      bestScore = score;
    }
  }
  return answer(job, best);
}

/** The job's pallet type, bounds and SKUs with their patterns as the host gave them; the SKUs ordered largest first. */
function jobOf(given: LayerStacksInput): Job {
  const job = new Job();
  job.deckL = given.deckL;
  job.deckW = given.deckW;
  job.loadHeight = given.loadHeight;
  job.loadWeightG = <f64>given.loadWeightG;
  job.maxCartons = given.maxCartons;
  job.atLeast = <f64>given.atLeast;
  const n = (job.n = given.skus.length);
  job.l = new StaticArray<i32>(n);
  job.w = new StaticArray<i32>(n);
  job.h = new StaticArray<i32>(n);
  job.upright = new StaticArray<bool>(n);
  job.weightG = new StaticArray<f64>(n);
  job.maxLoad = new StaticArray<f64>(n);
  job.units = new StaticArray<i32>(n);
  job.options = new StaticArray<StaticArray<i32>>(n);
  for (let i = 0; i < n; i++) {
    const sku = given.skus[i];
    job.l[i] = sku.l;
    job.w[i] = sku.w;
    job.h[i] = sku.h;
    job.upright[i] = sku.upright;
    job.weightG[i] = <f64>sku.weightG;
    const bears = sku.maxLoadG;
    job.maxLoad[i] = bears < 0 ? Infinity : <f64>bears;
    if (bears >= 0) job.bearing = true;
    job.units[i] = sku.units;
    const options = new StaticArray<i32>(sku.patterns.length);
    for (let o = 0; o < options.length; o++) {
      const cartons = sku.patterns[o].boxes;
      const boxes = new Boxes(cartons.length);
      for (let b = 0; b < cartons.length; b++) {
        const c = cartons[b];
        boxes.push(c.x, c.y, 0, c.l, c.w, c.h);
      }
      options[o] = job.patterns.length;
      job.patterns.push(boxes);
      job.strips.push(null);
    }
    job.options[i] = options;
  }
  job.order = new StaticArray<i32>(n);
  job.rank = new StaticArray<i32>(n);
  for (let i = 0; i < n; i++) {
    // insertion: stable, larger volume first
    const v = volumeOf(job, i);
    let j = i;
    while (j > 0 && volumeOf(job, job.order[j - 1]) < v) {
      job.order[j] = job.order[j - 1];
      j--;
    }
    job.order[j] = i;
  }
  for (let i = 0; i < n; i++) job.rank[job.order[i]] = i;
  return job;
}

/** The answer for the best choice's pallets (layerStacksJob says its layout). */
function answer(job: Job, best: Built | null): StaticArray<i32> {
  const out = new OutputWriter(64);
  if (best === null) {
    out.push(0);
    return out.finish();
  }
  out.push(1);
  out.push(best.pallets.length);
  for (let p = 0; p < best.pallets.length; p++) {
    const pallet = best.pallets[p];
    out.push(pallet.times);
    const at = out.reserve();
    let boxes = 0;
    let z = 0;
    for (let i = 0; i < pallet.layers.length; i++) {
      const layer = pallet.layers[i];
      const host = job.patterns[layer.pattern];
      boxes += host.write(out, layer.host, host.n, z);
      const cols = layer.columns;
      if (cols) boxes += cols.write(out, layer.filler, layer.fillerCount, z);
      z += layer.height;
    }
    out.set(at, boxes);
  }
  out.push(job.n);
  for (let i = 0; i < job.n; i++) out.push(best.rest[i]);
  return out.finish();
}

function volumeOf(job: Job, i: i32): f64 {
  return <f64>job.l[i] * <f64>job.w[i] * <f64>job.h[i];
}
