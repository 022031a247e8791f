// Beam search over block placements with greedy completion (the BSG scheme of the container
// loading literature): each candidate move is judged by the load a greedy run reaches from it,
// the beam keeps the best moves, and the width doubles while the budget lasts.
import { Bin, Cargo, orientedX, orientedY, orientedZ } from './cargo';
import { Blocks } from './blocks';
import { nowMs } from './clock';
import {
  DEAD, KIND_LEVEL, LoadState, SP_KIND, SP_STRIDE, SP_X1, SP_X2, SP_Y1, SP_Y2, SP_Z,
} from './load-state';
import { Placement } from './placement';
import { Bearing } from './bearing';
import { FitCache, firstListed, LISTED, nextWithin, NOT_KEPT } from './fit-cache';
import { ChildMemo } from './child-memo';
import { room } from './room';
import { EXIT_ALL_PLACED, EXIT_EFFORT, EXIT_TIME_LIMIT, EXIT_WIDEST_BEAM, Limits } from './wire-layout';

/** Lowest space first, then nearest a side wall: layers from the floor up (pallets). */
export const SPACE_LOWEST: i32 = 0;
/** Nearest a container corner in all three axes (the maximal-space rule of Parreño et al.). */
export const SPACE_CORNER: i32 = 1;
/** How many spaces one pass of selectSpaces lists, best first. */
const SPACE_LIST: i32 = 8;
/** Foresight plans a beam to end within this share of the budget left (its cost is an estimate). */
const FORESIGHT_MARGIN: f64 = 0.85;

/**
 * The clock is read once this many placements have been counted since the last read, not at each
 * limit check: a read is a call out to the host (performance.now), and a limit check comes with
 * every child, a few placements each. A search that reaches its deadline stops at most one child's
 * run past this many placements later, a small fraction of any time limit; one the effort budget
 * ends is unchanged.
 */
const CLOCK_PLACEMENTS: i64 = 512;

/** Whether any search of the current job stopped at its deadline (the plan then depends on the clock). */
export let deadlineHit = false;

// How each search of the current job ended (wire-layout.ts EXIT_*), counted for the host (index.ts
// searchExits); globals, not an array: every job starts on a fresh heap
let exitsAllPlaced = 0;
let exitsEffort = 0;
let exitsWidestBeam = 0;
let exitsTimeLimit = 0;

export function exitCount(kind: i32): i32 {
  return kind == EXIT_ALL_PLACED ? exitsAllPlaced : kind == EXIT_EFFORT ? exitsEffort : kind == EXIT_WIDEST_BEAM ? exitsWidestBeam : exitsTimeLimit;
}

function countExit(kind: i32): void {
  if (kind == EXIT_ALL_PLACED) exitsAllPlaced++;
  else if (kind == EXIT_EFFORT) exitsEffort++;
  else if (kind == EXIT_WIDEST_BEAM) exitsWidestBeam++;
  else exitsTimeLimit++;
}

export function resetDeadlineHit(): void {
  deadlineHit = false;
  exitsAllPlaced = 0;
  exitsEffort = 0;
  exitsWidestBeam = 0;
  exitsTimeLimit = 0;
}

/** A composite block (composite-blocks.ts) has every leaf's boxes left, summed per type, and stands on a level. */
function compositeFits(blocks: Blocks, b: i32, s: LoadState, kind: i32): bool {
  if (kind != KIND_LEVEL) return false;
  const start = unchecked(blocks.leafStart[b]), end = start + unchecked(blocks.leafLen[b]);
  for (let j = start; j < end; j++) {
    const t = unchecked(blocks.type[blocks.leafBlock[j]]);
    // each type once, at its first leaf
    let seen = false;
    for (let i = start; i < j && !seen; i++) seen = unchecked(blocks.type[blocks.leafBlock[i]]) == t;
    if (seen) continue;
    let used = 0;
    for (let i = j; i < end; i++) {
      const leaf = unchecked(blocks.leafBlock[i]);
      if (unchecked(blocks.type[leaf]) == t) used += unchecked(blocks.count[leaf]);
    }
    if (used > unchecked(s.rem[t])) return false;
  }
  return true;
}

/** A block's row of BlockSearch.needs: 32 bytes, what blockFits reads of it in one place. */
const NEED_TYPE: i32 = 0;
const NEED_COUNT: i32 = 1;
/** A composite's second type (-1: none; MANY_TYPES: more, its leaves are counted at each test). */
const NEED_TYPE2: i32 = 2;
const NEED_COUNT2: i32 = 3;
/** The kind of space besides a level it may stand on (a top of its stack class), or -1. */
const NEED_TOP_KIND: i32 = 4;
/** The weight, an f64 in slots 6 and 7. */
const NEED_WEIGHT: i32 = 24;
const NEED_STRIDE: i32 = 8;
const MANY_TYPES: i32 = -2;

/**
 * Block b's row of needs: its boxes per type (a composite's summed over its leaves, two types at
 * most in the row), the kind of space it may stand on, its weight.
 */
