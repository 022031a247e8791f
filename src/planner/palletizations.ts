// The ways worth trying to put an order's SKU units on the lane's pallet types: for each type, the
// best of (a) single-SKU layered pallets only, (b) full layered pallets and the block search on the
// rest, (c) the block search on everything; and, with several types, each SKU's full pallets on the
// type that gives it the least deck area per unit. plan-order.ts loads each into containers and keeps
// the one needing the fewest containers, then pallets, then the fewest off the default type.
import type { PalletTypeMm } from '../plan-contract/planner-input.js';
import type { PlannerWasm } from './planner-wasm.js';
import type { PlanLimits, Unplaced } from '../plan-contract/plan-types.js';
import {
  layeredPallets,
  type NoneWithin,
  type RawPallet,
  searchPallets,
  singleSkuPallet,
  type WasmPalletizing,
} from './pallet-building.js';
import { type OrderDemand, type SkuDemand, unfitReason } from './sku-demand.js';
import type { SingleSkuPallet } from './single-sku-pallet.js';
import { layerStacks } from './whole-layer-pallets.js';
import { palletLowerBound } from './pallet-lower-bound.js';

export interface Palletization {
  pallets: RawPallet[];
  /** Units no pallet of the candidate's types takes. */
  unplaced: Unplaced[];
  timeLimited: boolean;
  /** Pallets not of the lane's default type (the first): fewer wins a tie. */
  offDefault: number;
}

interface Option {
  pallets: RawPallet[];
  left: Map<SkuDemand, number>;
  timeLimited: boolean;
}

const sum = (values: Iterable<number>): number => {
  let total = 0;
  for (const n of values) total += n;
  return total;
};

const leftUnits = (o: Option): number => sum(o.left.values());

/** Fewest units left, then fewest pallets; a tie keeps the earlier (more regular) option. */
function better(a: Option, b: Option): Option {
  const la = leftUnits(a);
  const lb = leftUnits(b);
  return lb < la || (lb === la && b.pallets.length < a.pallets.length) ? b : a;
}

function offDefault(pallets: readonly RawPallet[], defaultCode: string): number {
  return pallets.reduce((n, p) => n + (p.type.code === defaultCode ? 0 : 1), 0);
}

function unplacedOf(left: Map<SkuDemand, number>, reasons: Map<SkuDemand, Unplaced['reason']>): Unplaced[] {
  const out: Unplaced[] = [];
  for (const [d, count] of left)
    if (count > 0) out.push({ kind: 'unit', ref: d.sku, count, reason: reasons.get(d) ?? 'too_large_for_pallet' });
  return out;
}

/** One block search on some units of each SKU, on one type; undefined when it was skipped or cannot win. */
type Search = (counts: readonly number[], type: PalletTypeMm, toBeat?: ToBeat) => WasmPalletizing | undefined;

/**
 * `searchEvery`: run the searches that cannot win too (see `blockSearches` below); only the test that
 * shows skipping them changes no plan sets it.
 */
export function palletizations(
  wasm: PlannerWasm,
  demand: OrderDemand,
  types: readonly PalletTypeMm[],
  limits: PlanLimits,
  seed: number,
  searchEvery = false,
): Palletization[] {
  const skus = demand.skus;
  if (types.length === 0 || skus.length === 0) return [];
  const defaultCode = types[0]!.code;
  const searches = blockSearches(wasm, skus, types, limits, seed, searchEvery);
  // layers only for SKUs with half a pallet's worth or more: smaller ones share pallets with others,
  // and many SKUs of a few cartons each would spend the time on layers no plan uses
  const worthLayers = (d: SkuDemand, t: PalletTypeMm): boolean =>
    2 * d.units * d.l * d.w * d.h >= t.l * t.w * t.loadHeight || 2 * d.units * d.weightG >= t.loadWeightG;
  const single = types.map((t) =>
    skus.map((d) => (unfitReason(d, t) === undefined && worthLayers(d, t) ? singleSkuPallet(d, t) : undefined)),
  );
  const out: Palletization[] = [];

  types.forEach((type, ti) => {
    const { best, reasons, timeLimited } = bestOnType(wasm, skus, type, single[ti]!, searches.search, searchEvery);
    out.push({
      pallets: best.pallets,
      unplaced: unplacedOf(best.left, reasons),
      timeLimited: timeLimited || searches.timeLimited(),
      offDefault: offDefault(best.pallets, defaultCode),
    });
  });

  if (types.length > 1) {
    const mixed = mixedTypes(skus, types, single, searches.search, defaultCode);
    if (mixed) out.push({ ...mixed, timeLimited: mixed.timeLimited || searches.timeLimited() });
  }
  return out;
}

