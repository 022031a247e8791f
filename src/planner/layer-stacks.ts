// Mixed pallets built the way a warehouse builds them: whole layers, each of one SKU's best
// guillotine layer (single-sku-pallet.ts), stacked on pallets so that the layers fill the load
// height. A layer that leaves a strip of the deck free takes a smaller SKU's cartons there, in
// columns exactly as tall as the layer, so the next layer stands on a flat top. Layers covering
// more of the deck go lower; a pallet whose layers would not stand wholly on the one below is not
// built (the candidate is dropped and the block search's pallets stand).
import type { PlacedBox } from '../plan-contract/plan-types.js';
import type { PalletTypeMm } from '../plan-contract/planner-input.js';
import type { RawPallet, SkuDemand } from './palletize.js';
import { stances, type SingleSkuPallet } from './single-sku-pallet.js';
import { guillotineLayer } from './layer-pattern.js';
import type { PlannerWasm } from './planner-wasm.js';
import { WireReader, wireInt } from './wire.js';

/** The knapsack runs once per distinct pallet; past this many layer kinds it is not worth it. */
const MAX_LAYER_KINDS = 48;

interface LayerKind {
  /** What stack() reads of the kind, as a key: the host's pattern and the filler's columns (and how many of them). */
  sig: string;
  host: SkuDemand;
  hostBoxes: PlacedBox[];
  filler?: SkuDemand;
  fillerBoxes: PlacedBox[];
  height: number;
  weightG: number;
  /** Deck area the layer's cartons cover: more goes lower. */
  cover: number;
  count: number;
}

export interface LayerStacks {
  pallets: RawPallet[];
  /** Units of each SKU not in a whole layer: for the block search. */
  rest: Map<SkuDemand, number>;
}

const area = (boxes: readonly PlacedBox[]): number => boxes.reduce((s, b) => s + b.l * b.w, 0);

/** The free strips beside a layer's cartons: past its far end, and beside it. */
function strips(boxes: readonly PlacedBox[], type: PalletTypeMm): { x: number; y: number; l: number; w: number }[] {
  const bx = Math.max(...boxes.map((b) => b.x + b.l));
  const by = Math.max(...boxes.map((b) => b.y + b.w));
  return [
    { x: bx, y: 0, l: type.l - bx, w: type.w },
    { x: 0, y: by, l: bx, w: type.w - by },
  ].filter((s) => s.l > 0 && s.w > 0);
}

/** Columns of `d` exactly `height` tall in the strips, as many as fit in a simple grid. */
function fillStrips(d: SkuDemand, height: number, free: ReturnType<typeof strips>): PlacedBox[] {
  let best: PlacedBox[] = [];
  for (const [a, b, h] of stances(d)) {
    const levels = Math.round(height / h);
    if (levels < 1 || levels * h !== height) continue;
    for (const [fl, fw] of [
      [a, b],
      [b, a],
    ] as const) {
      const boxes: PlacedBox[] = [];
      for (const s of free) {
        const nx = Math.floor(s.l / fl);
        const ny = Math.floor(s.w / fw);
        for (let i = 0; i < nx; i++)
          for (let j = 0; j < ny; j++)
            for (let k = 0; k < levels; k++) {
              boxes.push({ x: s.x + i * fl, y: s.y + j * fw, z: k * h, l: fl, w: fw, h });
            }
      }
      if (boxes.length > best.length) best = boxes;
    }
  }
  return best;
}

/** True when every carton of `upper` (based at z) stands wholly on tops of `lower` at z. */
function standsOn(upper: readonly PlacedBox[], lower: readonly PlacedBox[]): boolean {
  return upper.every((u) => {
    if (u.z === 0) return true;
    let supported = 0;
    for (const b of lower) {
      if (b.z + b.h !== u.z) continue;
      supported +=
        Math.max(0, Math.min(u.x + u.l, b.x + b.l) - Math.max(u.x, b.x)) * Math.max(0, Math.min(u.y + u.w, b.y + b.w) - Math.max(u.y, b.y));
    }
    return supported === u.l * u.w;
  });
}

/**
 * Whole layers of each SKU, strips filled with smaller SKUs, packed onto pallets of one type with as
 * little height left over as the knapsack finds. Undefined when it builds nothing or a pallet would
 * not stand.
 */