function tableNeeds(blocks: Blocks, cargo: Cargo, b: i32, row: usize): void {
  const t = blocks.type[b];
  let first = blocks.count[b], t2 = -1, second = 0, topKind = -1;
  const leaves = blocks.leafLen[b];
  if (leaves > 0) {
    first = 0;
    for (let j = blocks.leafStart[b]; j < blocks.leafStart[b] + leaves && t2 != MANY_TYPES; j++) {
      const leaf = blocks.leafBlock[j], lt = blocks.type[leaf];
      if (lt == t) first += blocks.count[leaf];
      else if (t2 == -1 || lt == t2) { t2 = lt; second += blocks.count[leaf]; }
      else t2 = MANY_TYPES;
    }
  } else if (cargo.canTop[t] != 0 && blocks.nz[b] == 1) {
    topKind = 1 + cargo.stackClass[t];
  }
  store<i32>(row, t, NEED_TYPE << 2);
  store<i32>(row, first, NEED_COUNT << 2);
  store<i32>(row, t2, NEED_TYPE2 << 2);
  store<i32>(row, second, NEED_COUNT2 << 2);
  store<i32>(row, topKind, NEED_TOP_KIND << 2);
  store<f64>(row, blocks.weight[b], NEED_WEIGHT);
}

/**
 * Block b, within the space already (firstWithin), has its boxes (every leaf's) left, is under the
 * weight room and may stand on `kind`: a block of one kind on a level, or on the top of a bottom
 * item of its stack class when its type may stand there one box high; a composite on a level.
 */
@inline function blockFits(blocks: Blocks, row: usize, b: i32, s: LoadState, room: f64, kind: i32): bool {
  if (load<f64>(row, NEED_WEIGHT) > room) return false;
  if (load<i32>(row, NEED_COUNT << 2) > unchecked(s.rem[load<i32>(row, NEED_TYPE << 2)])) return false;
  if (kind != KIND_LEVEL && load<i32>(row, NEED_TOP_KIND << 2) != kind) return false;
  const t2 = load<i32>(row, NEED_TYPE2 << 2);
  if (t2 == -1) return true;
  if (t2 == MANY_TYPES) return compositeFits(blocks, b, s, kind);
  return load<i32>(row, NEED_COUNT2 << 2) <= unchecked(s.rem[t2]);
}

export class SearchLimits {
  deadlineMs: f64 = f64.MAX_VALUE;
  /** Greedy placements allowed: the deterministic budget. */
  effort: i64 = i64.MAX_VALUE;
  maxWidth: i32 = 1 << 20;
}

/** The limits of a job that started at startMs, as the host gave them (0: none for either). */
export function searchLimitsOf(startMs: f64, given: Limits): SearchLimits {
  const limits = new SearchLimits();
  if (given.timeLimitMs > 0) limits.deadlineMs = startMs + <f64>given.timeLimitMs;
  if (given.effort > 0) limits.effort = <i64>given.effort;
  return limits;
}