/**
 * The block searches of one order's palletizations, and whether the clock had a say in them: a search
 * skipped for time, or one that lost at its time limit.
 *
 * Three searches per type, one more per type for the mixed-type candidate, each with its share of the
 * time left; past the limit the searches are skipped and the layered pallets stand. The same units on
 * the same type search alike: asked again (no full pallets took any), the answer is the one already
 * found (or that none within as many pallets or more was found). A search is also skipped when it
 * cannot win: the option to beat leaves no unit behind that the type could take, and the pallets built
 * beside the search plus the least the search needs (by volume and weight, pallet-lower-bound.ts)
 * already come to more than that option has. Options are compared in a fixed order, a tie keeping the
 * earlier, so the plan is the one the search would have given. One that runs is told the most pallets
 * worth building, and stops once it cannot stay within them.
 */
function blockSearches(
  wasm: PlannerWasm,
  skus: readonly SkuDemand[],
  types: readonly PalletTypeMm[],
  limits: PlanLimits,
  seed: number,
  searchEvery: boolean,
): { search: Search; timeLimited: () => boolean } {
  const deadline = performance.now() + limits.timeLimitMs;
  let searchesLeft = types.length * 3 + (types.length > 1 ? types.length : 0);
  let skipped = false;
  let ran = false;
  let timeLimitedLosers = false;
  const found = new Map<string, WasmPalletizing | NoneWithin>();
  const search: Search = (counts, type, toBeat) => {
    const key = `${type.code}:${counts.join()}`;
    searchesLeft--;
    const bounded = toBeat !== undefined && !searchEvery;
    if (bounded && cannotWin(toBeat, palletLowerBound(demandOf(skus, counts), [type]))) return undefined;
    const most = (bounded ? mostWorthBuilding(toBeat) : undefined) ?? -1;
    const known = found.get(key);
    if (known && !('noneWithin' in known)) return known;
    if (known && most >= 0 && most <= known.noneWithin) return undefined;
    const left = deadline - performance.now();
    // the first search always runs: the block search on everything is today's plan, the fallback
    if (left <= 0 && ran) {
      skipped = true;
      return undefined;
    }
    ran = true;
    const result = searchPallets(
      wasm,
      skus,
      counts,
      type,
      { ...limits, timeLimitMs: Math.max(1, left / (searchesLeft + 1)) },
      seed,
      most,
      !searchEvery,
    );
    found.set(key, result);
    if ('noneWithin' in result) {
      // it lost, as the search run to its end would have: the plan says a search met the limit all the same
      timeLimitedLosers ||= result.timeLimited;
      return undefined;
    }
    return result;
  };
  return { search, timeLimited: () => skipped || timeLimitedLosers };
}

/**
 * The best plan of one pallet type for the units it can take: every unit layered, the search on
 * everything, full layered pallets and the search on the rest, layer stacks and the search on what they
 * leave; on a tie the more regular, in that order.
 */
