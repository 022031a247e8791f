// Palletizing: SKU units onto pallets of one type, as few pallets as possible, single-SKU
// pallets and whole layers of one SKU where that costs no pallet, heavy units low.
import { Bin, Cargo, cargoOf } from './cargo';
import { Blocks, generateBlocks } from './blocks';
import { BlockSearch, deadlineHit, SearchLimits, searchLimitsOf, SPACE_CORNER, SPACE_LOWEST } from './block-search';
import { LoadState, writeBoxes } from './load-state';
import { nowMs } from './clock';
import { InputReader, OutputWriter } from './wire';
import { EXIT_EFFORT, EXIT_TIME_LIMIT, PALLETIZE_ANSWER_DEADLINE_HIT_AT, PALLETIZE_ANSWER_PALLETS_AT, readPalletizeInput } from './wire-layout';

const MAX_BLOCKS: i32 = 3000;
/** Single-SKU pallets: few block kinds, a narrow beam finds their best. */
const BEAM_WIDTH: i32 = 4;
/** Mixed pallets: many SKUs to interleave, worth a wider beam. */
const MIXED_BEAM_WIDTH: i32 = 16;
/** The last pallet's wider search: a pallet saved is worth the effort. */
const WIDE_BEAM_WIDTH: i32 = 16;
const LAST_PALLET_EFFORT: f64 = 4;
/** Weight per volume raises a block's score by up to this share: heavy units go first, low. */
const DENSITY_BONUS: f64 = 0.25;
/** A single-SKU pallet filled less than this leaves its units to the mixed pallets. */
const SINGLE_SKU_FILL: f64 = 0.85;
/** The all-mixed plan values a unit's volume up to this share more the bigger the unit. */
const BIG_UNIT_BONUS: f64 = 0.1;
/** The all-mixed plan's effort per search, relative to the single-SKU-first plan's. */
const ALL_MIXED_EFFORT: f64 = 1.5;
/** The fit cache of a palletizing search: 4,096 slots (2,048 space sizes), 16 blocks listed per size. */
const PALLET_FIT_CACHE_BITS: i32 = 12;
const PALLET_FIT_LISTED: i32 = 16;

/**
 * The job's input and answer: wire-layout.ts PalletizeInput and PalletizeAnswer (the pallets the plan
 * takes, then the pallets built, in planner order, AP1 first). With a bound (mostPallets), an answer
 * of more pallets than it, the pallets built partial, says no plan within it was found: the host has
 * a plan that beats any larger one.
 */
export function palletizeJob(input: InputReader): StaticArray<i32> {
  const start = nowMs();
  const job = readPalletizeInput(input);
  const bin = new Bin(job.deckL, job.deckW, job.loadHeight, <f64>job.loadWeightG);
  const limits = searchLimitsOf(start, job.limits);
  const seed = <u32>job.seed;
  const most = job.mostPallets;
  const prune = job.prune;
  const cargo = cargoOf(job.cargo);
  limits.maxWidth = BEAM_WIDTH;
  const searches = new Searches(cargo, bin);
  // Single-SKU pallets first, or every unit on mixed pallets: the latter can fill the gaps an
  // awkward SKU leaves with other SKUs' units. Fewer pallets wins; a tie keeps the single-SKU plan.
  // Past the host's bound no plan is worth building: a build stops once it cannot stay within it.
  const weakTops = weakFirst(cargo, bin, null);
  const singleFirst = buildPallets(cargo, bin, limits, seed, true, weakTops, searches, prune, most >= 0 ? most + 1 : i32.MAX_VALUE);
  // Big units valued a little higher go on the early pallets, leaving small ones to fill gaps
  // on the later pallets; worth more effort, as this plan is the one that saves pallets.
  let maxUnitVolume = 0.0;
  for (let t = 0; t < cargo.n; t++) maxUnitVolume = max(maxUnitVolume, cargo.volumeOf(t));
  const bigFirst = new StaticArray<f64>(cargo.n);
  for (let t = 0; t < cargo.n; t++) bigFirst[t] = 1 + BIG_UNIT_BONUS * cargo.volumeOf(t) / max(1.0, maxUnitVolume);
  const mixedLimits = new SearchLimits();
  mixedLimits.deadlineMs = limits.deadlineMs;
  mixedLimits.effort = scaledEffort(limits.effort, ALL_MIXED_EFFORT);
  mixedLimits.maxWidth = limits.maxWidth;
  // it wins only with fewer pallets: it stops once it cannot end with fewer than the single-SKU plan
  // (the same pick), and the single-SKU plan ends within the bound or stops at one past it
  const palletsAt = PALLETIZE_ANSWER_PALLETS_AT;
  const allMixed = buildPallets(cargo, bin, mixedLimits, seed, false, weakFirst(cargo, bin, bigFirst), searches, prune, singleFirst.data[palletsAt]);
  const pick = allMixed.data[palletsAt] < singleFirst.data[palletsAt] ? allMixed : singleFirst;
  pick.set(PALLETIZE_ANSWER_DEADLINE_HIT_AT, deadlineHit ? 1 : 0);
  return pick.finish();
}