export class BlockSearch {
  placement: Placement;
  /** What rests on each box, when some type bears only so much (bearing.ts); null otherwise. */
  bearing: Bearing | null = null;
  best: LoadState;
  scratch: LoadState;
  effort: i64 = 0;
  stopped: bool = false;
  /** The effort when the clock was last read: it is read again CLOCK_PLACEMENTS later. */
  private clockAt: i64 = 0;
  /**
   * 0: blocks rank by volume alone. n > 0: the first k + n blocks that fit (by volume) are ranked
   * by volume less the dead space they leave in the space (gaps narrower than any box left).
   */
  fitWindow: i32 = 0;
  /** The smallest side of any box still to load, as selectSpaces last found it. */
  minSide: i32 = 0;
  private fitBlock: StaticArray<i32>;
  private fitScore: StaticArray<f64>;
  /**
   * Candidate blocks per beam node: the beam's width w (1), or w / branching (at least 2), so a
   * wider beam costs no more: more loads kept, fewer blocks tried for each (the BR job's).
   */
  branching: i32 = 1;
  /** Foresight (the BR job's): a beam the budget left cannot finish is not started (foreseen). */
  foresee: bool = false;
  /** With foresight: when the doubled beam cannot finish, one 1.5 times the last's width is tried (the BR job's). */
  halfSteps: bool = false;
  /** The last run stopped before a beam it could not finish: budget is left for other searches. */
  foreseen: bool = false;
  /** Why the last run stopped: EXIT_*. */
  exit: i32 = EXIT_WIDEST_BEAM;
  /** The best load holds every unit of the root: nothing is left to gain. */
  allPlaced: bool = false;
  spaceRule: i32 = SPACE_CORNER;
  // the current move: space and ranked candidate blocks
  moveSpace: i32 = -1;
  candBlock: StaticArray<i32>;
  anchorX: i32 = 0;
  anchorY: i32 = 0;
  private beamA: StaticArray<LoadState>;
  private beamB: StaticArray<LoadState>;
  private childParent: StaticArray<i32>;
  private childSpace: StaticArray<i32>;
  private childBlock: StaticArray<i32>;
  private childValue: StaticArray<f64>;
  private childOrder: StaticArray<i32>;
  private nodeCand: StaticArray<i32>;
  /**
   * Greedy paths, (space, block) per placement: a child's greedy run is its continuation, so when
   * it is kept, its own child by that first move needs no greedy run (the same placements, the
   * same value). Per level: the children's paths (childPaths, from childPathAt, childPathLen
   * moves), the beam nodes' (curPaths / nextPaths, from nodePathAt, nodePathLen, with the
   * value their greedy completion reached), and the root's.
   */
  private childPaths: StaticArray<i32> = new StaticArray<i32>(1024);
  private childPathAt: StaticArray<i32>;
  private childPathLen: StaticArray<i32>;
  private curPaths: StaticArray<i32> = new StaticArray<i32>(1024);
  private nextPaths: StaticArray<i32> = new StaticArray<i32>(1024);
  private curPathAt: StaticArray<i32>;
  private curPathLen: StaticArray<i32>;
  private curValue: StaticArray<f64>;
  private nextPathAt: StaticArray<i32>;
  private nextPathLen: StaticArray<i32>;
  private nextValue: StaticArray<f64>;
  private rootPath: StaticArray<i32> = new StaticArray<i32>(0);
  private rootPathLen: i32 = 0;
  private rootValue: f64 = 0;
  /** Whether a child by its node's greedy continuation takes that run's rest (false: the tests' reference). */
  reuseContinuations: bool = true;
  /** Whether a child an earlier beam of the run tried takes what it found (false: the tests' reference). */
  reuseChildren: bool = true;
  /** The children the run's beams tried (child-memo.ts), and the names of the nodes and children (-1: none). */
  private memo: ChildMemo = new ChildMemo();
  private curNode: StaticArray<i32>;
  private nextNode: StaticArray<i32>;
  private childNode: StaticArray<i32>;
  /** Where greedy records its moves (-1: nowhere), in childPaths; it leaves the count in pathLen. */
  private pathAt: i32 = -1;
  private pathLen: i32 = 0;
  /** Per type, its smallest side (selectSpaces' minSide without three loads per type). */
  private typeSide: StaticArray<i32> = new StaticArray<i32>(0);
  /** Per type, its allowed orientations' (x, y, z, 0) as 16-byte aligned rows, 6 per type: anyTypeFits tests each in one SIMD compare. */
  private typeRows: StaticArray<i32> = new StaticArray<i32>(0);
  private typeRowCount: StaticArray<i32> = new StaticArray<i32>(0);
  /** Types by smallest side, ascending: the first with boxes left gives minSide. */
  private typesBySide: StaticArray<i32> = new StaticArray<i32>(0);
  /** Per block, what blockFits reads (NEED_*), NEED_STRIDE slots each, 32-byte aligned rows. */
  private needs: StaticArray<i32> = new StaticArray<i32>(0);
  /** The blocks each space size admits (fit-cache.ts). */
  fits: FitCache;
  /** selectSpaces' list: space indices, their rank keys (2 each) and areas. */
  private spaceList: StaticArray<i32> = new StaticArray<i32>(SPACE_LIST);
  private spaceKeys: StaticArray<u64> = new StaticArray<u64>(SPACE_LIST * 2);
  private spaceArea: StaticArray<f64> = new StaticArray<f64>(SPACE_LIST);

  constructor(
    public cargo: Cargo, public bin: Bin, public blocks: Blocks,
    public limits: SearchLimits, public spCap: i32, public plCap: i32, public beamCap: i32,
    /** 2^bits slots of the fit cache, half of them used at most: 14 keeps 8,192 space sizes per set of blocks. */
    fitCacheBits: i32 = 14,
    /** Blocks the fit cache lists per space size (fit-cache.ts). */
    fitListed: i32 = LISTED,
  ) {
    this.placement = new Placement(cargo, bin, blocks, spCap);
    this.fits = new FitCache(fitCacheBits, bin.l, bin.w, bin.h, fitListed);
    this.best = new LoadState(spCap, cargo.n, plCap, cargo.bearing);
    this.scratch = new LoadState(spCap, cargo.n, plCap, cargo.bearing);
    this.candBlock = new StaticArray<i32>(beamCap);
    this.fitBlock = new StaticArray<i32>(beamCap * 2 + 64);
    this.fitScore = new StaticArray<f64>(beamCap * 2 + 64);
    this.beamA = new StaticArray<LoadState>(beamCap);
    this.beamB = new StaticArray<LoadState>(beamCap);
    const nc = beamCap * beamCap;
    this.childParent = new StaticArray<i32>(nc);
    this.childSpace = new StaticArray<i32>(nc);
    this.childBlock = new StaticArray<i32>(nc);
    this.childValue = new StaticArray<f64>(nc);
    this.childOrder = new StaticArray<i32>(nc);
    this.nodeCand = new StaticArray<i32>(beamCap);
    this.curNode = new StaticArray<i32>(beamCap);
    this.nextNode = new StaticArray<i32>(beamCap);
    this.childNode = new StaticArray<i32>(nc);
    this.childPathAt = new StaticArray<i32>(nc);
    this.childPathLen = new StaticArray<i32>(nc);
    this.curPathAt = new StaticArray<i32>(beamCap);
    this.curPathLen = new StaticArray<i32>(beamCap);
    this.curValue = new StaticArray<f64>(beamCap);
    this.nextPathAt = new StaticArray<i32>(beamCap);
    this.nextPathLen = new StaticArray<i32>(beamCap);
    this.nextValue = new StaticArray<f64>(beamCap);
    for (let i = 0; i < beamCap; i++) {
      this.beamA[i] = new LoadState(spCap, cargo.n, plCap, cargo.bearing);
      this.beamB[i] = new LoadState(spCap, cargo.n, plCap, cargo.bearing);
    }
    this.typeSide = new StaticArray<i32>(cargo.n);
    this.typeRows = new StaticArray<i32>(cargo.n * 24 + 4);
    this.typeRowCount = new StaticArray<i32>(cargo.n);
    for (let t = 0; t < cargo.n; t++) {
      const l = cargo.l[t], w = cargo.w[t], h = cargo.h[t], mask = cargo.oriMask[t];
      this.typeSide[t] = min(l, min(w, h));
      let m = 0;
      for (let o = 0; o < 6; o++) {
        if ((mask & (1 << o)) == 0) continue;
        const row = this.typeRowAt(t, m++);
        store<i32>(row, orientedX(o, l, w, h));
        store<i32>(row, orientedY(o, l, w, h), 4);
        store<i32>(row, orientedZ(o, l, w, h), 8);
        store<i32>(row, 0, 12);
      }
      this.typeRowCount[t] = m;
    }
    // insertion sort: few types; equal sides keep the type order (any order gives the same minimum)
    this.typesBySide = new StaticArray<i32>(cargo.n);
    for (let t = 0; t < cargo.n; t++) {
      let p = t;
      while (p > 0 && this.typeSide[this.typesBySide[p - 1]] > this.typeSide[t]) {
        this.typesBySide[p] = this.typesBySide[p - 1];
        p--;
      }
      this.typesBySide[p] = t;
    }
    this.tableBlocks(blocks);
    if (cargo.bearing) {
      const bearing = new Bearing(cargo, blocks, plCap);
      this.bearing = bearing;
      this.placement.bearing = bearing;
    }
  }

