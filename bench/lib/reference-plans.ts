// Reference plans for bench:orders, computed here from first principles and sharing nothing with
// the planner: the best guillotine layer of one item on a pallet deck, units per pallet capped by
// height and weight, identical footprints on a container floor in lanes, and the fewest containers
// (then the least volume) of the order's types for a number of identical stacks.
import type { LaneDocument, PalletTypeDocument } from '../../src/master-data/master-data-document.js';
import type { OrderContainer } from '../../src/orders/submit-order-payload.js';
import { CONTAINER_CATALOG } from '../../src/planner/containers.js';

const MM_PER: Record<string, number> = { mm: 1, cm: 10, in: 25.4 };
const G_PER: Record<string, number> = { kg: 1000, lb: 453.59237 };
/** Cargo grows to the next whole millimetre (gram), limits shrink to it, as the planner's integers do. */
const up = (v: number): number => Math.ceil(v - 1e-9);
const down = (v: number): number => Math.floor(v + 1e-9);

export interface Lengths {
  mm: (v: number | string) => number;
  mmDown: (v: number | string) => number;
  g: (v: number | string) => number;
  gDown: (v: number | string) => number;
}

export function laneUnits(lane: LaneDocument): Lengths {
  const mm = MM_PER[lane.units.length]!,
    g = G_PER[lane.units.weight]!;
  return {
    mm: (v) => up(Number(v) * mm),
    mmDown: (v) => down(Number(v) * mm),
    g: (v) => up(Number(v) * g),
    gDown: (v) => down(Number(v) * g),
  };
}

/** Points i*a + j*b up to limit: where a guillotine cut of a and b boxes can fall. */
function rasterPoints(a: number, b: number, limit: number): number[] {
  const points = new Set<number>();
  for (let i = 0; i * a <= limit; i++) for (let j = 0; i * a + j * b <= limit; j++) points.add(i * a + j * b);
  return [...points].sort((x, y) => x - y);
}

/** The most a x b rectangles (turnable in the plane) on an L x W deck by guillotine cuts. */
export function bestGuillotineLayer(L: number, W: number, a: number, b: number): number {
  const xs = rasterPoints(Math.min(a, b), Math.max(a, b), L);
  const ys = rasterPoints(Math.min(a, b), Math.max(a, b), W);
  const floorX = (v: number): number => {
    let r = 0;
    for (const x of xs) if (x <= v) r = x;
    return r;
  };
  const floorY = (v: number): number => {
    let r = 0;
    for (const y of ys) if (y <= v) r = y;
    return r;
  };
  const memo = new Map<number, number>();
  const solve = (x: number, y: number): number => {
    const key = x * 1e6 + y;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let best = Math.max(Math.floor(x / a) * Math.floor(y / b), Math.floor(x / b) * Math.floor(y / a));
    for (const cut of xs) {
      if (cut <= 0 || cut > x / 2) continue;
      best = Math.max(best, solve(cut, y) + solve(floorX(x - cut), y));
    }
    for (const cut of ys) {
      if (cut <= 0 || cut > y / 2) continue;
      best = Math.max(best, solve(x, cut) + solve(x, floorY(y - cut)));
    }
    memo.set(key, best);
    return best;
  };
  return solve(floorX(L), floorY(W));
}

export interface SkuFacts {
  l: number;
  w: number;
  h: number;
  weightG: number;
  upright: boolean;
}

export interface PalletReference {
  code: string;
  perPallet: number;
  pallets: number;
  /** Deck and loaded height of a full pallet, its weight, in mm and g. */
  l: number;
  w: number;
  h: number;
  weightG: number;
}

