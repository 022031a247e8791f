// Weight distribution on a floor plan (CTU Code, annex 7, 3.1.4: the cargo's centre of gravity
// within 5 % of the inner length from the middle and 5 % of the inner width from the centreline).
// The floor plan fixes where stacks of each class go; this decides which stack takes which place,
// the order of the rows along the container and where the rows and the load sit, leaving the gaps
// for dunnage rather than pushing everything to one wall.
import { Bin, Cargo } from './cargo';
import { FloorPlan } from './floor-rows';
import { StackKind } from './floor-stacks';
import { OutputWriter } from './wire';
import { pushBox } from './wire-layout';

/** Free places a stack is tried in, nearest the middle first: bounds the work on big floors. */
const PLACE_WINDOW: i32 = 24;

class Places {
  row: Array<i32> = new Array<i32>();
  col: Array<i32> = new Array<i32>();
  /** Offsets within the row: along it from its front, across from the container's left wall. */
  dx: Array<i32> = new Array<i32>();
  y: Array<i32> = new Array<i32>();
  kind: Array<i32> = new Array<i32>();
}

export class BalancedLoad {
  /** Stacks of each kind placed. */
  placedKinds: StaticArray<i32>;
  weight: f64 = 0;
  volume: f64 = 0;
  stacks: i32 = 0;
  /** Within the CTU Code's limits, by the stacks' centres (the boxes' weight at their centres). */
  balanced: bool = true;
  /** The centre of gravity along the container (0 when nothing weighs). */
  cogX: f64 = 0;
  constructor(nKinds: i32) {
    this.placedKinds = new StaticArray<i32>(nKinds);
  }
}

/** Weight-normalised distance from the target, in units of the allowed offsets. */
@inline function deviation(mx: f64, my: f64, limitX: f64, limitY: f64): f64 {
  const a = mx / limitX, b = my / limitY;
  return a * a + b * b;
}

/**
 * Fills the plan's places with the stacks of selected[] (heaviest first, each where it keeps the
 * centre of gravity nearest the middle), orders and shifts the rows, and writes the boxes to out
 * (type, x, y, z, l, w, h each) when out is given. targetX: where along the container the centre of
 * gravity is wanted (the road's axle limits may want it off the middle); negative: the middle.
 *
 * Over 100 lines, one of assembly/'s named exceptions (docs/architecture.md): one pass over locals its
 * steps share; left whole until `bench:planner` shows that a split leaves the plans and the time alike.
 */
