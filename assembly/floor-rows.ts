// The floor plan of a container in rows: a row is a slice of the floor across the full width,
// filled by columns, each one floor class in one footprint repeated along the row's depth. Rows
// are chosen greedily by how densely they fill their slice (the stacks' volume over the slice's
// floor area), over depths of one to three stacks of each footprint and the whole length left; a
// row the whole length long is the lane pattern (EUR: 15 across and 10 lengthwise in a 40ft).
import { Bin } from './cargo';
import { nowMs } from './clock';
import { StackKind } from './floor-stacks';
import { gcd } from './gcd';

const ROWS_PER_DEPTH: i32 = 3;
/** Row depths tried at most per row, and columns to choose from across it: an order of thousands of carton sizes stays bounded. */
const MAX_DEPTHS: i32 = 32;
const MAX_OPTIONS: i32 = 24;

/** The job's time limit: past it no row is added (the plan says so) and the rest stays unplaced. */
export let floorDeadlineMs: f64 = f64.MAX_VALUE;
export let floorDeadlineHit = false;

export function setFloorDeadline(ms: f64): void {
  floorDeadlineMs = ms;
  floorDeadlineHit = false;
}

export class FloorPlan {
  rowDepth: Array<i32> = new Array<i32>();
  rowWidth: Array<i32> = new Array<i32>();
  rowFirst: Array<i32> = new Array<i32>();
  rowCols: Array<i32> = new Array<i32>();
  colClass: Array<i32> = new Array<i32>();
  /** Footprint index within the class's kinds (they share one footprint list). */
  colFp: Array<i32> = new Array<i32>();
  colN: Array<i32> = new Array<i32>();
  colFx: Array<i32> = new Array<i32>();
  colFy: Array<i32> = new Array<i32>();
  /** Stacks of each class on the plan. */
  placed: StaticArray<i32>;
  constructor(nClasses: i32) {
    this.placed = new StaticArray<i32>(nClasses);
  }
  get rows(): i32 {
    return this.rowDepth.length;
  }
}

/** Scratch of the width knapsack, sized for the widest bin once per job. */
export class RowScratch {
  dp: StaticArray<f64>;
  choice: StaticArray<i32>;
  optClass: Array<i32> = new Array<i32>();
  optFp: Array<i32> = new Array<i32>();
  optN: Array<i32> = new Array<i32>();
  optFx: Array<i32> = new Array<i32>();
  optFy: Array<i32> = new Array<i32>();
  optValue: Array<f64> = new Array<f64>();
  /** How deep the last row tried reaches (its longest column). */
  depth: i32 = 0;
  constructor(maxWidth: i32) {
    this.dp = new StaticArray<f64>(maxWidth + 1);
    this.choice = new StaticArray<i32>(maxWidth + 1);
  }
}

/** A representative kind per class: all kinds of a class share the footprints. */
export function classKinds(kinds: Array<StackKind>, nClasses: i32): StaticArray<i32> {
  const rep = new StaticArray<i32>(nClasses);
  for (let c = 0; c < nClasses; c++) rep[c] = -1;
  for (let i = 0; i < kinds.length; i++) if (rep[kinds[i].floorClass] < 0) rep[kinds[i].floorClass] = i;
  return rep;
}

/**
 * Lays out avail[c] stacks of each class, row by row from x = 0; what does not fit stays off.
 * maxColumns > 0 limits the columns of a row.
 */