export function layerStacks(
  wasm: PlannerWasm,
  skus: readonly SkuDemand[],
  type: PalletTypeMm,
  single: readonly (SingleSkuPallet | undefined)[],
): LayerStacks | undefined {
  // Each SKU's layer on every face it may stand on: layer heights that add up to the load height
  // (40 + 40 + 40 + 30 + 30 + 25 of 206 cm) fill pallets that one height per SKU cannot.
  const options = skus.map((d, i) => (single[i] ? layerOptions(d, type) : []));
  const choices = combinations(
    options.map((o) => o.length),
    MAX_COMBINATIONS,
  );
  // no choice scores below the units' volume in pallets' load volumes: one that reaches it is not beaten
  const atLeast = volumeBound(skus, type);
  let best: (LayerStacks & { score: number }) | undefined;
  const memo = new StackMemo(skus);
  for (const choice of choices) {
    if (best && best.score <= atLeast) break;
    const patterns = new Map<SkuDemand, PlacedBox[]>();
    skus.forEach((d, i) => {
      if (choice[i]! >= 0) patterns.set(d, options[i]![choice[i]!]!);
    });
    // a choice whose pallets alone reach the best score cannot beat it (a tie keeps the earlier)
    const built = stackLayersOnPallets(wasm, skus, type, patterns, best ? best.score - 1 : Infinity, memo);
    if (!built) continue;
    // what the block search will need for the rest, counted by volume: enough to rank the choices
    const restVolume = skus.reduce((v, d) => v + (built.rest.get(d) ?? 0) * d.l * d.w * d.h, 0);
    const score = built.pallets.length + Math.ceil(restVolume / (type.l * type.w * type.loadHeight));
    if (!best || score < best.score) best = { ...built, score };
  }
  return best && { pallets: best.pallets, rest: best.rest };
}

/**
 * The least score any choice can have: each pallet carries at most its load volume (deck times load
 * height) and the rest counts its volume in load volumes, rounded up. Whole numbers of mm³, exact.
 */
function volumeBound(skus: readonly SkuDemand[], type: PalletTypeMm): number {
  const volume = skus.reduce((v, d) => v + d.units * d.l * d.w * d.h, 0);
  const perPallet = type.l * type.w * type.loadHeight;
  let bound = Math.floor(volume / perPallet);
  while (bound * perPallet < volume) bound++;
  while (bound > 0 && (bound - 1) * perPallet >= volume) bound--;
  return bound;
}

/** Layer choices tried at most: each is a knapsack run per distinct pallet. */
const MAX_COMBINATIONS = 81;

/** One layer per face the SKU may stand on (the best guillotine layer), densest first, at most three. */
function layerOptions(d: SkuDemand, type: PalletTypeMm): PlacedBox[][] {
  const out: { boxes: PlacedBox[]; density: number }[] = [];
  for (const [a, b, h] of stances(d)) {
    if (h > type.loadHeight || (type.l * type.w) / (a * b) > 2_000) continue;
    const spots = guillotineLayer(type.l, type.w, a, b);
    if (spots.length === 0 || spots.length > d.units) continue;
    out.push({ boxes: spots.map((s) => ({ ...s, z: 0, h })), density: spots.length / h });
  }
  return out.sort((p, q) => q.density - p.density).map((o) => o.boxes);
}

/** Every way to pick one option per SKU (-1 where it has none), densest choices first, at most max. */
function combinations(sizes: readonly number[], max: number): number[][] {
  let out: number[][] = [[]];
  for (const n of sizes) {
    const next: number[][] = [];
    for (const prefix of out) {
      if (n === 0) next.push([...prefix, -1]);
      for (let k = 0; k < n; k++) next.push([...prefix, k]);
    }
    out =
      next.length > max
        ? next
            .filter((c) => c.every((k) => k <= 0))
            .concat(next.filter((c) => c.some((k) => k > 0)))
            .slice(0, max)
        : next;
  }
  return out;
}

/**
 * What the choices of one layerStacks call have in common, worked out once: the SKUs largest first
 * (hosts) and smallest first (fillers), a host pattern's free strips and the columns a filler takes
 * there (the same pattern objects in every choice), the pallets stacked from the same layers in the
 * same order, and which layer stands on which. Names each array it meets by a number.
 */