/** A unit that cannot carry a column of itself up to the load height is valued this much more. */
const WEAK_UNIT_VALUE: f64 = 1.5;

/**
 * With limits, units too weak to carry a column of their own are worth more on a pallet: each pallet
 * then takes some on top of the strong ones, rather than the strong units filling the pallets and
 * the weak ones left to pallets of their own a layer or two high. Unchanged (`values`) without.
 */
function weakFirst(cargo: Cargo, bin: Bin, values: StaticArray<f64> | null): StaticArray<f64> | null {
  if (!cargo.bearing) return values;
  const out = new StaticArray<f64>(cargo.n);
  for (let t = 0; t < cargo.n; t++) {
    const base = values !== null ? values[t] : 1.0;
    const column = bin.h / max(1, min(cargo.l[t], min(cargo.w[t], cargo.h[t])));
    out[t] = cargo.bearableLayers(t) < column ? base * WEAK_UNIT_VALUE : base;
  }
  return out;
}

/**
 * The answer of one build (PalletizeAnswer, its deadline flag left to the job). Stops unfinished, the
 * pallets then saying stopAt and the pallets built partial, once it cannot end below stopAt pallets:
 * at stopAt pallets with units left, or when the pallets built and the least the units left need
 * (palletsAtLeast) come to stopAt.
 */