export function layFloor(kinds: Array<StackKind>, avail: StaticArray<i32>, slotValue: StaticArray<f64>, bin: Bin, scratch: RowScratch, maxColumns: i32): FloorPlan {
  const nClasses = avail.length;
  const rep = classKinds(kinds, nClasses);
  const left = new StaticArray<i32>(nClasses);
  for (let c = 0; c < nClasses; c++) left[c] = avail[c];
  const plan = new FloorPlan(nClasses);
  let rest = bin.l;
  const depths = new Array<i32>();
  const used = new StaticArray<i32>(nClasses);
  while (true) {
    depths.length = 0;
    depths.push(rest);
    for (let c = 0; c < nClasses; c++) {
      if (left[c] <= 0) continue;
      const k = kinds[rep[c]];
      for (let i = 0; i < k.n; i++) {
        if (k.fy[i] > bin.w) continue;
        for (let m = 1; m <= ROWS_PER_DEPTH && m <= left[c] && m * k.fx[i] <= rest && depths.length < MAX_DEPTHS; m++) {
          const d = m * k.fx[i];
          if (!depths.includes(d)) depths.push(d);
        }
      }
    }
    let bestScore: f64 = 0;
    let bestValue: f64 = 0;
    let bestDepth = -1;
    for (let i = 0; i < depths.length; i++) {
      if (nowMs() >= floorDeadlineMs) {
        floorDeadlineHit = true;
        break;
      }
      const d = depths[i];
      const value = fillRow(kinds, rep, left, slotValue, d, maxColumns > 0 ? maxColumns : bin.w, bin.w, scratch, null, used);
      if (value <= 0) continue;
      const score = value / (<f64>scratch.depth * <f64>bin.w);
      if (bestDepth < 0 || score > bestScore * (1 + 1e-9) || (score >= bestScore * (1 - 1e-9) && value > bestValue)) {
        bestScore = score;
        bestValue = value;
        bestDepth = d;
      }
    }
    if (bestDepth < 0 || floorDeadlineHit) break;
    fillRow(kinds, rep, left, slotValue, bestDepth, maxColumns > 0 ? maxColumns : bin.w, bin.w, scratch, plan, used);
    const r = plan.rows - 1;
    rest -= plan.rowDepth[r];
    for (let c = 0; c < nClasses; c++) {
      left[c] -= used[c];
      plan.placed[c] += used[c];
    }
  }
  return plan;
}

/**
 * The best columns across the width for a row of depth d (an unbounded knapsack over the width,
 * then trimmed to the stacks left); returns their value and leaves the depth they reach in
 * s.depth. With a plan, appends the row to it.
 */
function fillRow(
  kinds: Array<StackKind>, rep: StaticArray<i32>, left: StaticArray<i32>, slotValue: StaticArray<f64>, d: i32, maxColumns: i32, width: i32,
  s: RowScratch, plan: FloorPlan | null, used: StaticArray<i32>,
): f64 {
  s.optClass.length = 0;
  s.optFp.length = 0;
  s.optN.length = 0;
  s.optFx.length = 0;
  s.optFy.length = 0;
  s.optValue.length = 0;
  for (let c = 0; c < left.length; c++) {
    used[c] = 0;
    if (left[c] <= 0) continue;
    const k = kinds[rep[c]];
    for (let i = 0; i < k.n; i++) {
      const fx = k.fx[i], fy = k.fy[i];
      if (fx > d || fy > width) continue;
      const n = min(d / fx, left[c]);
      s.optClass.push(c);
      s.optFp.push(i);
      s.optN.push(n);
      s.optFx.push(fx);
      s.optFy.push(fy);
      s.optValue.push(<f64>n * slotValue[c]);
    }
  }
  if (s.optClass.length > MAX_OPTIONS) keepDensest(s);
  const nOpt = s.optClass.length;
  if (nOpt == 0) return 0;
  if (maxColumns == 1) return oneColumn(s, left, slotValue, used, plan);
  // widths in steps of their greatest common divisor (10 mm in a cm lane): the same knapsack, smaller
  let step = 0;
  for (let q = 0; q < nOpt; q++) step = gcd(step, s.optFy[q]);
  const cells = width / step;
  const dp = s.dp, choice = s.choice;
  dp[0] = 0;
  choice[0] = -1;
  for (let w = 1; w <= cells; w++) {
    let best = unchecked(dp[w - 1]);
    let pick = -1;
    for (let q = 0; q < nOpt; q++) {
      const fy = unchecked(s.optFy[q]) / step;
      if (fy > w) continue;
      const v = unchecked(dp[w - fy]) + unchecked(s.optValue[q]);
      if (v > best) {
        best = v;
        pick = q;
      }
    }
    unchecked((dp[w] = best));
    unchecked((choice[w] = pick));
  }
  // walk the choices back from the full width, giving each column what is left of its class
  let value: f64 = 0;
  let w = cells;
  let depth = 0;
  let across = 0;
  const chosen = new Array<i32>();
  const chosenN = new Array<i32>();
  while (w > 0) {
    const q = choice[w];
    if (q < 0) {
      w--;
      continue;
    }
    w -= s.optFy[q] / step;
    const c = s.optClass[q];
    const n = min(s.optN[q], left[c] - used[c]);
    if (n <= 0) continue;
    used[c] += n;
    value += <f64>n * slotValue[c];
    depth = max(depth, n * s.optFx[q]);
    across += s.optFy[q];
    chosen.push(q);
    chosenN.push(n);
  }
  s.depth = depth;
  if (plan == null) return value;
  plan.rowDepth.push(depth);
  plan.rowWidth.push(across);
  plan.rowFirst.push(plan.colClass.length);
  plan.rowCols.push(chosen.length);
  for (let i = 0; i < chosen.length; i++) {
    const q = chosen[i];
    plan.colClass.push(s.optClass[q]);
    plan.colFp.push(s.optFp[q]);
    plan.colN.push(chosenN[i]);
    plan.colFx.push(s.optFx[q]);
    plan.colFy.push(s.optFy[q]);
  }
  return value;
}

