// The knapsack of the layer stacks (layer-stacks.ts): which whole layers fill one pallet's load height
// best within its weight. It runs once or more for every layer choice of every mixed order, most of
// them for choices whose first pallet will not stand. The tests look at it through a job of the tests'
// build (checks/fullest-pallet-check.ts).
import { gcd } from './gcd';
import { room } from './room';

/**
 * The fill for a load height H and weight maxG of n kinds of layers (each's height, weight and how
 * many one pallet may take): the kinds picked, in the order the fill first took them, into kind[] and how many
 * layers of each into layers[]; returns how many kinds (0: no layer fits).
 *
 * Among the tallest fills it takes the one richest in the layers most left (by height), so that the
 * last pallets are not left with layers that do not add up. Each kind is split into 1, 2, 4, ...
 * copies (a bounded knapsack by binary splitting), then a 0/1 knapsack over heights. Every height a
 * pallet can reach is a sum of layer heights, so a multiple of their greatest common divisor: the
 * table runs in steps of it (10 mm for a lane in cm). Each height's best path is a node of a shared
 * linked list (item, node before).
 */
export function fullest(
  H: i32,
  maxG: f64,
  n: i32,
  height: StaticArray<i32>,
  weightG: StaticArray<f64>,
  count: StaticArray<i32>,
  kind: StaticArray<i32>,
  layers: StaticArray<i32>,
  /** The layers of each kind left, where more are left than one pallet may take (count); null: count. */
  left: StaticArray<i32> | null = null,
  /** What each kind's layers may carry above them (layer-stacks.ts, for cargo with limits); null: anything. */
  bearing: LayerBearing | null = null,
): i32 {
  const most = left !== null ? left : count;
  let leftHeight: f64 = 0;
  for (let i = 0; i < n; i++) leftHeight += <f64>most[i] * <f64>height[i];
  // items: at most log2 of the count per kind, 31 at most
  const itemK = new StaticArray<i32>(n * 32);
  const itemN = new StaticArray<i32>(n * 32);
  const itemH = new StaticArray<i32>(n * 32);
  const itemG = new StaticArray<f64>(n * 32);
  const itemValue = new StaticArray<f64>(n * 32);
  // with limits, what each item may carry above it: kinds weakest first, each new item going below
  // those before it, so the path's weight so far is what rests on it
  const itemRoom = new StaticArray<f64>(n * 32);
  let items = 0;
  let step = 0;
  for (let o = 0; o < n; o++) {
    const i = bearing !== null ? unchecked(bearing.order[o]) : o;
    const h = height[i];
    const g = weightG[i];
    let m = min(count[i], H / h);
    if (g > 0 && Math.floor(maxG / g) < <f64>m) m = <i32>Math.floor(maxG / g);
    const share = (<f64>most[i] * <f64>h) / leftHeight;
    for (let take = 1; m > 0; take *= 2) {
      const t = min(take, m);
      unchecked((itemK[items] = i));
      unchecked((itemN[items] = t));
      unchecked((itemH[items] = t * h));
      unchecked((itemG[items] = <f64>t * g));
      // with limits, a pallet's fill takes a weak kind's layers first: they need strong ones below them,
      // and strong layers left over stack anywhere
      const weak = bearing !== null && unchecked(bearing.weak[i]);
      unchecked((itemValue[items] = <f64>(t * h) * share * (weak ? WEAK_LAYER_VALUE : 1)));
      unchecked((itemRoom[items] = bearing !== null ? bearing.room(i, t) : Infinity));
      step = gcd(step, t * h);
      items++;
      m -= t;
    }
  }
  if (items == 0) return 0;
  const cells = H / step;
  const value = new StaticArray<f64>(cells + 1);
  const weight = new StaticArray<f64>(cells + 1);
  const via = new StaticArray<i32>(cells + 1);
  for (let h = 1; h <= cells; h++) {
    unchecked((value[h] = -1));
    unchecked((via[h] = -1));
  }
  unchecked((via[0] = -1));
  // the path nodes: one per improvement, at most items * cells
  let nodeItem = new StaticArray<i32>(1024);
  let nodePrev = new StaticArray<i32>(1024);
  let nodes = 0;
  // no height above the sum of the items so far is reached: those cells are not visited
  let reach = 0;
  for (let idx = 0; idx < items; idx++) {
    const size = unchecked(itemH[idx]) / step;
    const g = unchecked(itemG[idx]);
    const iv = unchecked(itemValue[idx]);
    const bears = unchecked(itemRoom[idx]);
    const below = unchecked(itemK[idx]);
    const hi = min(cells, reach + size);
    for (let h = hi; h >= size; h--) {
      const from = unchecked(value[h - size]);
      if (from < 0) continue;
      // with limits the item goes below the path so far: that path's lowest layer must stand on it
      if (bearing !== null && h > size && !bearing.stands(unchecked(itemK[nodeItem[via[h - size]]]), below)) continue;
      const v = from + iv;
      const w = unchecked(weight[h - size]) + g;
      if (w <= maxG && v > unchecked(value[h]) && unchecked(weight[h - size]) <= bears) {
        unchecked((value[h] = v));
        unchecked((weight[h] = w));
        nodeItem = room(nodeItem, nodes + 1);
        nodePrev = room(nodePrev, nodes + 1);
        unchecked((nodeItem[nodes] = idx));
        unchecked((nodePrev[nodes] = via[h - size]));
        unchecked((via[h] = nodes++));
      }
    }
    reach = hi;
  }
  let top = cells;
  while (top > 0 && unchecked(value[top]) < 0) top--;
  if (top == 0) return 0;
  // with limits, the fill of most value, not the tallest: a weak kind's top on a pallet a layer lower
  // beats a taller pallet of strong layers only, which leaves the weak ones no pallet to go on
  if (bearing !== null) {
    for (let h = top - 1; h > 0; h--) if (unchecked(value[h]) > unchecked(value[top])) top = h;
  }
  // the path from the first item taken, and per kind its layers, kinds in the order first taken
  let length = 0;
  for (let node = via[top]; node >= 0; node = unchecked(nodePrev[node])) length++;
  const path = new StaticArray<i32>(length);
  let at = length;
  for (let node = via[top]; node >= 0; node = unchecked(nodePrev[node])) unchecked((path[--at] = nodeItem[node]));
  const taken = new StaticArray<i32>(n);
  let picked = 0;
  for (let p = 0; p < length; p++) {
    const k = unchecked(itemK[path[p]]);
    if (unchecked(taken[k]) == 0) unchecked((kind[picked++] = k));
    unchecked((taken[k] += itemN[path[p]]));
  }
  for (let p = 0; p < picked; p++) unchecked((layers[p] = taken[kind[p]]));
  return picked;
}

