// The 3D picture of a container, seen from above the door on the near side (y = 0, the lower edge
// of the top view), as a parallel projection: the same placements the viewer draws, flattened to
// paper. Boxes are painted far to near; for two boxes whose pictures overlap, any axis that
// separates them says which is nearer, so the order is a topological sort of those pairs.
import type { PlacedBox } from '../plan-contract/plan-types.js';

/** Screen direction (right, up) of one millimetre along x (to the door), y (across) and z (up). */
const AXES = {
  x: [0.985, -0.174],
  y: [0.42, 0.3],
  z: [0, 1],
} as const;

export interface Point {
  x: number;
  y: number;
}

/** Screen point (right, up) of a container point. */
export function project(x: number, y: number, z: number): Point {
  return { x: x * AXES.x[0] + y * AXES.y[0] + z * AXES.z[0], y: x * AXES.x[1] + y * AXES.y[1] + z * AXES.z[1] };
}

/** The three faces a viewer above the door on the near side sees: top, door end, near side. */
export function visibleFaces(b: PlacedBox): { top: Point[]; door: Point[]; near: Point[] } {
  const x1 = b.x + b.l;
  const y1 = b.y + b.w;
  const z1 = b.z + b.h;
  return {
    top: [project(b.x, b.y, z1), project(x1, b.y, z1), project(x1, y1, z1), project(b.x, y1, z1)],
    door: [project(x1, b.y, b.z), project(x1, y1, b.z), project(x1, y1, z1), project(x1, b.y, z1)],
    near: [project(b.x, b.y, b.z), project(x1, b.y, b.z), project(x1, b.y, z1), project(b.x, b.y, z1)],
  };
}

// A projected box is a hexagon with edges along the three projected axes, so two of them overlap
// exactly when their extents overlap across each axis's normal.
const NORMALS = [AXES.x, AXES.y, AXES.z].map(([a, b]) => [-b, a] as const);

function extent(b: PlacedBox, [nx, ny]: readonly [number, number]): [number, number] {
  const along = (axis: readonly [number, number]): number => axis[0] * nx + axis[1] * ny;
  const parts = [
    [along(AXES.x) * b.x, along(AXES.x) * (b.x + b.l)],
    [along(AXES.y) * b.y, along(AXES.y) * (b.y + b.w)],
    [along(AXES.z) * b.z, along(AXES.z) * (b.z + b.h)],
  ];
  let low = 0;
  let high = 0;
  for (const [a = 0, c = 0] of parts) {
    low += Math.min(a, c);
    high += Math.max(a, c);
  }
  return [low, high];
}

function picturesOverlap(a: PlacedBox, b: PlacedBox): boolean {
  const eps = 1e-6;
  return NORMALS.every((n) => {
    const [a0, a1] = extent(a, n);
    const [b0, b1] = extent(b, n);
    return a0 < b1 - eps && b0 < a1 - eps;
  });
}

/** True when a is farther from the viewer than b (the viewer is at +x, -y, +z). */
function farther(a: PlacedBox, b: PlacedBox): boolean | undefined {
  if (a.x + a.l <= b.x) return true;
  if (b.x + b.l <= a.x) return false;
  if (a.y >= b.y + b.w) return true;
  if (b.y >= a.y + a.w) return false;
  if (a.z + a.h <= b.z) return true;
  if (b.z + b.h <= a.z) return false;
  return undefined; // they intersect: the plan validator refuses that, so any order will do
}

/** Indexes of the boxes in painting order, far to near. */
export function paintingOrder(boxes: readonly PlacedBox[]): number[] {
  const n = boxes.length;
  const after: number[][] = boxes.map(() => []);
  const waiting = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    const a = boxes[i]!;
    for (let j = i + 1; j < n; j++) {
      const b = boxes[j]!;
      if (!picturesOverlap(a, b)) continue;
      const aFirst = farther(a, b);
      if (aFirst === undefined) continue;
      const [first, second] = aFirst ? [i, j] : [j, i];
      after[first]!.push(second);
      waiting[second]! += 1;
    }
  }
  // Ties (and, should one ever occur, a cycle) fall back to depth along the view.
  const depth = boxes.map((b) => b.x + b.l / 2 - (b.y + b.w / 2) + (b.z + b.h / 2));
  const byDepth = (i: number, j: number): number => depth[i]! - depth[j]! || i - j;
  const ready = boxes.flatMap((_, i) => (waiting[i] === 0 ? [i] : [])).sort(byDepth);
  const order: number[] = [];
  const done = new Array<boolean>(n).fill(false);
  while (order.length < n) {
    if (ready.length === 0) {
      const next = boxes
        .map((_, i) => i)
        .filter((i) => !done[i])
        .sort(byDepth)[0]!;
      ready.push(next);
      waiting[next] = 0;
    }
    const i = ready.shift()!;
    if (done[i]) continue;
    done[i] = true;
    order.push(i);
    let added = false;
    for (const j of after[i]!) {
      waiting[j]! -= 1;
      if (waiting[j] === 0 && !done[j]) {
        ready.push(j);
        added = true;
      }
    }
    if (added) ready.sort(byDepth);
  }
  return order;
}