  private tableBlocks(blocks: Blocks): void {
    if (this.needs.length < blocks.n * NEED_STRIDE + NEED_STRIDE) this.needs = new StaticArray<i32>(blocks.n * NEED_STRIDE + NEED_STRIDE);
    for (let b = 0; b < blocks.n; b++) tableNeeds(blocks, this.cargo, b, this.needRow(b));
  }

  @inline private needRow(b: i32): usize {
    return ((changetype<usize>(this.needs) + 31) & ~31) + ((<usize>b) << 5);
  }

  @inline private typeRowAt(t: i32, j: i32): usize {
    return ((changetype<usize>(this.typeRows) + 15) & ~15) + ((<usize>(t * 6 + j)) << 4);
  }

  /** Searches on with other blocks of the same cargo and bin. */
  setBlocks(blocks: Blocks): void {
    this.blocks = blocks;
    this.tableBlocks(blocks);
    this.placement.blocks = blocks;
    const bearing = this.bearing;
    if (bearing != null) bearing.blocks = blocks;
    this.fits.clear();
  }

  /** A fresh effort budget for the next run; a passed deadline stays passed. */
  restart(): void {
    this.effort = 0;
    this.clockAt = 0;
    this.stopped = false;
    this.allPlaced = false;
    this.foreseen = false;
  }

  /** An empty load of everything in counts. */
  root(counts: StaticArray<i32>): LoadState {
    const s = new LoadState(this.spCap, this.cargo.n, this.plCap, this.cargo.bearing);
    for (let t = 0; t < this.cargo.n; t++) s.rem[t] = counts[t];
    s.addSpace(0, 0, this.bin.l, this.bin.w, 0, KIND_LEVEL);
    return s;
  }

  private checkLimits(): bool {
    if (this.stopped || this.allPlaced) return true;
    if (this.effort >= this.limits.effort) {
      this.stopped = true;
      this.exit = EXIT_EFFORT;
    } else if (this.effort - this.clockAt >= CLOCK_PLACEMENTS) {
      this.clockAt = this.effort;
      if (nowMs() >= this.limits.deadlineMs) {
        this.stopped = true;
        this.exit = EXIT_TIME_LIMIT;
        deadlineHit = true;
      }
    }
    return this.stopped;
  }

  /**
   * Picks the space to fill next and ranks up to k blocks for it into candBlock;
   * returns how many. Spaces nothing fits are marked dead on the way.
   */
  nextMove(s: LoadState, k: i32): i32 {
    while (true) {
      // the spaces in the order a pass for the best live space would pick them, as each before
      // proves dead: marking a space dead changes no other space's rank, so one pass serves until
      // its list runs out
      const m = this.selectSpaces(s);
      for (let j = 0; j < m; j++) {
        const i = unchecked(this.spaceList[j]);
        this.moveSpace = i;
        const n = this.rankBlocks(s, i, k);
        if (n > 0) return n;
        unchecked((s.sp[i * SP_STRIDE + SP_KIND] |= DEAD));
      }
      if (m < SPACE_LIST) {
        this.moveSpace = -1;
        return 0;
      }
    }
  }

