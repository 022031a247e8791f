// Mixed pallets built the way a warehouse builds them: whole layers, each of one SKU's best
// guillotine layer (single-sku-pallet.ts), stacked on pallets so that the layers fill the load
// height. A layer that leaves a strip of the deck free takes a smaller SKU's cartons there, in
// columns exactly as tall as the layer, so the next layer stands on a flat top. Layers covering
// more of the deck go lower; a pallet whose layers would not stand wholly on the one below is not
// built (the candidate is dropped and the block search's pallets stand).
import type { PlacedBox } from '../plan-contract/plan-types.js';
import type { PalletTypeMm } from '../plan-contract/planner-input.js';
import type { RawPallet } from './pallet-building.js';
import type { SkuDemand } from './sku-demand.js';
import { stances, type SingleSkuPallet } from './single-sku-pallet.js';
import { guillotineLayer } from './layer-pattern.js';
import type { PlannerWasm } from './planner-wasm.js';
import { readLayerStacksAnswer, writeLayerStacksInput } from './wasm-wire.js';

export interface LayerStacks {
  pallets: RawPallet[];
  /** Units of each SKU not in a whole layer: for the block search. */
  rest: Map<SkuDemand, number>;
}

/**
 * Whole layers of each SKU, strips filled with smaller SKUs, packed onto pallets of one type with as
 * little height left over as the knapsack finds. Undefined when it builds nothing or a pallet would
 * not stand. The layer patterns are found here; the choices are tried by the planner's layerStacks
 * job (assembly/layer-stacks.ts), which says how.
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
  const input = writeLayerStacksInput({
    deckL: type.l,
    deckW: type.w,
    loadHeight: type.loadHeight,
    loadWeightG: type.loadWeightG,
    maxCartons: MAX_LAYER_CARTONS,
    atLeast: volumeBound(skus, type),
    skus: skus.map((d, i) => ({
      l: d.l,
      w: d.w,
      h: d.h,
      upright: d.upright,
      weightG: d.weightG,
      maxLoadG: d.maxLoadG,
      units: d.units,
      patterns: options[i]!.map((boxes) => ({ boxes })),
    })),
    choices: choices.map((patterns) => ({ patterns })),
  });
  const { built } = readLayerStacksAnswer(wasm.run('layerStacks', input));
  if (built === undefined) return undefined;
  const pallets: RawPallet[] = [];
  for (const { times, boxes } of built.pallets) {
    const pallet = { type, boxes: boxes.map((box) => ({ d: skus[box.type]!, box })) };
    for (let t = 0; t < times; t++) pallets.push(pallet);
  }
  return { pallets, rest: new Map(skus.map((d, i) => [d, built.rest[i]!])) };
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

/**
 * Cartons in a layer at most: a host's pattern, by deck area, and a filler's columns in the strips.
 * Smaller cartons are left to the block search (a 1 mm filler once made so many boxes that the planner ran out of memory).
 */
const MAX_LAYER_CARTONS = 2_000;

/** Layer choices tried at most: each is a knapsack run per distinct pallet. */
const MAX_COMBINATIONS = 81;

/** One layer per face the SKU may stand on (the best guillotine layer), densest first, at most three. */
function layerOptions(d: SkuDemand, type: PalletTypeMm): PlacedBox[][] {
  const out: { boxes: PlacedBox[]; density: number }[] = [];
  for (const [a, b, h] of stances(d)) {
    if (h > type.loadHeight || (type.l * type.w) / (a * b) > MAX_LAYER_CARTONS) continue;
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
