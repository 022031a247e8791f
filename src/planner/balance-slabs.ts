// A load the loader left outside the centre-of-gravity limits (CTU Code, annex 7, 3.1.4: within 5 %
// of the inner length from the middle and 5 % of the inner width from the centreline), mended by
// moving whole slabs. A slab is a set of boxes whose lengthwise extents overlap one another's and
// no other box's: it spans the floor across on its own, so turned about the centreline, or moved
// along the container with the others packed behind it, every box stays inside the walls, off
// every other box and on what it stood on. A load within the limits is left as laid.
interface Box {
  x: number;
  y: number;
  l: number;
  w: number;
}

interface Inner {
  l: number;
  w: number;
}

/** Slabs with more than this many are left in their order: the search is quadratic per pass. */
const MAX_SLABS_TO_ORDER = 60;
const MAX_PASSES = 20;

export function balanceSlabs<T extends Box>(boxes: readonly T[], weightOf: (box: T) => number, inner: Inner): T[] {
  const weight = boxes.reduce((s, b) => s + weightOf(b), 0);
  if (boxes.length === 0 || weight <= 0) return [...boxes];
  const offAlong = Math.abs(centreOf(boxes, weightOf, (b) => b.x + b.l / 2) - inner.l / 2) > 0.05 * inner.l;
  const offAcross = Math.abs(centreOf(boxes, weightOf, (b) => b.y + b.w / 2) - inner.w / 2) > 0.05 * inner.w;
  if (!offAlong && !offAcross) return [...boxes];
  const slabs = slabsOf(boxes);
  let out = [...boxes];
  if (offAcross) out = shiftAcross(slabs.length > 1 ? mirrorAcross(out, slabs, weightOf, inner.w) : out, slabs, weightOf, inner.w);
  if (offAcross && Math.abs(centreOf(out, weightOf, (b) => b.y + b.w / 2) - inner.w / 2) > 0.05 * inner.w) {
    // still off: lanes, the same thing across (boxes whose extents across overlap only one
    // another's), ordered across as slabs are along
    const turned = out.map(transpose);
    const lanes = slabsOf(turned);
    if (lanes.length <= MAX_SLABS_TO_ORDER) out = orderAlong(turned, lanes, weightOf, inner.w).map(transpose);
  }
  if (offAlong && slabs.length <= MAX_SLABS_TO_ORDER) out = orderAlong(out, slabs, weightOf, inner.l);
  return out;
}

function centreOf<T extends Box>(boxes: readonly T[], weightOf: (box: T) => number, at: (box: T) => number): number {
  return boxes.reduce((s, b) => s + weightOf(b) * at(b), 0) / boxes.reduce((s, b) => s + weightOf(b), 0);
}

/** The box with its length and width axes swapped, so that lanes across are slabs along. */
function transpose<T extends Box>(b: T): T {
  return { ...b, x: b.y, y: b.x, l: b.w, w: b.l };
}

/** Indices of the boxes in each slab, front to door. */
function slabsOf(boxes: readonly Box[]): number[][] {
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.x - boxes[b]!.x);
  const slabs: number[][] = [];
  let reach = -Infinity;
  for (const i of order) {
    const b = boxes[i]!;
    if (b.x >= reach) slabs.push([]);
    slabs.at(-1)!.push(i);
    reach = Math.max(reach, b.x + b.l);
  }
  return slabs;
}

/** Some slabs turned about the centreline: the largest moments first, each against the others' lean. */
function mirrorAcross<T extends Box>(boxes: T[], slabs: readonly number[][], weightOf: (box: T) => number, width: number): T[] {
  const moments = slabs.map((slab) => slab.reduce((m, i) => m + weightOf(boxes[i]!) * (boxes[i]!.y + boxes[i]!.w / 2 - width / 2), 0));
  let total = 0;
  const turn = new Array<boolean>(slabs.length).fill(false);
  for (const k of moments.map((_, k) => k).sort((a, b) => Math.abs(moments[b]!) - Math.abs(moments[a]!))) {
    const m = moments[k]!;
    turn[k] = Math.abs(total - m) < Math.abs(total + m);
    total += turn[k] ? -m : m;
  }
  if (Math.abs(total) >= Math.abs(moments.reduce((s, m) => s + m, 0))) return boxes;
  const out = [...boxes];
  slabs.forEach((slab, k) => {
    if (turn[k]) for (const i of slab) out[i] = { ...boxes[i]!, y: width - boxes[i]!.y - boxes[i]!.w };
  });
  return out;
}

