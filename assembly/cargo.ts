// The cargo of one job: box types (a SKU unit, a pallet, a carton type) with their allowed
// orientations, counts and stacking rules (the policies: wire-layout.ts POLICY_*), and the bin they go
// into.
import { BoxType } from './wire-layout';

/**
 * Orientation o of a box with dimensions (l, w, h) gives the sizes along x, y, z:
 * 0: l w h, 1: w l h (h vertical); 2: l h w, 3: h l w (w vertical); 4: w h l, 5: h w l (l vertical).
 */
export function orientedX(o: i32, l: i32, w: i32, h: i32): i32 {
  return o == 0 || o == 2 ? l : o == 1 || o == 4 ? w : h;
}
export function orientedY(o: i32, l: i32, w: i32, h: i32): i32 {
  return o == 0 || o == 5 ? w : o == 1 || o == 3 ? l : h;
}
export function orientedZ(o: i32, l: i32, w: i32, h: i32): i32 {
  return o < 2 ? h : o < 4 ? w : l;
}

export class Bin {
  constructor(public l: i32, public w: i32, public h: i32, public maxWeight: f64) {}
  volume(): f64 {
    return <f64>this.l * <f64>this.w * <f64>this.h;
  }
}

export class Cargo {
  l: StaticArray<i32>;
  w: StaticArray<i32>;
  h: StaticArray<i32>;
  weight: StaticArray<i32>;
  count: StaticArray<i32>;
  oriMask: StaticArray<i32>;
  policy: StaticArray<i32>;
  canTop: StaticArray<i32>;
  stackClass: StaticArray<i32>;
  /** The most one box may carry above it, everything that rests on it directly or through others (g); infinity: no limit. */
  maxLoad: StaticArray<f64>;
  /** Some type has a limit: the searches count what rests on each box (bearing.ts). */
  bearing: bool = false;
  constructor(public n: i32) {
    this.l = new StaticArray<i32>(n);
    this.w = new StaticArray<i32>(n);
    this.h = new StaticArray<i32>(n);
    this.weight = new StaticArray<i32>(n);
    this.count = new StaticArray<i32>(n);
    this.oriMask = new StaticArray<i32>(n);
    this.policy = new StaticArray<i32>(n);
    this.canTop = new StaticArray<i32>(n);
    this.stackClass = new StaticArray<i32>(n);
    this.maxLoad = new StaticArray<f64>(n);
    for (let t = 0; t < n; t++) this.maxLoad[t] = Infinity;
  }
  /** Boxes of type t one on another in a column that its bottom box bears: itself and what its limit carries. */
  bearableLayers(t: i32): i32 {
    const limit = this.maxLoad[t];
    if (limit == Infinity || this.weight[t] <= 0) return i32.MAX_VALUE;
    return 1 + <i32>min(Math.floor(limit / <f64>this.weight[t]), <f64>(i32.MAX_VALUE - 1));
  }
  volumeOf(t: i32): f64 {
    return <f64>this.l[t] * <f64>this.w[t] * <f64>this.h[t];
  }
  /** Whether some allowed orientation of type t fits inside the bin. */
  fitsIn(t: i32, bin: Bin): bool {
    const l = this.l[t], w = this.w[t], h = this.h[t], mask = this.oriMask[t];
    for (let o = 0; o < 6; o++) {
      if ((mask & (1 << o)) == 0) continue;
      if (orientedX(o, l, w, h) <= bin.l && orientedY(o, l, w, h) <= bin.w && orientedZ(o, l, w, h) <= bin.h) return true;
    }
    return false;
  }
}

/** The cargo of a job's box types as the host wrote them. */
export function cargoOf(types: StaticArray<BoxType>): Cargo {
  const c = new Cargo(types.length);
  for (let t = 0; t < types.length; t++) {
    const b = types[t];
    c.l[t] = b.l;
    c.w[t] = b.w;
    c.h[t] = b.h;
    c.weight[t] = b.weightG;
    c.count[t] = b.count;
    c.oriMask[t] = b.orientations;
    c.policy[t] = b.policy;
    c.canTop[t] = b.canTop ? 1 : 0;
    c.stackClass[t] = b.stackClass;
    if (b.maxLoadG >= 0) {
      c.maxLoad[t] = <f64>b.maxLoadG;
      c.bearing = true;
    }
  }
  return c;
}