/** A weak kind's layers' value against a strong kind's, among fills of one height. */
const WEAK_LAYER_VALUE: f64 = 16;

/**
 * What each kind's layers may carry above them, for the knapsack (layer-stacks.ts): t layers of kind k
 * one on another carry at most room(k, t) above them (its host's units and its filler's columns, each
 * less what the layers of its own kind above it weigh on a column). order: the kinds weakest first, the
 * order the knapsack stacks them from the top down.
 */
export class LayerBearing {
  capA: StaticArray<f64>;
  incA: StaticArray<f64>;
  capB: StaticArray<f64>;
  incB: StaticArray<f64>;
  order: StaticArray<i32>;
  /** Kinds that cannot carry one layer of their own: the knapsack values their layers higher. */
  weak: StaticArray<bool>;
  /** upperStandsOn[a * n + b]: a layer of kind a stands wholly on one of kind b. */
  upperStandsOn: StaticArray<bool>;
  constructor(public n: i32) {
    this.weak = new StaticArray<bool>(n);
    this.upperStandsOn = new StaticArray<bool>(n * n);
    this.capA = new StaticArray<f64>(n);
    this.incA = new StaticArray<f64>(n);
    this.capB = new StaticArray<f64>(n);
    this.incB = new StaticArray<f64>(n);
    this.order = new StaticArray<i32>(n);
  }
  @inline stands(upper: i32, lower: i32): bool {
    return upper == lower || unchecked(this.upperStandsOn[upper * this.n + lower]);
  }
  room(k: i32, t: i32): f64 {
    return min(this.capA[k] - <f64>(t - 1) * this.incA[k], this.capB[k] - <f64>(t - 1) * this.incB[k]);
  }
}