/** Units per pallet: the best guillotine layer x layers over every allowed standing face, capped by max_weight. */
export function palletReference(units: Lengths, p: PalletTypeDocument, sku: SkuFacts, quantity: number): PalletReference | undefined {
  const deckL = units.mmDown(p.length),
    deckW = units.mmDown(p.width),
    deckH = units.mm(p.height),
    tare = units.g(p.weight);
  const room = units.mmDown(p.max_height) - deckH;
  const weightRoom = units.gDown(p.max_weight) - tare;
  const faces: [number, number, number][] = sku.upright
    ? [[sku.l, sku.w, sku.h]]
    : [
        [sku.l, sku.w, sku.h],
        [sku.l, sku.h, sku.w],
        [sku.w, sku.h, sku.l],
      ];
  let best: { n: number; h: number } | undefined;
  for (const [a, b, h] of faces) {
    const layers = Math.floor(room / h);
    if (layers < 1) continue;
    const n = bestGuillotineLayer(deckL, deckW, a, b) * layers;
    if (n > 0 && (!best || n > best.n)) best = { n, h };
  }
  if (!best) return undefined;
  const perPallet = Math.min(best.n, Math.floor(weightRoom / sku.weightG));
  if (perPallet < 1) return undefined;
  const layerCount = Math.ceil(perPallet / (best.n / Math.floor(room / best.h)));
  return {
    code: p.code,
    perPallet,
    pallets: Math.ceil(quantity / perPallet),
    l: deckL,
    w: deckW,
    h: deckH + layerCount * best.h,
    weightG: tare + perPallet * sku.weightG,
  };
}

/** Identical footprints on a container floor in lanes along its length, each lane one way round. */
export function floorCount(L: number, W: number, a: number, b: number, turnable: boolean): number {
  let best = 0;
  for (let k1 = 0; k1 * b <= W; k1++) {
    const rest = W - k1 * b;
    const k2 = turnable ? Math.floor(rest / a) : 0;
    best = Math.max(best, k1 * Math.floor(L / a) + k2 * Math.floor(L / b));
  }
  return best;
}

export interface StackFacts {
  l: number;
  w: number;
  h: number;
  weightG: number;
  turnable: boolean;
  /** Both double_stacked flags: two of them may stand one on the other. */
  stacks: boolean;
}

/** How many of these identical items one container of this code holds: floor, two tiers, payload. */
export function perContainer(code: string, item: StackFacts): number {
  const c = CONTAINER_CATALOG[code as keyof typeof CONTAINER_CATALOG];
  if (item.h > c.inner_mm.h) return 0;
  const tiers = item.stacks && 2 * item.h <= c.inner_mm.h ? 2 : 1;
  const floor = floorCount(c.inner_mm.l, c.inner_mm.w, item.l, item.w, item.turnable) * tiers;
  return Math.min(floor, Math.floor((c.payload_kg * 1000) / item.weightG));
}

export interface ContainerReference {
  containers: number;
  codes: string[];
  volumeM3: number;
}

/** The fewest containers, then the least volume, of the order's types (each up to its count) for n items of which a container of code k holds capacity(k). */
export function containerReference(
  order: readonly OrderContainer[],
  n: number,
  capacity: (code: string) => number,
): ContainerReference | undefined {
  let best: ContainerReference | undefined;
  const pick = new Array<number>(order.length).fill(0);
  const visit = (i: number): void => {
    if (i === order.length) {
      let held = 0,
        count = 0,
        volume = 0;
      const codes: string[] = [];
      order.forEach((c, k) => {
        const spec = CONTAINER_CATALOG[c.code];
        held += pick[k]! * capacity(c.code);
        count += pick[k]!;
        volume += (pick[k]! * spec.inner_mm.l * spec.inner_mm.w * spec.inner_mm.h) / 1e9;
        for (let j = 0; j < pick[k]!; j++) codes.push(c.code);
      });
      if (held < n) return;
      if (!best || count < best.containers || (count === best.containers && volume < best.volumeM3 - 1e-9))
        best = { containers: count, codes, volumeM3: volume };
      return;
    }
    for (let m = 0; m <= order[i]!.count; m++) {
      pick[i] = m;
      visit(i + 1);
    }
  };
  visit(0);
  return best;
}