function buildPallets(
  cargo: Cargo, bin: Bin, limits: SearchLimits, seed: u32, singleSkuFirst: bool, valuePerVolume: StaticArray<f64> | null,
  searches: Searches, prune: bool, stopAt: i32,
): OutputWriter {
  let units = 0;
  for (let t = 0; t < cargo.n; t++) units += cargo.count[t];
  const out = new OutputWriter(16 + units * 8);
  out.reserve(); // the deadline flag
  const palletsAt = out.reserve();
  const builtAt = out.reserve();
  let pallets = 0;
  if (prune && cannotReach(cargo, bin, cargo.count, 0, stopAt)) {
    out.set(palletsAt, stopAt);
    return out;
  }
  const counts = new StaticArray<i32>(cargo.n);
  for (let t = 0; t < cargo.n; t++) counts[t] = cargo.count[t];

  // A SKU with more than a pallet's worth gets whole pallets of its own.
  const one = new StaticArray<i32>(cargo.n);
  for (let t = 0; t < cargo.n && singleSkuFirst; t++) {
    if (counts[t] <= 0) continue;
    const volume = <f64>counts[t] * cargo.volumeOf(t);
    const weight = <f64>counts[t] * <f64>cargo.weight[t];
    if (volume < 0.6 * bin.volume() && weight < bin.maxWeight) continue;
    for (let u = 0; u < cargo.n; u++) one[u] = u == t ? counts[t] : 0;
    const search = searches.fresh(generateBlocks(cargo, bin, one, MAX_BLOCKS, DENSITY_BONUS, seed), limits);
    const full = search.run(search.root(one));
    const perPallet = counts[t] - full.rem[t];
    if (perPallet <= 0 || full.rem[t] == 0) continue;
    // a poorly filled single-SKU pallet would cost pallets: its units go to the mixed pallets,
    // which other SKUs' units fill up (fewer pallets comes before single-SKU pallets)
    const weightFull = full.weight >= 0.97 * bin.maxWeight;
    if (!weightFull && full.volume < SINGLE_SKU_FILL * bin.volume()) continue;
    const copies = counts[t] / perPallet;
    for (let k = 0; k < copies; k++) writeBoxes(out, full, search.blocks);
    pallets += copies;
    counts[t] -= copies * perPallet;
  }

  // The rest: mixed pallets, each loaded as full as the search gets it.
  let left = 0;
  for (let t = 0; t < cargo.n; t++) left += counts[t];
  if (left > 0) {
    const blocks = generateBlocks(cargo, bin, counts, MAX_BLOCKS, DENSITY_BONUS, seed, valuePerVolume);
    const search = searches.fresh(blocks, limits);
    const mixed = new SearchLimits();
    mixed.deadlineMs = limits.deadlineMs;
    mixed.effort = limits.effort;
    mixed.maxWidth = MIXED_BEAM_WIDTH;
    const wide = new SearchLimits();
    wide.deadlineMs = limits.deadlineMs;
    wide.effort = scaledEffort(limits.effort, LAST_PALLET_EFFORT);
    wide.maxWidth = WIDE_BEAM_WIDTH;
    const lastPallet = new LoadState(search.spCap, cargo.n, left + 1, cargo.bearing);
    const previous = new LoadState(search.spCap, cargo.n, left + 1, cargo.bearing);
    const previousUnits = new StaticArray<i32>(cargo.n);
    let blocksFresh = true;
    while (left > 0) {
      // The previous pallet again while its units last: the search found it among more units,
      // so it seldom finds a better one; repeating it saves the search, and identical pallets
      // are easier to build.
      let again = previous.np > 0;
      for (let t = 0; t < cargo.n && again; t++) if (previousUnits[t] > counts[t]) again = false;
      if (!again) {
        // Blocks of the units left: with fewer SKUs and units, the block cap leaves each SKU
        // longer rows and taller stacks, which fill the later pallets better.
        if (!blocksFresh) {
          search.setBlocks(generateBlocks(cargo, bin, counts, MAX_BLOCKS, DENSITY_BONUS, seed, valuePerVolume));
        }
        blocksFresh = false;
        search.limits = mixed;
        search.restart();
        let best = search.run(search.root(counts));
        if (best.np == 0) break; // nothing left fits a pallet: the host reports those units
        let leftVolume: f64 = 0;
        for (let t = 0; t < cargo.n; t++) leftVolume += <f64>best.rem[t] * cargo.volumeOf(t);
        // everything left might go on this one pallet: worth wider searches, to save a pallet
        if (leftVolume > 0 && best.volume + leftVolume <= bin.volume()) best = lastPalletSearches(search, counts, best, wide, lastPallet);
        previous.copyFrom(best);
        for (let t = 0; t < cargo.n; t++) previousUnits[t] = counts[t] - best.rem[t];
      }
      writeBoxes(out, previous, search.blocks);
      pallets++;
      left = 0;
      for (let t = 0; t < cargo.n; t++) {
        counts[t] -= previousUnits[t];
        left += counts[t];
      }
      if (left > 0 && (pallets >= stopAt || (prune && cannotReach(cargo, bin, counts, pallets, stopAt)))) {
        out.set(builtAt, pallets);
        out.set(palletsAt, stopAt);
        return out;
      }
    }
  }
  out.set(builtAt, pallets);
  out.set(palletsAt, pallets);
  return out;
}