function bestOnType(
  wasm: PlannerWasm,
  skus: readonly SkuDemand[],
  type: PalletTypeMm,
  layers: readonly (SingleSkuPallet | undefined)[],
  search: Search,
  searchEvery: boolean,
): { best: Option; reasons: Map<SkuDemand, Unplaced['reason']>; timeLimited: boolean } {
  const fit = skus.map((d) => unfitReason(d, type) === undefined);
  const reasons = new Map<SkuDemand, Unplaced['reason']>();
  const unfit = new Map<SkuDemand, number>();
  skus.forEach((d, i) => {
    if (fit[i]) return;
    unfit.set(d, d.units);
    reasons.set(d, unfitReason(d, type) ?? 'too_large_for_pallet');
  });
  // cartons too small to list by the layer go to the block search only
  const layerable = skus.every((_, i) => !fit[i] || layers[i]);
  const layered: Option | undefined = layerable
    ? { pallets: skus.flatMap((d, i) => allLayered(d, type, layers[i])), left: unfit, timeLimited: false }
    : undefined;
  // a SKU whose units bear only a low stack has no full pallets of its own: its units go on top of others'
  const ownFull = (i: number): SingleSkuPallet | undefined => (layers[i]?.lowByBearing ? undefined : layers[i]);
  const full = skus.flatMap((d, i) =>
    ownFull(i) ? layeredPallets(d, type, ownFull(i)!, Math.floor(d.units / ownFull(i)!.perPallet)) : [],
  );
  // the search on everything first: it is the fallback when time runs short
  const all = search(
    skus.map((d, i) => (fit[i] ? d.units : 0)),
    type,
  );
  // on a tie the more regular wins: layered only, then full layered pallets first; the first
  // search always runs, so there is at least one option
  let best = layered ?? { pallets: [], left: new Map(skus.map((d) => [d, d.units])), timeLimited: false };
  const allOption = all && { pallets: all.pallets, left: merged(unfit, all.left), timeLimited: all.timeLimited };
  const restCounts = skus.map((d, i) => (!fit[i] ? 0 : ownFull(i) ? d.units % ownFull(i)!.perPallet : d.units));
  // the rest's plan is weighed against the layered one first, and stays on a tie with the search on everything
  const rest = search(restCounts, type, allOption && { option: allOption, unfit, built: full.length, tieWins: true });
  if (rest) best = better(best, { pallets: [...full, ...rest.pallets], left: merged(unfit, rest.left), timeLimited: rest.timeLimited });
  if (allOption) best = better(best, allOption);
  // whole layers of each SKU stacked into mixed pallets, the rest to the block search
  // the stacks and the search on what they leave win only with every unit of the type on a
  // pallet, in fewer than the option to beat: no more than the bound of all of them must be room
  const fitCounts = skus.map((d, i) => (fit[i] ? d.units : 0));
  const stacksMayWin =
    searchEvery || !cannotWin({ option: best, unfit, built: 0, tieWins: false }, palletLowerBound(demandOf(skus, fitCounts), [type]));
  const stacks = stacksMayWin
    ? layerStacks(
        wasm,
        skus.filter((_, i) => fit[i]),
        type,
        layers.filter((_, i) => fit[i]),
      )
    : undefined;
  const stackRest =
    stacks &&
    search(
      skus.map((d) => stacks.rest.get(d) ?? 0),
      type,
      { option: best, unfit, built: stacks.pallets.length, tieWins: false },
    );
  if (stacks && stackRest)
    best = better(best, {
      pallets: [...stacks.pallets, ...stackRest.pallets],
      left: merged(unfit, stackRest.left),
      timeLimited: stackRest.timeLimited,
    });
  const timeLimited = (all?.timeLimited ?? false) || (rest?.timeLimited ?? false) || (stackRest?.timeLimited ?? false);
  return { best, reasons, timeLimited };
}

/** Every unit on single-SKU layered pallets, the last one partly filled. */
function allLayered(d: SkuDemand, type: PalletTypeMm, pallet: SingleSkuPallet | undefined): RawPallet[] {
  if (!pallet) return [];
  const per = pallet.perPallet;
  const part = d.units % per;
  return [...layeredPallets(d, type, pallet, Math.floor(d.units / per)), ...(part > 0 ? layeredPallets(d, type, pallet, 1, part) : [])];
}

/** The option a search must beat, with the units no pallet of the type takes and the pallets built beside the search. */
interface ToBeat {
  option: Option;
  unfit: Map<SkuDemand, number>;
  built: number;
  /** As many pallets as the option wins too (the search's plan is weighed against it from the other side). */
  tieWins: boolean;
}

/**
 * The most pallets a search's plan may have and still win, when the option leaves no unit behind
 * that the type could take (a plan leaving any loses, and one leaving none wins only on pallets);
 * undefined when the option leaves more, so a plan of any size could win on units.
 */
function mostWorthBuilding({ option, unfit, built, tieWins }: ToBeat): number | undefined {
  return leftUnits(option) === sum(unfit.values()) ? option.pallets.length - built - (tieWins ? 0 : 1) : undefined;
}