/** The single column of most value (rows centred one column wide balance a heavy stack). */
function oneColumn(s: RowScratch, left: StaticArray<i32>, slotValue: StaticArray<f64>, used: StaticArray<i32>, plan: FloorPlan | null): f64 {
  let q = 0;
  for (let i = 1; i < s.optClass.length; i++) if (s.optValue[i] > s.optValue[q]) q = i;
  const c = s.optClass[q];
  const n = min(s.optN[q], left[c]);
  used[c] = n;
  s.depth = n * s.optFx[q];
  if (plan != null) {
    plan.rowDepth.push(s.depth);
    plan.rowWidth.push(s.optFy[q]);
    plan.rowFirst.push(plan.colClass.length);
    plan.rowCols.push(1);
    plan.colClass.push(c);
    plan.colFp.push(s.optFp[q]);
    plan.colN.push(n);
    plan.colFx.push(s.optFx[q]);
    plan.colFy.push(s.optFy[q]);
  }
  return <f64>n * slotValue[c];
}

/** Keeps the MAX_OPTIONS columns of most value per width, in their order. */
function keepDensest(s: RowScratch): void {
  const n = s.optClass.length;
  const keep = new StaticArray<bool>(n);
  for (let k = 0; k < MAX_OPTIONS; k++) {
    let best = -1;
    for (let q = 0; q < n; q++) {
      if (keep[q]) continue;
      if (best < 0 || s.optValue[q] * <f64>s.optFy[best] > s.optValue[best] * <f64>s.optFy[q]) best = q;
    }
    keep[best] = true;
  }
  let w = 0;
  for (let q = 0; q < n; q++) {
    if (!keep[q]) continue;
    s.optClass[w] = s.optClass[q];
    s.optFp[w] = s.optFp[q];
    s.optN[w] = s.optN[q];
    s.optFx[w] = s.optFx[q];
    s.optFy[w] = s.optFy[q];
    s.optValue[w] = s.optValue[q];
    w++;
  }
  s.optClass.length = w;
  s.optFp.length = w;
  s.optN.length = w;
  s.optFx.length = w;
  s.optFy.length = w;
  s.optValue.length = w;
}