  /**
   * Up to SPACE_LIST live spaces into spaceList, best first (ties: the lower index); returns how
   * many. Spaces narrower than every box left are marked dead on the way.
   */
  selectSpaces(s: LoadState): i32 {
    const sp = s.sp;
    const bl = this.bin.l, bw = this.bin.w, bh = this.bin.h;
    // the smallest box side still to load: narrower spaces are skipped without ranking blocks
    let minSide = i32.MAX_VALUE;
    const cargo = this.cargo;
    const bySide = this.typesBySide;
    for (let j = 0; j < cargo.n; j++) {
      const t = unchecked(bySide[j]);
      if (unchecked(s.rem[t]) <= 0) continue;
      minSide = unchecked(this.typeSide[t]);
      break;
    }
    if (minSide == i32.MAX_VALUE) return 0;
    this.minSide = minSide;
    const list = this.spaceList, keys = this.spaceKeys, areas = this.spaceArea;
    let m = 0;
    const rule = this.spaceRule;
    for (let i = 0; i < s.ns; i++) {
      const b = i * SP_STRIDE;
      if ((unchecked(sp[b + SP_KIND]) & DEAD) != 0) continue;
      const x1 = unchecked(sp[b + SP_X1]), y1 = unchecked(sp[b + SP_Y1]);
      const x2 = unchecked(sp[b + SP_X2]), y2 = unchecked(sp[b + SP_Y2]), z = unchecked(sp[b + SP_Z]);
      if (x2 - x1 < minSide || y2 - y1 < minSide || bh - z < minSide) {
        unchecked((sp[b + SP_KIND] |= DEAD));
        continue;
      }
      const dx = min(x1, bl - x2), dy = min(y1, bw - y2);
      let a = 0, c = 0, d = 0;
      if (rule == SPACE_LOWEST) {
        a = z; c = min(dx, dy); d = max(dx, dy);
      } else {
        // sorted (dx, dy, z), without branches (the middle by wrapping sums, exact)
        a = min(min(dx, dy), z); d = max(max(dx, dy), z); c = dx + dy + z - a - d;
      }
      // (a, c) in one u64 (each >= 0): the order of (a, c, d, larger area) in two compares
      const ac = (<u64>a << 32) | <u64>c;
      const area = <f64>(x2 - x1) * <f64>(y2 - y1);
      // after every listed space this one does not beat (so equal ones keep the index order)
      let p = m;
      while (p > 0) {
        const kac = unchecked(keys[(p - 1) * 2]), kd = <i32>unchecked(keys[(p - 1) * 2 + 1]);
        if (!(ac < kac || (ac == kac && (d < kd || (d == kd && area > unchecked(areas[p - 1])))))) break;
        p--;
      }
      if (p >= SPACE_LIST) continue;
      if (m < SPACE_LIST) m++;
      for (let q = m - 1; q > p; q--) {
        unchecked((list[q] = list[q - 1]));
        unchecked((keys[q * 2] = keys[q * 2 - 2]));
        unchecked((keys[q * 2 + 1] = keys[q * 2 - 1]));
        unchecked((areas[q] = areas[q - 1]));
      }
      unchecked((list[p] = i));
      unchecked((keys[p * 2] = ac));
      unchecked((keys[p * 2 + 1] = <u64>d));
      unchecked((areas[p] = area));
    }
    return m;
  }

  /** The k best blocks for space i, best first. */
  rankBlocks(s: LoadState, i: i32, k: i32): i32 {
    const sp = s.sp;
    const b0 = i * SP_STRIDE;
    const sx = unchecked(sp[b0 + SP_X2]) - unchecked(sp[b0 + SP_X1]);
    const sy = unchecked(sp[b0 + SP_Y2]) - unchecked(sp[b0 + SP_Y1]);
    const sz = this.bin.h - unchecked(sp[b0 + SP_Z]);
    const kind = unchecked(sp[b0 + SP_KIND]) & ~DEAD;
    const room = this.bin.maxWeight - s.weight;
    const blocks = this.blocks;
    const cargo = this.cargo;
    const candBlock = this.candBlock;
    const vx = i32x4.splat(sx), vy = i32x4.splat(sy), vz = i32x4.splat(sz);
    const at = this.fits.list(blocks, sx, sy, sz, vx, vy, vz);
    // A space no box of a type left fits is dead without a scan; a kept list makes the test
    // needless (a dead space's is short), and it finds nothing the scan would not: a block that
    // fits has a box of its type left, in one of its orientations, within the weight room.
    if (at == NOT_KEPT && !this.anyTypeFits(s, sx, sy, sz, kind, room)) return 0;
    if (this.fitWindow > 0) return this.rankByFit(s, i, sx, sy, sz, kind, room, k, at, vx, vy, vz);
    let n = 0;
    const pool = this.fits.pool;
    let j = 0;
    for (let b = firstListed(pool, at, blocks, vx, vy, vz); b < blocks.n; b = nextWithin(pool, at, j++, b, blocks, vx, vy, vz)) {
      // blocks come best first: the first k that fit are the k best
      if (n == k) break;
      if (!blockFits(blocks, this.needRow(b), b, s, room, kind)) continue;
      if (!this.borne(s, i, b)) continue;
      unchecked((candBlock[n] = b));
      n++;
    }
    return n;
  }

