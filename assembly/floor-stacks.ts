// What stands on a container floor: in a container nothing stands on anything but a top-flagged
// item wholly on one bottom-flagged item of its class (two tiers), so a load is a floor plan of
// stacks. A stack kind is one type alone, or a top type on a bottom type; kinds whose footprints
// are the same share a floor class, so the floor plan may put either in the other's place.
import { Bin, Cargo, orientedX, orientedY, orientedZ } from './cargo';
import { POLICY_BASE } from './wire-layout';

export const MAX_FOOTPRINTS: i32 = 6;

export class StackKind {
  bottom: i32 = -1;
  /** -1: a single item. */
  top: i32 = -1;
  count: i32 = 0;
  weight: f64 = 0;
  volume: f64 = 0;
  floorClass: i32 = -1;
  /** Footprints in a canonical order (x then y): along x, across, and the boxes they put in the stack. */
  n: i32 = 0;
  fx: StaticArray<i32> = new StaticArray<i32>(MAX_FOOTPRINTS);
  fy: StaticArray<i32> = new StaticArray<i32>(MAX_FOOTPRINTS);
  bottomH: StaticArray<i32> = new StaticArray<i32>(MAX_FOOTPRINTS);
  topL: StaticArray<i32> = new StaticArray<i32>(MAX_FOOTPRINTS);
  topW: StaticArray<i32> = new StaticArray<i32>(MAX_FOOTPRINTS);

  /** Adds a footprint unless one of the same size is there (keeps the lower stack), in x-then-y order. */
  addFootprint(x: i32, y: i32, bh: i32, tl: i32, tw: i32): void {
    for (let i = 0; i < this.n; i++) {
      if (this.fx[i] == x && this.fy[i] == y) {
        if (bh < this.bottomH[i]) {
          this.bottomH[i] = bh;
          this.topL[i] = tl;
          this.topW[i] = tw;
        }
        return;
      }
    }
    let k = this.n;
    while (k > 0 && (this.fx[k - 1] > x || (this.fx[k - 1] == x && this.fy[k - 1] > y))) {
      this.fx[k] = this.fx[k - 1];
      this.fy[k] = this.fy[k - 1];
      this.bottomH[k] = this.bottomH[k - 1];
      this.topL[k] = this.topL[k - 1];
      this.topW[k] = this.topW[k - 1];
      k--;
    }
    this.fx[k] = x;
    this.fy[k] = y;
    this.bottomH[k] = bh;
    this.topL[k] = tl;
    this.topW[k] = tw;
    this.n++;
  }

  sameFootprints(o: StackKind): bool {
    if (o.n != this.n) return false;
    for (let i = 0; i < this.n; i++) if (o.fx[i] != this.fx[i] || o.fy[i] != this.fy[i]) return false;
    return true;
  }
}

/** The footprint of top type a on bottom type b in bottom orientation ob (0 or 1), or false. */
function pairFits(cargo: Cargo, b: i32, a: i32, ob: i32, bin: Bin, k: StackKind | null): bool {
  if ((cargo.oriMask[b] & (1 << ob)) == 0) return false;
  if (cargo.h[b] + cargo.h[a] > bin.h) return false;
  const bx = orientedX(ob, cargo.l[b], cargo.w[b], cargo.h[b]), by = orientedY(ob, cargo.l[b], cargo.w[b], cargo.h[b]);
  if (bx > bin.l || by > bin.w) return false;
  // the top turned with the bottom, or a quarter turn more
  for (let r = 0; r < 2; r++) {
    const ot = ob ^ r;
    if ((cargo.oriMask[a] & (1 << ot)) == 0) continue;
    const tx = orientedX(ot, cargo.l[a], cargo.w[a], cargo.h[a]), ty = orientedY(ot, cargo.l[a], cargo.w[a], cargo.h[a]);
    if (tx > bx || ty > by) continue;
    if (k != null) k.addFootprint(bx, by, cargo.h[b], tx, ty);
    return true;
  }
  return false;
}