class StackMemo {
  /** Largest cartons first, by volume (a stable sort: equal volumes keep the SKUs' order). */
  readonly order: SkuDemand[];
  readonly fillers: SkuDemand[];
  readonly rank: Map<SkuDemand, number>;
  private readonly ids = new Map<object, number>();
  readonly strips = new Map<PlacedBox[], ReturnType<typeof strips>>();
  readonly columns = new Map<PlacedBox[], Map<SkuDemand, PlacedBox[]>>();
  readonly stacks = new Map<string, RawPallet | null>();
  /** Whether a layer stands on another, by their signatures (standsOnLayer). */
  readonly stands = new Map<string, boolean>();
  constructor(skus: readonly SkuDemand[]) {
    const volume = (d: SkuDemand): number => d.l * d.w * d.h;
    this.order = [...skus].sort((a, b) => volume(b) - volume(a));
    this.fillers = [...this.order].reverse();
    this.rank = new Map(this.order.map((d, i) => [d, i]));
  }
  id(o: object): number {
    let id = this.ids.get(o);
    if (id === undefined) this.ids.set(o, (id = this.ids.size));
    return id;
  }
}

/** Undefined also once more than `mostPallets` are built: the choice cannot win. */
function stackLayersOnPallets(
  wasm: PlannerWasm,
  skus: readonly SkuDemand[],
  type: PalletTypeMm,
  patterns: Map<SkuDemand, PlacedBox[]>,
  mostPallets: number,
  memo: StackMemo,
): LayerStacks | undefined {
  const left = new Map(skus.map((d) => [d, d.units]));
  if (patterns.size === 0) return undefined;

  // Largest cartons host first; each host's strips take the smallest cartons that fit them before
  // those cartons make layers of their own (a strip is space no layer uses otherwise).
  const kinds: LayerKind[] = [];
  const { order, fillers, rank } = memo;
  for (const host of order) {
    const boxes = patterns.get(host);
    if (!boxes) continue;
    let layers = Math.floor(left.get(host)! / boxes.length);
    left.set(host, left.get(host)! - layers * boxes.length);
    const height = boxes[0]!.h;
    let free = memo.strips.get(boxes);
    if (!free) memo.strips.set(boxes, (free = strips(boxes, type)));
    let fills = memo.columns.get(boxes);
    if (!fills) memo.columns.set(boxes, (fills = new Map()));
    const hostSig = memo.id(boxes);
    for (const filler of fillers) {
      if (layers === 0 || free.length === 0) break;
      if (rank.get(filler)! <= rank.get(host)! || left.get(filler)! === 0) continue;
      let columns = fills.get(filler);
      if (!columns) fills.set(filler, (columns = fillStrips(filler, height, free)));
      if (columns.length === 0) continue;
      const columnsSig = `${hostSig}:${memo.id(columns)}`;
      let want = left.get(filler)!;
      const full = Math.min(layers, Math.floor(want / columns.length));
      if (full > 0) {
        kinds.push(kind(`${columnsSig}.${columns.length}`, host, boxes, filler, columns, full));
        layers -= full;
        want -= full * columns.length;
      }
      // a last partial fill keeps whole columns, so what stands on it is flat
      const perColumn = Math.round(height / columns[0]!.h);
      const part = columns.slice(0, Math.floor(want / perColumn) * perColumn);
      if (layers > 0 && part.length > 0 && want < columns.length) {
        kinds.push(kind(`${columnsSig}.${part.length}`, host, boxes, filler, part, 1));
        layers -= 1;
        want -= part.length;
      }
      left.set(filler, want);
    }
    if (layers > 0) kinds.push(kind(`${hostSig}`, host, boxes, undefined, [], layers));
  }
  if (kinds.length === 0 || kinds.length > MAX_LAYER_KINDS) return undefined;

  const pallets: RawPallet[] = [];
  for (;;) {
    const pick = fullestPallet(wasm, kinds, type);
    if (!pick) break;
    // the same pallet for half of what the layers allow, then a fresh look at what is left: far fewer
    // knapsack runs than one per pallet, and the mix follows what remains
    const times = Math.max(1, Math.floor(Math.min(...pick.map(([k, n]) => Math.floor(k.count / n))) / 2));
    const key = pick.map(([k, n]) => `${k.sig}*${n}`).join('|');
    let built = memo.stacks.get(key);
    if (built === undefined) memo.stacks.set(key, (built = stack(pick, type, memo) ?? null));
    if (!built) return undefined;
    for (let t = 0; t < times; t++) pallets.push(built);
    for (const [k, n] of pick) k.count -= n * times;
    if (pallets.length > mostPallets) return undefined;
  }
  // layers no pallet took (one too heavy for the pallet alone) go back to the block search
  for (const k of kinds) {
    if (k.count === 0) continue;
    left.set(k.host, left.get(k.host)! + k.count * k.hostBoxes.length);
    if (k.filler) left.set(k.filler, left.get(k.filler)! + k.count * k.fillerBoxes.length);
  }
  if (pallets.length === 0) return undefined;
  return { pallets, rest: left };
}