  /** rankBlocks with fitWindow: the first k + fitWindow blocks that fit, best volume less dead space first. */
  private rankByFit(s: LoadState, i: i32, sx: i32, sy: i32, sz: i32, kind: i32, room: f64, k: i32, at: i32, vx: v128, vy: v128, vz: v128): i32 {
    const blocks = this.blocks;
    const cargo = this.cargo;
    const want = min(k + this.fitWindow, this.fitBlock.length);
    const gapMin = this.minSide;
    let n = 0;
    const pool = this.fits.pool;
    let j = 0;
    for (let b = firstListed(pool, at, blocks, vx, vy, vz); b < blocks.n && n < want; b = nextWithin(pool, at, j++, b, blocks, vx, vy, vz)) {
      if (!blockFits(blocks, this.needRow(b), b, s, room, kind)) continue;
      if (!this.borne(s, i, b)) continue;
      const bl = unchecked(blocks.l[b]), bw = unchecked(blocks.w[b]), bh = unchecked(blocks.h[b]);
      const gx = sx - bl, gy = sy - bw, gz = sz - bh;
      // a gap beside or above the block narrower than every box left stays empty
      let dead: f64 = 0;
      if (gx > 0 && gx < gapMin) dead += <f64>gx * <f64>bw * <f64>bh;
      if (gy > 0 && gy < gapMin) dead += <f64>gy * <f64>bl * <f64>bh;
      if (gz > 0 && gz < gapMin) dead += <f64>gz * <f64>bl * <f64>bw;
      unchecked((this.fitBlock[n] = b));
      unchecked((this.fitScore[n] = unchecked(blocks.score[b]) - dead));
      n++;
    }
    // the k best by score, in order (ties keep the volume order)
    const m = min(n, k);
    for (let i = 0; i < m; i++) {
      let best = i;
      for (let j = i + 1; j < n; j++) if (unchecked(this.fitScore[j]) > unchecked(this.fitScore[best])) best = j;
      const sb = unchecked(this.fitBlock[best]);
      const sc = unchecked(this.fitScore[best]);
      for (let j = best; j > i; j--) {
        unchecked((this.fitBlock[j] = this.fitBlock[j - 1]));
        unchecked((this.fitScore[j] = this.fitScore[j - 1]));
      }
      unchecked((this.fitBlock[i] = sb));
      unchecked((this.fitScore[i] = sc));
      unchecked((this.candBlock[i] = sb));
    }
    return m;
  }

  /** Whether one box of some remaining type fits the space: spaces that fail are dead without a scan. */
  private anyTypeFits(s: LoadState, sx: i32, sy: i32, sz: i32, kind: i32, room: f64): bool {
    const cargo = this.cargo;
    const space = i32x4(sx, sy, sz, 0);
    for (let t = 0; t < cargo.n; t++) {
      if (unchecked(s.rem[t]) <= 0 || <f64>unchecked(cargo.weight[t]) > room) continue;
      if (kind != KIND_LEVEL && (unchecked(cargo.canTop[t]) == 0 || unchecked(cargo.stackClass[t]) != kind - 1)) continue;
      const rows = unchecked(this.typeRowCount[t]);
      for (let j = 0; j < rows; j++) {
        if (i32x4.all_true(i32x4.le_s(v128.load(this.typeRowAt(t, j)), space))) return true;
      }
    }
    return false;
  }

  /** Block b in space i leaves every box under it within what it may bear (always, for cargo without limits). */
  @inline private borne(s: LoadState, i: i32, b: i32): bool {
    const bearing = this.bearing;
    if (bearing == null) return true;
    const z = unchecked(s.sp[i * SP_STRIDE + SP_Z]);
    if (z == 0) return true;
    this.anchor(s, i, b);
    return bearing.allows(s, b, this.anchorX, this.anchorY, z);
  }

  /** Where block b goes in space i: the corner nearest the bin's corner. */
  anchor(s: LoadState, i: i32, b: i32): void {
    const sp = s.sp;
    const o = i * SP_STRIDE;
    const x1 = unchecked(sp[o + SP_X1]), y1 = unchecked(sp[o + SP_Y1]);
    const x2 = unchecked(sp[o + SP_X2]), y2 = unchecked(sp[o + SP_Y2]);
    const l = unchecked(this.blocks.l[b]), w = unchecked(this.blocks.w[b]);
    this.anchorX = x1 <= this.bin.l - x2 ? x1 : x2 - l;
    this.anchorY = y1 <= this.bin.w - y2 ? y1 : y2 - w;
  }

  apply(s: LoadState, i: i32, b: i32): void {
    this.anchor(s, i, b);
    const o = i * SP_STRIDE;
    this.placement.place(s, b, this.anchorX, this.anchorY, unchecked(s.sp[o + SP_Z]), unchecked(s.sp[o + SP_KIND]) & ~DEAD);
  }

  /** Completes s greedily: the best block into the chosen space until nothing fits. */
  greedy(s: LoadState): void {
    let n = 0;
    const at = this.pathAt;
    while (this.nextMove(s, 1) > 0) {
      const b = unchecked(this.candBlock[0]);
      if (at >= 0) {
        this.childPaths = room(this.childPaths, at + 2 * n + 2);
        unchecked((this.childPaths[at + 2 * n] = this.moveSpace));
        unchecked((this.childPaths[at + 2 * n + 1] = b));
      }
      this.apply(s, this.moveSpace, b);
      this.effort++;
      n++;
    }
    this.pathLen = n;
  }

  private offer(s: LoadState): void {
    if (s.value <= this.best.value) return;
    this.best.copyFrom(s);
    // every unit placed is the bound: any other complete load is worth the same, so the first stands
    for (let t = 0; t < this.cargo.n; t++) if (unchecked(s.rem[t]) > 0) return;
    this.allPlaced = true;
  }

