// The best guillotine layer of one carton size on a pallet deck: the most a×b rectangles (each
// turnable by 90° in the plane) that a sequence of edge-to-edge cuts can give. Exact over the
// normal patterns (cut positions that are sums of a and b), the classic dynamic programme.
import { layerCache } from './planner-caches.js';

/** A unit's footprint in a layer: corner and sizes along the deck's length (x) and width (y). */
export interface LayerSpot {
  x: number;
  y: number;
  l: number;
  w: number;
}

/** Work beyond this many steps falls back to the best simple grid (tiny cartons on a big deck). */
const MAX_STEPS = 2_000_000;

/** Every sum i·a + j·b up to limit, ascending; 0 included. */
function normalPoints(limit: number, a: number, b: number): number[] {
  const points = new Set<number>();
  for (let i = 0; i * a <= limit; i++) for (let j = 0; i * a + j * b <= limit; j++) points.add(i * a + j * b);
  return [...points].sort((p, q) => p - q);
}

/** The largest point not above v (points ascending, points[0] = 0). */
function floorIndex(points: readonly number[], v: number): number {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid]! <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function gridSpots(deckL: number, deckW: number, a: number, b: number): LayerSpot[] {
  const nx = Math.floor(deckL / a);
  const ny = Math.floor(deckW / b);
  const spots: LayerSpot[] = [];
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) spots.push({ x: i * a, y: j * b, l: a, w: b });
  return spots;
}

/**
 * bestGuillotineLayer, remembered per deck and footprint (planner-caches.ts): every order that
 * ships a catalogue item on a pallet type asks for the same layer. The spots are shared and frozen.
 */
export function guillotineLayer(deckL: number, deckW: number, a: number, b: number): readonly Readonly<LayerSpot>[] {
  const key = `${deckL},${deckW},${a},${b}`;
  const known = layerCache.get(key);
  if (known) return known;
  const spots = Object.freeze(bestGuillotineLayer(deckL, deckW, a, b).map((spot) => Object.freeze(spot)));
  layerCache.set(key, spots, Math.max(1, spots.length));
  return spots;
}

export function bestGuillotineLayer(deckL: number, deckW: number, a: number, b: number): LayerSpot[] {
  if (a <= 0 || b <= 0) return [];
  const xs = normalPoints(deckL, Math.min(a, b), Math.max(a, b));
  const ys = normalPoints(deckW, Math.min(a, b), Math.max(a, b));
  const nx = xs.length;
  const ny = ys.length;
  if (nx * ny * (nx + ny) > MAX_STEPS) {
    const straight = gridSpots(deckL, deckW, a, b);
    const turned = gridSpots(deckL, deckW, b, a);
    return turned.length > straight.length ? turned : straight;
  }
  // best[i][j]: most units in an xs[i] × ys[j] rectangle; how[i][j]: 0 grid a×b, 1 grid b×a,
  // 2 + k: cut across x at xs[k], -(1 + k): cut across y at ys[k]
  // restX[i·nx + k]: the point index of xs[i] - xs[k], the far side of a cut
  const restX = new Int32Array(nx * nx);
  for (let i = 0; i < nx; i++) for (let k = 0; k <= i; k++) restX[i * nx + k] = floorIndex(xs, xs[i]! - xs[k]!);
  const restY = new Int32Array(ny * ny);
  for (let j = 0; j < ny; j++) for (let k = 0; k <= j; k++) restY[j * ny + k] = floorIndex(ys, ys[j]! - ys[k]!);
  const best = new Int32Array(nx * ny);
  const how = new Int32Array(nx * ny);
  for (let i = 1; i < nx; i++) {
    const X = xs[i]!;
    for (let j = 1; j < ny; j++) {
      const Y = ys[j]!;
      const straight = Math.floor(X / a) * Math.floor(Y / b);
      const turned = Math.floor(X / b) * Math.floor(Y / a);
      let value = Math.max(straight, turned);
      let choice = turned > straight ? 1 : 0;
      // no cut beats a grid that already fills the rectangle's area
      const areaBound = Math.floor((X * Y) / (a * b));
      for (let k = 1; k < nx && 2 * xs[k]! <= X && value < areaBound; k++) {
        const v = best[k * ny + j]! + best[restX[i * nx + k]! * ny + j]!;
        if (v > value) {
          value = v;
          choice = 2 + k;
        }
      }
      for (let k = 1; k < ny && 2 * ys[k]! <= Y && value < areaBound; k++) {
        const v = best[i * ny + k]! + best[i * ny + restY[j * ny + k]!]!;
        if (v > value) {
          value = v;
          choice = -(1 + k);
        }
      }
      best[i * ny + j] = value;
      how[i * ny + j] = choice;
    }
  }
  const spots: LayerSpot[] = [];
  const place = (i: number, j: number, x0: number, y0: number): void => {
    if (i === 0 || j === 0 || best[i * ny + j] === 0) return;
    const choice = how[i * ny + j]!;
    if (choice === 0 || choice === 1) {
      const [l, w] = choice === 0 ? [a, b] : [b, a];
      for (const s of gridSpots(xs[i]!, ys[j]!, l, w)) spots.push({ ...s, x: s.x + x0, y: s.y + y0 });
    } else if (choice >= 2) {
      const k = choice - 2;
      place(k, j, x0, y0);
      place(floorIndex(xs, xs[i]! - xs[k]!), j, x0 + xs[k]!, y0);
    } else {
      const k = -choice - 1;
      place(i, k, x0, y0);
      place(i, floorIndex(ys, ys[j]! - ys[k]!), x0, y0 + ys[k]!);
    }
  };
  place(floorIndex(xs, deckL), floorIndex(ys, deckW), 0, 0);
  // rows along the deck's length, front row first: the order a person fills a layer in
  return spots.sort((p, q) => p.y - q.y || p.x - q.x);
}