/**
 * The last pallet's wider searches, after the first (`first`, the search's own load): a larger budget,
 * layers from the floor up, and columns from the corners; the best of them (the larger budget's on a
 * tie, kept in lastPallet). A larger budget finds more only where the first search ran out of its own
 * (or of time): one that ran its widest beam to the end, as wide as the wider search's, would be run
 * again to the same load.
 */
function lastPalletSearches(search: BlockSearch, counts: StaticArray<i32>, first: LoadState, wide: SearchLimits, lastPallet: LoadState): LoadState {
  if (search.exit == EXIT_EFFORT || search.exit == EXIT_TIME_LIMIT || WIDE_BEAM_WIDTH > MIXED_BEAM_WIDTH) {
    search.limits = wide;
    search.restart();
    lastPallet.copyFrom(search.run(search.root(counts)));
  } else lastPallet.copyFrom(first);
  search.spaceRule = SPACE_CORNER;
  search.restart();
  const corner = search.run(search.root(counts));
  search.spaceRule = SPACE_LOWEST;
  return lastPallet.value >= corner.value ? lastPallet : corner;
}

/**
 * The fewest pallets the units in counts need, by volume and by weight, counting only the units
 * that fit an empty pallet alone: every such unit is placed in the end (a search on an empty pallet
 * with one of them left places at least one), the others never are.
 */
function palletsAtLeast(cargo: Cargo, bin: Bin, counts: StaticArray<i32>): i32 {
  let volume: f64 = 0, weight: f64 = 0;
  for (let t = 0; t < cargo.n; t++) {
    if (counts[t] <= 0 || !cargo.fitsIn(t, bin) || <f64>cargo.weight[t] > bin.maxWeight) continue;
    volume += <f64>counts[t] * cargo.volumeOf(t);
    weight += <f64>counts[t] * <f64>cargo.weight[t];
  }
  // a hair under the quotient, so rounding can only lower the bound
  const byVolume = Math.ceil(volume / bin.volume() * (1 - 1e-12));
  const byWeight = bin.maxWeight > 0 ? Math.ceil(weight / bin.maxWeight * (1 - 1e-12)) : 0;
  return <i32>max(byVolume, byWeight);
}

/** A build with `pallets` built and counts left cannot end with fewer than stopAt pallets. */
function cannotReach(cargo: Cargo, bin: Bin, counts: StaticArray<i32>, pallets: i32, stopAt: i32): bool {
  return stopAt < i32.MAX_VALUE && pallets + palletsAtLeast(cargo, bin, counts) >= stopAt;
}

/**
 * One block search per job, handed out afresh to each search of it: its beam states are about a
 * megabyte to allocate and zero, and a search keeps nothing from one run to the next that
 * restart() and the fields set here do not reset.
 */
class Searches {
  private search: BlockSearch | null = null;
  private units: i32 = 0;
  constructor(public cargo: Cargo, public bin: Bin) {
    for (let t = 0; t < cargo.n; t++) this.units += cargo.count[t];
  }
  fresh(blocks: Blocks, limits: SearchLimits): BlockSearch {
    let search = this.search;
    if (search == null) {
      // room for a placement per unit: no search places more
      // a pallet's searches meet fewer space sizes than a container's and read fewer blocks per
      // size (one for a greedy run, at most the beam's width): a smaller fit cache, cleared for
      // every new set of blocks, and shorter lists
      search = new BlockSearch(this.cargo, this.bin, blocks, limits, 1024, this.units + 1, WIDE_BEAM_WIDTH, PALLET_FIT_CACHE_BITS, PALLET_FIT_LISTED);
      this.search = search;
    } else {
      search.setBlocks(blocks);
      search.limits = limits;
      search.restart();
    }
    search.spaceRule = SPACE_LOWEST;
    return search;
  }
}

/** An effort budget times factor; no budget (effort 0 from the host) stays none rather than overflowing. */
function scaledEffort(effort: i64, factor: f64): i64 {
  return effort == i64.MAX_VALUE ? effort : <i64>(<f64>effort * factor);
}