/** Whether an option of `built` pallets and a search needing at least `searchBound` cannot beat toBeat.option (see search). */
function cannotWin(toBeat: ToBeat, searchBound: number): boolean {
  const most = mostWorthBuilding(toBeat);
  return most !== undefined && searchBound > most;
}

/** The SKUs with these unit counts, as pallet-lower-bound.ts takes them. */
function demandOf(skus: readonly SkuDemand[], counts: readonly number[]): OrderDemand {
  const chosen = skus.map((d, i) => ({ ...d, units: counts[i]! }));
  return { skus: chosen, unplaced: [], units: sum(counts) };
}

function merged(a: Map<SkuDemand, number>, b: Map<SkuDemand, number>): Map<SkuDemand, number> {
  const m = new Map(a);
  for (const [d, n] of b) m.set(d, (m.get(d) ?? 0) + n);
  return m;
}

/**
 * Each SKU's full pallets on the type giving it the least deck area per unit (the container floor
 * it takes), the rest by the block search on one type (the best of each), or layered on its own
 * type where that type does not take it. Undefined when every SKU prefers the same type.
 */
function mixedTypes(
  skus: readonly SkuDemand[],
  types: readonly PalletTypeMm[],
  single: (SingleSkuPallet | undefined)[][],
  search: Search,
  defaultCode: string,
): Palletization | undefined {
  const choice = skus.map((_, i) => {
    let best = -1;
    types.forEach((t, ti) => {
      const s = single[ti]![i];
      if (!s) return;
      const area = (t.l * t.w) / s.perPallet;
      if (best < 0 || area < (types[best]!.l * types[best]!.w) / single[best]![i]!.perPallet) best = ti;
    });
    return best;
  });
  const placeable = choice.filter((c) => c >= 0);
  if (placeable.every((c) => c === placeable[0])) return undefined;
  const fitsSome = skus.map((d) => types.some((t) => unfitReason(d, t) === undefined));
  const unfit = new Map<SkuDemand, number>();
  const reasons = new Map<SkuDemand, Unplaced['reason']>();
  skus.forEach((d, i) => {
    if (fitsSome[i]) return;
    unfit.set(d, d.units);
    reasons.set(d, unfitReason(d, types[0]!) ?? 'too_large_for_pallet');
  });
  if (skus.some((_, i) => fitsSome[i] && choice[i]! < 0)) return undefined; // cartons too small for layers: the per-type candidates cover them
  // as on one type: a SKU whose units bear only a low stack has no full pallets of its own
  const perFull = (i: number): number => {
    const c = choice[i]!;
    return c < 0 || single[c]![i]!.lowByBearing ? 0 : single[c]![i]!.perPallet;
  };
  const full = skus.flatMap((d, i) =>
    perFull(i) > 0 ? layeredPallets(d, types[choice[i]!]!, single[choice[i]!]![i]!, Math.floor(d.units / perFull(i))) : [],
  );
  const layered: Option = {
    pallets: skus.flatMap((d, i) => (choice[i]! < 0 ? [] : allLayered(d, types[choice[i]!]!, single[choice[i]!]![i]))),
    left: unfit,
    timeLimited: false,
  };
  let best = layered;
  let timeLimited = false;
  types.forEach((type, ti) => {
    const counts = skus.map((d, i) => (choice[i]! >= 0 && single[ti]![i] ? (perFull(i) > 0 ? d.units % perFull(i) : d.units) : 0));
    // a remainder this type cannot take stays on a layered pallet of its own type
    const own = skus.flatMap((d, i) => {
      const c = choice[i]!;
      if (c < 0 || single[ti]![i]) return [];
      const part = perFull(i) > 0 ? d.units % perFull(i) : d.units;
      return part > 0 ? layeredPallets(d, types[c]!, single[c]![i]!, 1, part) : [];
    });
    const rest = search(counts, type, { option: best, unfit, built: full.length + own.length, tieWins: false });
    if (!rest) return;
    timeLimited ||= rest.timeLimited;
    best = better(best, { pallets: [...full, ...own, ...rest.pallets], left: merged(unfit, rest.left), timeLimited: rest.timeLimited });
  });
  return {
    pallets: best.pallets,
    unplaced: unplacedOf(best.left, reasons),
    timeLimited,
    offDefault: offDefault(best.pallets, defaultCode),
  };
}