/**
 * Slabs slid across within the room each leaves at the walls, heaviest first, until the centre of
 * gravity is on the centreline or no slab can move further.
 */
function shiftAcross<T extends Box>(boxes: T[], slabs: readonly number[][], weightOf: (box: T) => number, width: number): T[] {
  const total = boxes.reduce((s, b) => s + weightOf(b), 0);
  let moment = boxes.reduce((s, b) => s + weightOf(b) * (b.y + b.w / 2 - width / 2), 0);
  const mass = slabs.map((slab) => slab.reduce((s, i) => s + weightOf(boxes[i]!), 0));
  const out = [...boxes];
  for (const k of slabs.map((_, k) => k).sort((a, b) => mass[b]! - mass[a]!)) {
    if (Math.abs(moment) / total < 1 || mass[k]! <= 0) break;
    const slab = slabs[k]!;
    const left = Math.min(...slab.map((i) => out[i]!.y));
    const right = width - Math.max(...slab.map((i) => out[i]!.y + out[i]!.w));
    // whole millimetres, no further than the walls allow
    const dy = Math.max(-left, Math.min(right, Math.round(-moment / mass[k]!)));
    if (dy === 0) continue;
    for (const i of slab) out[i] = { ...out[i]!, y: out[i]!.y + dy };
    moment += mass[k]! * dy;
  }
  return out;
}

/**
 * The slabs in the order, and at the one offset from the front wall, that bring the centre of
 * gravity nearest the middle: packed one behind the other, the room left before or after them.
 * A local search of swaps and moves from the order as laid.
 */
function orderAlong<T extends Box>(boxes: T[], slabs: readonly number[][], weightOf: (box: T) => number, length: number): T[] {
  const start = slabs.map((slab) => Math.min(...slab.map((i) => boxes[i]!.x)));
  const size = slabs.map((slab, k) => Math.max(...slab.map((i) => boxes[i]!.x + boxes[i]!.l)) - start[k]!);
  const mass = slabs.map((slab) => slab.reduce((s, i) => s + weightOf(boxes[i]!), 0));
  // each slab's moment about its own front
  const own = slabs.map((slab, k) => slab.reduce((s, i) => s + weightOf(boxes[i]!) * (boxes[i]!.x + boxes[i]!.l / 2 - start[k]!), 0));
  const total = mass.reduce((s, m) => s + m, 0);
  const room = length - size.reduce((s, l) => s + l, 0);
  if (room < 0) return boxes;
  /** Distance of the centre of gravity from the middle, and the offset that gives it. */
  const judge = (order: readonly number[]): { miss: number; offset: number } => {
    let at = 0;
    let moment = 0;
    for (const k of order) {
      moment += mass[k]! * at + own[k]!;
      at += size[k]!;
    }
    const packed = moment / total;
    // whole millimetres, as every position in a plan
    const offset = Math.min(room, Math.max(0, Math.round(length / 2 - packed)));
    return { miss: Math.abs(packed + offset - length / 2), offset };
  };
  const asLaid = slabs.map((_, k) => k);
  let order = [...asLaid];
  let best = judge(order);
  for (let pass = 0; pass < MAX_PASSES && best.miss > 0.5; pass++) {
    let improved = false;
    for (let i = 0; i < order.length; i++) {
      for (let j = 0; j < order.length; j++) {
        if (i === j) continue;
        // move slab i to position j
        const moved = [...order];
        const [k] = moved.splice(i, 1);
        moved.splice(j, 0, k!);
        const tried = judge(moved);
        if (tried.miss < best.miss - 0.5) {
          order = moved;
          best = tried;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  // the loader's own place for the load stands unless this is nearer the middle
  const laidMiss = Math.abs(boxes.reduce((s, b) => s + weightOf(b) * (b.x + b.l / 2), 0) / total - length / 2);
  if (best.miss >= laidMiss - 0.5) return boxes;
  const out = [...boxes];
  let at = best.offset;
  for (const k of order) {
    const dx = at - start[k]!;
    for (const i of slabs[k]!) out[i] = { ...boxes[i]!, x: boxes[i]!.x + dx };
    at += size[k]!;
  }
  return out;
}