export function balanceLoad(
  cargo: Cargo, bin: Bin, kinds: Array<StackKind>, selected: StaticArray<i32>, plan: FloorPlan, out: OutputWriter | null, targetX: f64 = -1,
): BalancedLoad {
  const target = targetX < 0 ? <f64>bin.l / 2 : targetX;
  const result = new BalancedLoad(kinds.length);
  const rows = plan.rows;
  if (rows == 0) {
    if (out != null) out.push(0);
    return result;
  }
  // rows packed from the front, each centred across; every other row mirrored, so columns of
  // different widths alternate sides
  const rowShift = new StaticArray<i32>(rows);
  const rowX = new StaticArray<i32>(rows);
  let extent = 0;
  for (let r = 0; r < rows; r++) {
    rowX[r] = extent;
    extent += plan.rowDepth[r];
    rowShift[r] = (bin.w - plan.rowWidth[r]) / 2;
  }
  const places = new Places();
  for (let r = 0; r < rows; r++) {
    let y = 0;
    const first = plan.rowFirst[r], n = plan.rowCols[r];
    for (let q = 0; q < n; q++) {
      const col = first + ((r & 1) == 0 ? q : n - 1 - q);
      for (let i = 0; i < plan.colN[col]; i++) {
        places.row.push(r);
        places.col.push(col);
        places.dx.push(i * plan.colFx[col]);
        places.y.push(y);
        places.kind.push(-1);
      }
      y += plan.colFy[col];
    }
  }
  const np = places.row.length;
  // the places of each class, nearest the load's middle first; the middle the load needs for its
  // centre of gravity to reach the target once shifted along the free length (the load's own
  // middle unless the target lies nearer a wall than the free length allows)
  const cx = min(max(<f64>extent / 2, target - <f64>(bin.l - extent)), target), cy = <f64>bin.w / 2;
  const limitX = <f64>bin.l * 0.05, limitY = <f64>bin.w * 0.05;
  const centreX = new StaticArray<f64>(np), centreY = new StaticArray<f64>(np);
  for (let p = 0; p < np; p++) {
    const col = places.col[p], r = places.row[p];
    centreX[p] = <f64>(rowX[r] + places.dx[p]) + <f64>plan.colFx[col] / 2;
    centreY[p] = <f64>(rowShift[r] + places.y[p]) + <f64>plan.colFy[col] / 2;
  }
  const order = new StaticArray<i32>(np);
  const dist = new StaticArray<f64>(np);
  for (let p = 0; p < np; p++) {
    order[p] = p;
    dist[p] = deviation(centreX[p] - cx, centreY[p] - cy, <f64>bin.l, <f64>bin.w);
  }
  sortByKey(order, dist);
  // stacks heaviest first
  const byWeight = new Array<i32>();
  for (let k = 0; k < kinds.length; k++) if (selected[k] > 0) byWeight.push(k);
  for (let i = 1; i < byWeight.length; i++) {
    const k = byWeight[i];
    let j = i;
    while (j > 0 && kinds[byWeight[j - 1]].weight < kinds[k].weight) {
      byWeight[j] = byWeight[j - 1];
      j--;
    }
    byWeight[j] = k;
  }
  // per class its places nearest the middle first, and where its first free one may be
  const nClasses = plan.placed.length;
  const classStart = new StaticArray<i32>(nClasses + 1);
  for (let p = 0; p < np; p++) classStart[plan.colClass[places.col[p]] + 1]++;
  for (let c = 0; c < nClasses; c++) classStart[c + 1] += classStart[c];
  const byClass = new StaticArray<i32>(np);
  const fill = new StaticArray<i32>(nClasses);
  for (let j = 0; j < np; j++) {
    const p = order[j];
    const c = plan.colClass[places.col[p]];
    byClass[classStart[c] + fill[c]++] = p;
  }
  const firstFree = new StaticArray<i32>(nClasses);
  for (let c = 0; c < nClasses; c++) firstFree[c] = classStart[c];
  let mx: f64 = 0, my: f64 = 0;
  for (let i = 0; i < byWeight.length; i++) {
    const k = byWeight[i];
    const kind = kinds[k];
    const c = kind.floorClass;
    for (let s = 0; s < selected[k]; s++) {
      while (firstFree[c] < classStart[c + 1] && places.kind[byClass[firstFree[c]]] >= 0) firstFree[c]++;
      let best = -1;
      let bestDev: f64 = 0;
      let tried = 0;
      for (let j = firstFree[c]; j < classStart[c + 1] && tried < PLACE_WINDOW; j++) {
        const p = byClass[j];
        if (places.kind[p] >= 0) continue;
        tried++;
        const d = deviation(mx + kind.weight * (centreX[p] - cx), my + kind.weight * (centreY[p] - cy), limitX, limitY);
        if (best < 0 || d < bestDev) {
          best = p;
          bestDev = d;
        }
      }
      if (best < 0) break;
      places.kind[best] = k;
      mx += kind.weight * (centreX[best] - cx);
      my += kind.weight * (centreY[best] - cy);
      result.placedKinds[k]++;
      result.stacks++;
      result.weight += kind.weight;
      result.volume += kind.volume;
    }
  }
  // weightless stacks (the wire clamps weights to whole grams, so only a 0 g order): as laid
  if (result.weight <= 0) result.weight = 1;

  // each row's weight and moment about its front; then the row order that balances best
  const rowWeight = new StaticArray<f64>(rows), rowMoment = new StaticArray<f64>(rows);
  for (let p = 0; p < np; p++) {
    const k = places.kind[p];
    if (k < 0) continue;
    const r = places.row[p];
    rowWeight[r] += kinds[k].weight;
    rowMoment[r] += kinds[k].weight * (<f64>places.dx[p] + <f64>plan.colFx[places.col[p]] / 2);
  }
  const asLaid = new StaticArray<i32>(rows);
  for (let r = 0; r < rows; r++) asLaid[r] = r;
  const balanced = balancedRowOrder(plan, rowWeight, rowMoment);
  const shiftLaid = bestShift(plan, asLaid, rowWeight, rowMoment, result.weight, bin.l, extent, target);
  const shiftBalanced = bestShift(plan, balanced, rowWeight, rowMoment, result.weight, bin.l, extent, target);
  let rowOrder = asLaid;
  let shift = shiftLaid;
  if (offCentre(plan, balanced, rowWeight, rowMoment, result.weight, target, shiftBalanced) < offCentre(plan, asLaid, rowWeight, rowMoment, result.weight, target, shiftLaid) - 1) {
    rowOrder = balanced;
    shift = shiftBalanced;
  }
  let x = shift;
  for (let i = 0; i < rows; i++) {
    rowX[rowOrder[i]] = x;
    x += plan.rowDepth[rowOrder[i]];
  }
  centreRowsAcross(plan, places, kinds, rowShift, rowWeight, result.weight, bin.w);
  let fx: f64 = 0, fy: f64 = 0;
  for (let p = 0; p < np; p++) {
    const k = places.kind[p];
    if (k < 0) continue;
    const col = places.col[p], r = places.row[p];
    fx += kinds[k].weight * (<f64>(rowX[r] + places.dx[p]) + <f64>plan.colFx[col] / 2);
    fy += kinds[k].weight * (<f64>(rowShift[r] + places.y[p]) + <f64>plan.colFy[col] / 2);
  }
  result.balanced = abs(fx / result.weight - <f64>bin.l / 2) <= limitX && abs(fy / result.weight - <f64>bin.w / 2) <= limitY;
  result.cogX = fx / result.weight;

  if (out != null) {
    let boxes = 0;
    for (let p = 0; p < np; p++) if (places.kind[p] >= 0) boxes += kinds[places.kind[p]].top >= 0 ? 2 : 1;
    out.push(boxes);
    for (let p = 0; p < np; p++) {
      const k = places.kind[p];
      if (k < 0) continue;
      const kind = kinds[k];
      const col = places.col[p], r = places.row[p];
      const fp = plan.colFp[col];
      const px = rowX[r] + places.dx[p], py = rowShift[r] + places.y[p];
      const fx = plan.colFx[col], fy = plan.colFy[col];
      pushBox(out, kind.bottom, px, py, 0, fx, fy, kind.bottomH[fp]);
      if (kind.top >= 0) {
        const tl = kind.topL[fp], tw = kind.topW[fp];
        // the top centred on its bottom
        pushBox(out, kind.top, px + (fx - tl) / 2, py + (fy - tw) / 2, kind.bottomH[fp], tl, tw, cargo.h[kind.top]);
      }
    }
  }
  return result;
}