  /** The placements the effort budget and the clock leave, the clock's at this run's rate so far. */
  private placementsLeft(t0: f64, e0: i64): f64 {
    let left = <f64>(this.limits.effort - this.effort);
    if (this.limits.deadlineMs < f64.MAX_VALUE && this.effort > e0) {
      const msPer = (nowMs() - t0) / <f64>(this.effort - e0);
      if (msPer > 0) left = min(left, (this.limits.deadlineMs - nowMs()) / msPer);
    }
    return left;
  }

  /** Runs the search from root until the limits; the best load found is in this.best. */
  run(root: LoadState): LoadState {
    this.best.copyFrom(root);
    this.scratch.copyFrom(root);
    this.pathAt = 0;
    this.greedy(this.scratch);
    this.pathAt = -1;
    this.rootPathLen = this.pathLen;
    this.rootPath = room(this.rootPath, 2 * this.pathLen);
    memory.copy(changetype<usize>(this.rootPath), changetype<usize>(this.childPaths), (<usize>(2 * this.pathLen)) << 2);
    this.rootValue = this.scratch.value;
    this.offer(this.scratch);
    this.memo.reset();
    this.exit = EXIT_WIDEST_BEAM;
    this.foreseen = false;
    let w = 2;
    const t0 = nowMs();
    const e0 = this.effort;
    // foresight: the placements the last complete beam took, its width, and how cost grows with width
    let lastEffort: f64 = 0, lastW = 0, growth: f64 = 2;
    while (!this.checkLimits() && w <= this.limits.maxWidth && w <= this.beamCap) {
      // a beam costs about width^growth placements; one the budget cannot finish gives nothing
      // (its loads come at its deepest levels), so it is not started
      if (this.foresee && lastW > 0) {
        const left = this.placementsLeft(t0, e0) * FORESIGHT_MARGIN;
        if (lastEffort * Math.pow(<f64>w / <f64>lastW, growth) > left) {
          // one half as wide again as the last may still fit
          const half = this.halfSteps ? min(lastW + lastW / 2, this.beamCap) : w;
          if (half >= w || half <= lastW || lastEffort * Math.pow(<f64>half / <f64>lastW, growth) > left) {
            this.exit = EXIT_TIME_LIMIT;
            if (this.limits.deadlineMs < f64.MAX_VALUE) deadlineHit = true;
            this.foreseen = true;
            break;
          }
          w = half;
        }
      }
      const before = this.effort;
      // no wider beam follows the widest allowed: what it tries is kept for none
      const next = this.halfSteps ? min(w * 2, this.beamCap) : w * 2;
      const widest = next > this.limits.maxWidth || next > this.beamCap || (this.halfSteps && w >= this.beamCap);
      if (!this.beam(root, w, widest)) break;
      const spent = <f64>(this.effort - before);
      if (lastW > 0 && spent > lastEffort) growth = min(3.0, Math.log(spent / lastEffort) / Math.log(<f64>w / <f64>lastW));
      lastEffort = max(1.0, spent);
      lastW = w;
      if (this.halfSteps) {
        // the widest beam allowed ran: nothing wider follows
        if (w >= this.beamCap) break;
        w = min(w * 2, this.beamCap);
      } else w *= 2;
    }
    if (this.allPlaced) this.exit = EXIT_ALL_PLACED;
    countExit(this.exit);
    return this.best;
  }