function canCarry(cargo: Cargo, b: i32, a: i32, bin: Bin): bool {
  return cargo.policy[b] == POLICY_BASE && cargo.canTop[a] != 0 && cargo.stackClass[a] == cargo.stackClass[b]
    && <f64>cargo.weight[a] <= cargo.maxLoad[b]
    && (pairFits(cargo, b, a, 0, bin, null) || pairFits(cargo, b, a, 1, bin, null));
}

/**
 * The stacks of counts[] for a bin of this height: every top that some bottom can carry goes on
 * one (the largest tops first, each on the smallest bottom that carries it), the rest stand alone.
 */
export function buildStacks(cargo: Cargo, bin: Bin, counts: StaticArray<i32>): Array<StackKind> {
  const left = new StaticArray<i32>(cargo.n);
  for (let t = 0; t < cargo.n; t++) left[t] = counts[t];
  const kinds = new Array<StackKind>();
  const tops = new Array<i32>();
  for (let t = 0; t < cargo.n; t++) if (cargo.canTop[t] != 0 && left[t] > 0) tops.push(t);
  // largest footprint first: small tops have more bottoms to choose from
  for (let i = 1; i < tops.length; i++) {
    const a = tops[i];
    let j = i;
    while (j > 0 && <f64>cargo.l[tops[j - 1]] * <f64>cargo.w[tops[j - 1]] < <f64>cargo.l[a] * <f64>cargo.w[a]) {
      tops[j] = tops[j - 1];
      j--;
    }
    tops[j] = a;
  }
  for (let i = 0; i < tops.length; i++) {
    const a = tops[i];
    while (left[a] > 0) {
      let best = -1;
      for (let b = 0; b < cargo.n; b++) {
        if (left[b] <= 0 || (b == a && left[a] < 2) || !canCarry(cargo, b, a, bin)) continue;
        if (best < 0 || <f64>cargo.l[b] * <f64>cargo.w[b] < <f64>cargo.l[best] * <f64>cargo.w[best]
          || (cargo.l[b] * cargo.w[b] == cargo.l[best] * cargo.w[best] && cargo.weight[b] > cargo.weight[best])) best = b;
      }
      if (best < 0) break;
      const n = best == a ? left[a] / 2 : min(left[a], left[best]);
      const k = new StackKind();
      k.bottom = best;
      k.top = a;
      k.count = n;
      k.weight = <f64>cargo.weight[best] + <f64>cargo.weight[a];
      k.volume = cargo.volumeOf(best) + cargo.volumeOf(a);
      pairFits(cargo, best, a, 0, bin, k);
      pairFits(cargo, best, a, 1, bin, k);
      kinds.push(k);
      left[a] -= n;
      left[best] -= n;
    }
  }
  for (let t = 0; t < cargo.n; t++) {
    if (left[t] <= 0) continue;
    const k = new StackKind();
    k.bottom = t;
    k.count = left[t];
    k.weight = <f64>cargo.weight[t];
    k.volume = cargo.volumeOf(t);
    const l = cargo.l[t], w = cargo.w[t], h = cargo.h[t];
    for (let o = 0; o < 6; o++) {
      if ((cargo.oriMask[t] & (1 << o)) == 0) continue;
      const x = orientedX(o, l, w, h), y = orientedY(o, l, w, h), z = orientedZ(o, l, w, h);
      if (x <= bin.l && y <= bin.w && z <= bin.h) k.addFootprint(x, y, z, 0, 0);
    }
    if (k.n > 0) kinds.push(k);
  }
  // floor classes: kinds of the same footprints
  let classes = 0;
  for (let i = 0; i < kinds.length; i++) {
    const k = kinds[i];
    for (let j = 0; j < i && k.floorClass < 0; j++) if (kinds[j].sameFootprints(k)) k.floorClass = kinds[j].floorClass;
    if (k.floorClass < 0) k.floorClass = classes++;
  }
  return kinds;
}

export function countClasses(kinds: Array<StackKind>): i32 {
  let n = 0;
  for (let i = 0; i < kinds.length; i++) n = max(n, kinds[i].floorClass + 1);
  return n;
}