/** Heaviest row first, each next one in front of or behind the rows so far, whichever balances better. */
function balancedRowOrder(plan: FloorPlan, rowWeight: StaticArray<f64>, rowMoment: StaticArray<f64>): StaticArray<i32> {
  const rows = plan.rows;
  const byWeight = new Array<i32>();
  for (let r = 0; r < rows; r++) {
    let j = byWeight.length;
    byWeight.push(r);
    while (j > 0 && rowWeight[byWeight[j - 1]] < rowWeight[r]) {
      byWeight[j] = byWeight[j - 1];
      j--;
    }
    byWeight[j] = r;
  }
  const seq = new Array<i32>();
  // moment about the sequence's front, its weight and depth
  let moment: f64 = 0, weight: f64 = 0, depth: f64 = 0;
  for (let i = 0; i < rows; i++) {
    const r = byWeight[i];
    const d = <f64>plan.rowDepth[r];
    const w = rowWeight[r];
    // in front: everything so far moves back by d
    const frontMoment = moment + weight * d + rowMoment[r];
    const backMoment = moment + w * depth + rowMoment[r];
    const total = weight + w, newDepth = depth + d;
    const frontOff = total > 0 ? abs(frontMoment / total - newDepth / 2) : 0;
    const backOff = total > 0 ? abs(backMoment / total - newDepth / 2) : 0;
    if (frontOff < backOff) {
      seq.unshift(r);
      moment = frontMoment;
    } else {
      seq.push(r);
      moment = backMoment;
    }
    weight = total;
    depth = newDepth;
  }
  const order = new StaticArray<i32>(rows);
  for (let i = 0; i < rows; i++) order[i] = seq[i];
  return order;
}

