// Plans an order: its SKU units onto pallets, then pallets, pre-built pallets and loose boxes
// into its containers. Runs inside a planner worker (src/planning/load-planner.ts); same input and seed give
// the same plan unless the time limit cuts a search short (metrics.time_limited).
import { loadOrderContainers, type LoadResult } from './container-loading.js';
import { finishPallets } from './pallet-building.js';
import { orderDemand } from './sku-demand.js';
import { type Palletization, palletizations } from './palletizations.js';
import { containerLowerBound } from './container-lower-bound.js';
import { palletLowerBound } from './pallet-lower-bound.js';
import { noSearchExits, type PlannerWasm } from './planner-wasm.js';
import { SEARCH_EXITS } from './wasm-wire.js';
import { cacheCounts, cacheCountsSince } from './planner-caches.js';
import type { OrderPlan, PlanExit, PlanLimits, PlannedPallet, Unplaced } from '../plan-contract/plan-types.js';
import type { PlanOrderInput } from '../plan-contract/planner-input.js';

/** Greedy placements per search; sized so a large order plans well within the time limit. */
export const DEFAULT_EFFORT = 4000;
export const DEFAULT_SEED = 1;
/** Units one plan takes: far above a container load of cartons, and the plan's memory stays bounded. */
export const MAX_UNITS_IN_ONE_PLAN = 1_000_000;

interface Candidate {
  pallets: PlannedPallet[];
  unitsUnplaced: Unplaced[];
  loaded: LoadResult;
  offDefault: number;
  timeLimited: boolean;
}

/** What a candidate leaves behind, counted in units (a pallet left counts its units). */
function leftBehind(c: Candidate): number {
  const onPallet = new Map(c.pallets.map((p) => [p.pallet_index, p.units.length]));
  return (
    c.unitsUnplaced.reduce((s, u) => s + u.count, 0) +
    c.loaded.unplaced.reduce((s, u) => s + (u.kind === 'pallet' ? (onPallet.get(u.ref) ?? 1) : u.count), 0)
  );
}

/** Least left behind, then fewest containers, then fewest pallets, then fewest off the default type. */
function score(c: Candidate): number[] {
  return [leftBehind(c), c.loaded.containers.length, c.pallets.length, c.offDefault];
}

function isBetter(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/**
 * Nothing left behind, the fewest containers and pallets any plan can have, none off the default
 * type, every container within its centre-of-gravity limits: no candidate can score better.
 */
function atLowerBound(c: Candidate, containerBound: number, palletBound: number): boolean {
  return (
    leftBehind(c) === 0 &&
    c.loaded.containers.length <= containerBound &&
    c.pallets.length <= palletBound &&
    c.offDefault === 0 &&
    c.loaded.containers.every((k) => k.within_cog_limits)
  );
}

/**
 * Each palletization loaded into the order's containers, in turn, the best kept: until one is at the
 * lower bound (as good as any: the rest are not loaded), or the time limit passes with one in hand
 * (the rest are dropped, and the plan says time_limited).
 */
function loadCandidates(
  wasm: PlannerWasm,
  input: PlanOrderInput,
  options: readonly Palletization[],
  limits: PlanLimits,
  seed: number,
  t0: number,
  bounds: { containerBound: number; palletBound: number },
): { best: Candidate; timeLimited: boolean; boundReached: boolean } {
  let best: Candidate | undefined;
  let timeLimited = false;
  let boundReached = false;
  options.forEach((option, k) => {
    if (boundReached) return;
    if (best && performance.now() - t0 > limits.timeLimitMs) {
      timeLimited = true;
      return;
    }
    const pallets = finishPallets(option.pallets);
    const remaining = Math.max(1, (limits.timeLimitMs - (performance.now() - t0)) / (options.length - k));
    const loaded = loadOrderContainers(
      wasm,
      { containers: input.containers, pallets, preBuilts: input.preBuilts, looseBoxes: input.looseBoxes, road: input.road },
      { ...limits, timeLimitMs: remaining },
      seed,
    );
    const candidate = {
      pallets,
      unitsUnplaced: option.unplaced,
      loaded,
      offDefault: option.offDefault,
      timeLimited: option.timeLimited || loaded.timeLimited,
    };
    timeLimited ||= candidate.timeLimited;
    if (!best || isBetter(score(candidate), score(best))) best = candidate;
    boundReached = atLowerBound(best, bounds.containerBound, bounds.palletBound);
  });
  // the first option is always loaded: nothing is in hand before it
  return { best: best!, timeLimited, boundReached };
}

export function planOrder(wasm: PlannerWasm, input: PlanOrderInput, limits: PlanLimits): OrderPlan {
  const t0 = performance.now();
  const exitsBefore = { ...wasm.searchExits };
  const cachesBefore = cacheCounts();
  const seed = (input.seed ?? DEFAULT_SEED) >>> 0;
  const types = input.palletCode === undefined ? input.palletTypes : input.palletTypes.filter((p) => p.code === input.palletCode);
  const demand = orderDemand(input.items, input.lines);
  if (demand.units > MAX_UNITS_IN_ONE_PLAN) {
    throw new Error(`the order has ${demand.units} units; the load planner takes at most ${MAX_UNITS_IN_ONE_PLAN} in one plan`);
  }
  const noType: Unplaced[] =
    types.length > 0 ? [] : demand.skus.map((d) => ({ kind: 'unit', ref: d.sku, count: d.units, reason: 'no_pallet_type' }));
  // palletizing gets most of the time; loading works on far fewer, larger items
  const options = palletizations(wasm, demand, types, { ...limits, timeLimitMs: limits.timeLimitMs * 0.6 }, seed);
  if (options.length === 0) options.push({ pallets: [], unplaced: [], timeLimited: false, offDefault: 0 });
  const palletBound = palletLowerBound(demand, types);
  const containerBound = containerLowerBound(input);
  const {
    best: chosen,
    timeLimited,
    boundReached,
  } = loadCandidates(wasm, input, options, limits, seed, t0, { containerBound, palletBound });
  const searchExits = noSearchExits();
  for (const kind of SEARCH_EXITS) searchExits[kind] = wasm.searchExits[kind] - exitsBefore[kind];
  const exit: PlanExit = boundReached ? 'lower_bound' : timeLimited ? 'time_limit' : 'searched';
  const unitsPalletized = chosen.pallets.reduce((s, p) => s + p.units.length, 0);
  return {
    pallets: chosen.pallets,
    containers: chosen.loaded.containers,
    unplaced: [...demand.unplaced, ...noType, ...chosen.unitsUnplaced, ...chosen.loaded.unplaced],
    metrics: {
      planner_ms: performance.now() - t0,
      pallet_count: chosen.pallets.length,
      container_count: chosen.loaded.containers.length,
      pallet_lower_bound: palletBound,
      container_lower_bound: containerBound,
      units: demand.units,
      units_palletized: unitsPalletized,
      time_limited: timeLimited,
      exit,
      search_exits: searchExits,
      caches: cacheCountsSince(cachesBefore),
    },
  };
}