function kind(
  sig: string,
  host: SkuDemand,
  hostBoxes: PlacedBox[],
  filler: SkuDemand | undefined,
  fillerBoxes: PlacedBox[],
  count: number,
): LayerKind {
  return {
    sig,
    host,
    hostBoxes,
    fillerBoxes,
    count,
    ...(filler ? { filler } : {}),
    height: hostBoxes[0]!.h,
    weightG: hostBoxes.length * host.weightG + (filler ? fillerBoxes.length * filler.weightG : 0),
    cover: area(hostBoxes) + area(fillerBoxes.filter((b) => b.z === 0)),
  };
}

/**
 * The layers (kind, how many) that fill one pallet's load height best within its weight: the
 * knapsack in the planner's wasm (assembly/fullest-pallet.ts), which says how it chooses.
 */
function fullestPallet(wasm: PlannerWasm, kinds: readonly LayerKind[], type: PalletTypeMm): [LayerKind, number][] | undefined {
  const input = new Int32Array(3 + 3 * kinds.length);
  input[0] = wireInt(type.loadHeight);
  input[1] = wireInt(type.loadWeightG);
  input[2] = kinds.length;
  kinds.forEach((k, i) => {
    input[3 + 3 * i] = wireInt(k.height);
    input[4 + 3 * i] = wireInt(k.weightG);
    input[5 + 3 * i] = k.count;
  });
  const answer = new WireReader(wasm.run('fullestPallet', input));
  const picked = answer.next();
  if (picked === 0) return undefined;
  const pick: [LayerKind, number][] = [];
  for (let i = 0; i < picked; i++) pick.push([kinds[answer.next()]!, answer.next()]);
  return pick;
}

/** One pallet of the chosen layers, widest cover lowest; undefined if a layer would not stand. */
function stack(pick: readonly [LayerKind, number][], type: PalletTypeMm, memo: StackMemo): RawPallet | undefined {
  const layers = pick.flatMap(([k, n]) => Array.from({ length: n }, () => k)).sort((a, b) => b.cover - a.cover || b.weightG - a.weightG);
  for (let i = 1; i < layers.length; i++) if (!standsOnLayer(layers[i - 1]!, layers[i]!, memo)) return undefined;
  const boxes: RawPallet['boxes'] = [];
  let z = 0;
  for (const layer of layers) {
    for (const b of layer.hostBoxes) boxes.push({ d: layer.host, box: { ...b, z: z + b.z } });
    for (const b of layer.fillerBoxes) boxes.push({ d: layer.filler!, box: { ...b, z: z + b.z } });
    z += layer.height;
  }
  return { type, boxes };
}

/**
 * Whether a layer of `upper` stands wholly on one of `lower`: the same on every pallet that puts one
 * on the other, so worked out once per pair (most choices end at a first pallet that would not stand,
 * and the same pairs come back in them).
 */
function standsOnLayer(lower: LayerKind, upper: LayerKind, memo: StackMemo): boolean {
  const key = `${lower.sig}/${upper.sig}`;
  let stands = memo.stands.get(key);
  if (stands === undefined) {
    const tops = [...lower.hostBoxes, ...lower.fillerBoxes].filter((b) => b.z + b.h === lower.height);
    const bases = [...upper.hostBoxes, ...upper.fillerBoxes].filter((b) => b.z === 0).map((b) => ({ ...b, z: lower.height }));
    memo.stands.set(key, (stands = standsOn(bases, tops)));
  }
  return stands;
}