  /** One beam search of width w; false when the limits cut it short. */
  private beam(root: LoadState, w: i32, widest: bool): bool {
    let cur = this.beamA, next = this.beamB;
    unchecked(cur[0]).copyFrom(root);
    let nb = 1;
    const scratch = this.scratch;
    this.curPaths = room(this.curPaths, 2 * this.rootPathLen);
    memory.copy(changetype<usize>(this.curPaths), changetype<usize>(this.rootPath), (<usize>(2 * this.rootPathLen)) << 2);
    unchecked((this.curPathAt[0] = 0));
    unchecked((this.curPathLen[0] = this.rootPathLen));
    unchecked((this.curValue[0] = this.rootValue));
    unchecked((this.curNode[0] = this.reuseChildren ? 0 : -1));
    const memo = this.memo;
    while (nb > 0) {
      let nc = 0;
      let top = 0;
      for (let p = 0; p < nb; p++) {
        const node = unchecked(cur[p]);
        const k = this.nextMove(node, this.branching > 1 ? max(2, w / this.branching) : w);
        const space = this.moveSpace;
        // the node's greedy completion went on with this move (its first, in the same space):
        // that child's completion is the rest of it
        const pathAt = unchecked(this.curPathAt[p]), pathLen = unchecked(this.curPathLen[p]);
        const known = this.reuseContinuations && pathLen > 0 && unchecked(this.curPaths[pathAt]) == space ? unchecked(this.curPaths[pathAt + 1]) : -1;
        const parent = unchecked(this.curNode[p]);
        // greedy reuses candBlock: keep this node's candidates aside
        for (let c = 0; c < k; c++) unchecked((this.nodeCand[c] = this.candBlock[c]));
        for (let c = 0; c < k; c++) {
          if (this.checkLimits()) return false;
          const b = unchecked(this.nodeCand[c]);
          const tried = parent >= 0 ? memo.find(parent, b) : -1;
          if (b == known) {
            // counted as if run, so a search bounded by effort finds what it found before
            this.effort += pathLen - 1;
            unchecked((this.childValue[nc] = this.curValue[p]));
            // a path in curPaths: stored as -(where + 1)
            unchecked((this.childPathAt[nc] = -(pathAt + 2) - 1));
            unchecked((this.childPathLen[nc] = pathLen - 1));
            const e = tried >= 0 || parent < 0 || widest ? tried : memo.add(parent, b, unchecked(this.curValue[p]), this.curPaths, pathAt + 2, pathLen - 1);
            unchecked((this.childNode[nc] = e >= 0 ? e + 1 : -1));
          } else if (tried >= 0) {
            // an earlier beam ran this child: its run, counted as run again (its load was offered then)
            const len = unchecked(memo.len[tried]);
            this.effort += len;
            unchecked((this.childValue[nc] = memo.value[tried]));
            this.childPaths = room(this.childPaths, top + 2 * len);
            memory.copy(
              changetype<usize>(this.childPaths) + ((<usize>top) << 2),
              changetype<usize>(memo.paths) + ((<usize>unchecked(memo.pathAt[tried])) << 2),
              (<usize>(2 * len)) << 2,
            );
            unchecked((this.childPathAt[nc] = top));
            unchecked((this.childPathLen[nc] = len));
            unchecked((this.childNode[nc] = tried + 1));
            top += 2 * len;
          } else {
            scratch.copyFrom(node);
            this.apply(scratch, space, b);
            this.pathAt = top;
            this.greedy(scratch);
            this.pathAt = -1;
            this.offer(scratch);
            unchecked((this.childValue[nc] = scratch.value));
            unchecked((this.childPathAt[nc] = top));
            unchecked((this.childPathLen[nc] = this.pathLen));
            // the widest beam's own children are named for none: no later beam asks for them
            const e = parent >= 0 && !widest ? memo.add(parent, b, scratch.value, this.childPaths, top, this.pathLen) : -1;
            unchecked((this.childNode[nc] = e >= 0 ? e + 1 : -1));
            top += 2 * this.pathLen;
          }
          unchecked((this.childParent[nc] = p));
          unchecked((this.childSpace[nc] = space));
          unchecked((this.childBlock[nc] = b));
          nc++;
        }
      }
      const kept = this.keepBest(nc, w);
      this.takeKept(cur, next, kept);
      nb = kept;
      const t = cur; cur = next; next = t;
      const tp = this.curPaths; this.curPaths = this.nextPaths; this.nextPaths = tp;
      const ta = this.curPathAt; this.curPathAt = this.nextPathAt; this.nextPathAt = ta;
      const tl = this.curPathLen; this.curPathLen = this.nextPathLen; this.nextPathLen = tl;
      const tv = this.curValue; this.curValue = this.nextValue; this.nextValue = tv;
      const tn = this.curNode; this.curNode = this.nextNode; this.nextNode = tn;
    }
    return true;
  }

  /** The w best children into childOrder, best first, one per distinct greedy value; returns how many. */
  private keepBest(nc: i32, w: i32): i32 {
    let kept = 0;
    for (let c = 0; c < nc; c++) {
      const v = unchecked(this.childValue[c]);
      let p = kept;
      let dup = false;
      for (let q = 0; q < kept; q++) if (unchecked(this.childValue[this.childOrder[q]]) == v) { dup = true; break; }
      if (dup) continue;
      while (p > 0 && unchecked(this.childValue[this.childOrder[p - 1]]) < v) p--;
      if (p >= w) continue;
      const last = kept < w ? kept : w - 1;
      for (let q = last; q > p; q--) unchecked((this.childOrder[q] = this.childOrder[q - 1]));
      unchecked((this.childOrder[p] = c));
      if (kept < w) kept++;
    }
    return kept;
  }

  /** The kept children as the next level's nodes (of cur's): their loads, paths, values and names. */
  private takeKept(cur: StaticArray<LoadState>, next: StaticArray<LoadState>, kept: i32): void {
    let nextTop = 0;
    for (let q = 0; q < kept; q++) {
      const c = unchecked(this.childOrder[q]);
      const child = unchecked(next[q]);
      child.copyFrom(unchecked(cur[this.childParent[c]]));
      this.apply(child, unchecked(this.childSpace[c]), unchecked(this.childBlock[c]));
      // the child's path goes with it
      const at = unchecked(this.childPathAt[c]), len = unchecked(this.childPathLen[c]);
      this.nextPaths = room(this.nextPaths, nextTop + 2 * len);
      const from = at >= 0 ? this.childPaths : this.curPaths;
      memory.copy(
        changetype<usize>(this.nextPaths) + ((<usize>nextTop) << 2),
        changetype<usize>(from) + ((<usize>(at >= 0 ? at : -at - 1)) << 2),
        (<usize>(2 * len)) << 2,
      );
      unchecked((this.nextPathAt[q] = nextTop));
      unchecked((this.nextPathLen[q] = len));
      unchecked((this.nextValue[q] = this.childValue[c]));
      unchecked((this.nextNode[q] = this.childNode[c]));
      nextTop += 2 * len;
    }
  }
}