/** The centre of gravity along x of the rows in this order with the load starting at shift. */
function cogX(plan: FloorPlan, order: StaticArray<i32>, rowWeight: StaticArray<f64>, rowMoment: StaticArray<f64>, total: f64, shift: i32): f64 {
  let x = <f64>shift;
  let m: f64 = 0;
  for (let i = 0; i < order.length; i++) {
    const r = order[i];
    m += rowWeight[r] * x + rowMoment[r];
    x += <f64>plan.rowDepth[r];
  }
  return m / total;
}

/** Where the load starts so its centre of gravity comes nearest the target, within the free length. */
function bestShift(plan: FloorPlan, order: StaticArray<i32>, rowWeight: StaticArray<f64>, rowMoment: StaticArray<f64>, total: f64, length: i32, extent: i32, target: f64): i32 {
  const at0 = cogX(plan, order, rowWeight, rowMoment, total, 0);
  const want = target - at0;
  return <i32>Math.round(Math.min(Math.max(want, 0), <f64>(length - extent)));
}

function offCentre(plan: FloorPlan, order: StaticArray<i32>, rowWeight: StaticArray<f64>, rowMoment: StaticArray<f64>, total: f64, target: f64, shift: i32): f64 {
  return abs(cogX(plan, order, rowWeight, rowMoment, total, shift) - target);
}

/** Moves rows across within their free width, heaviest first, until the load sits on the centreline. */
function centreRowsAcross(plan: FloorPlan, places: Places, kinds: Array<StackKind>, rowShift: StaticArray<i32>, rowWeight: StaticArray<f64>, total: f64, width: i32): void {
  const rows = plan.rows;
  let my: f64 = 0;
  for (let p = 0; p < places.row.length; p++) {
    const k = places.kind[p];
    if (k < 0) continue;
    my += kinds[k].weight * (<f64>(rowShift[places.row[p]] + places.y[p]) + <f64>plan.colFy[places.col[p]] / 2);
  }
  let need = <f64>width / 2 * total - my;
  const done = new StaticArray<bool>(rows);
  for (let step = 0; step < rows && abs(need) > total * 0.5; step++) {
    let r = -1;
    for (let q = 0; q < rows; q++) if (!done[q] && rowWeight[q] > 0 && (r < 0 || rowWeight[q] > rowWeight[r])) r = q;
    if (r < 0) break;
    done[r] = true;
    const slack = width - plan.rowWidth[r];
    const target = <i32>Math.round(Math.min(Math.max(<f64>rowShift[r] + need / rowWeight[r], 0), <f64>slack));
    need -= rowWeight[r] * <f64>(target - rowShift[r]);
    rowShift[r] = target;
  }
}

/** Heap sort of the indexes in order by key ascending, ties by index (deterministic). */
function sortByKey(order: StaticArray<i32>, key: StaticArray<f64>): void {
  const n = order.length;
  for (let s = (n >> 1) - 1; s >= 0; s--) siftDown(order, key, s, n);
  for (let end = n - 1; end > 0; end--) {
    const t = order[0];
    order[0] = order[end];
    order[end] = t;
    siftDown(order, key, 0, end);
  }
}

@inline function after(a: i32, b: i32, key: StaticArray<f64>): bool {
  const ka = unchecked(key[a]), kb = unchecked(key[b]);
  return ka > kb || (ka == kb && a > b);
}

function siftDown(order: StaticArray<i32>, key: StaticArray<f64>, start: i32, end: i32): void {
  let root = start;
  while (true) {
    let child = 2 * root + 1;
    if (child >= end) return;
    if (child + 1 < end && after(unchecked(order[child + 1]), unchecked(order[child]), key)) child++;
    if (!after(unchecked(order[child]), unchecked(order[root]), key)) return;
    const t = unchecked(order[root]);
    unchecked((order[root] = order[child]));
    unchecked((order[child] = t));
    root = child;
  }
}
