// Container loading: pallets, pre-built pallets and loose cartons into the order's container
// types, as few containers as possible, then the least container volume. In a container nothing
// stands on anything but a double-stacked top on its bottom, so each container is a floor plan of
// stacks (floor-stacks.ts) laid in rows (floor-rows.ts) and balanced (floor-balance.ts).
import { RoadLimits, roadLimitsOf } from './axle-loads';
import { Bin, Cargo, cargoOf, orientedX } from './cargo';
import { balanceLoad, BalancedLoad } from './floor-balance';
import { FloorPlan } from './floor-rows';
import { nowMs } from './clock';
import { floorDeadlineHit, layFloor, RowScratch, setFloorDeadline } from './floor-rows';
import { buildStacks, countClasses, StackKind } from './floor-stacks';
import { InputReader, OutputWriter } from './wire';
import {
  FITS, OUT_OF_CONTAINERS, OVER_AXLE_LIMITS, OVER_PAYLOAD, OVER_ROAD_GROSS, pushCargoLeft, readLoadContainersInput, TOO_LARGE_FOR_EVERY_TYPE,
} from './wire-layout';

/** Floor plans of ordinary orders take milliseconds; the limit only guards against thousands of carton sizes. */
const MIN_LOADING_MS: i32 = 250;

/**
 * The job's input and answer: wire-layout.ts LoadContainersInput and LoadContainersAnswer (the
 * containers in loading order, each its type and its boxes, then per cargo type what is left and why).
 */
export function loadContainersJob(input: InputReader): StaticArray<i32> {
  // floor plans are deterministic and take milliseconds; the time limit only guards against
  // orders of thousands of different sizes
  const started = nowMs();
  const job = readLoadContainersInput(input);
  const timeLimit = job.limits.timeLimitMs;
  // the greedy choice gets at least MIN_LOADING_MS, so a palletizer that used up the order's time
  // never leaves every pallet unplaced; the search for a better choice only runs within the limit
  const limitAt = timeLimit > 0 ? started + <f64>timeLimit : f64.MAX_VALUE;
  setFloorDeadline(timeLimit > 0 ? started + <f64>max(timeLimit, MIN_LOADING_MS) : f64.MAX_VALUE);
  const nBins = job.containers.length;
  const bins = new StaticArray<Bin>(nBins);
  const available = new StaticArray<i32>(nBins);
  roads = new StaticArray<RoadLimits>(nBins);
  payloads = new StaticArray<f64>(nBins);
  let widest = 0;
  for (let k = 0; k < nBins; k++) {
    const container = job.containers[k];
    bins[k] = new Bin(container.l, container.w, container.h, 0);
    bins[k].maxWeight = <f64>container.payloadG;
    available[k] = container.count;
    payloads[k] = bins[k].maxWeight;
    roads[k] = roadLimitsOf(container.road);
    // the road may leave the container less than its payload
    if (roads[k].active) bins[k].maxWeight = min(bins[k].maxWeight, roads[k].cargoRoom());
    widest = max(widest, bins[k].w);
  }
  const cargo = cargoOf(job.cargo);
  const scratch = new RowScratch(widest);

  const counts = new StaticArray<i32>(cargo.n);
  const reason = new StaticArray<i32>(cargo.n);
  const refused = new StaticArray<i32>(cargo.n);
  let items = 0;
  for (let t = 0; t < cargo.n; t++) {
    reason[t] = unplaceable(cargo, t, bins, available);
    if (reason[t] != FITS) refused[t] = cargo.count[t];
    else counts[t] = cargo.count[t];
    items += cargo.count[t];
  }

  const start = new StaticArray<i32>(cargo.n);
  for (let t = 0; t < cargo.n; t++) start[t] = counts[t];
  const loaded = new StaticArray<i32>(cargo.n);
  const greedy = greedyTypes(cargo, bins, available, counts, scratch, loaded);
  let chosen = greedy;
  let everything = true;
  for (let t = 0; t < cargo.n; t++) if (counts[t] > 0) everything = false;
  // the search for a better choice that the time limit leaves out makes the answer the clock's:
  // it says so as a deadline hit does
  let skippedForTime = false;
  if (everything && greedy.length > 1 && !floorDeadlineHit) {
    if (nowMs() < limitAt) {
      const better = fewerOrSmaller(cargo, bins, available, start, greedy, scratch, loaded);
      if (better != null) chosen = better;
    } else skippedForTime = true;
  }

  const out = new OutputWriter(16 + items * 8);
  const deadlineAt = out.reserve();
  out.push(chosen.length);
  for (let t = 0; t < cargo.n; t++) counts[t] = start[t];
  for (let i = 0; i < chosen.length; i++) {
    const c = chosen[i];
    out.push(c.type);
    balanceLoad(cargo, bins[c.type], c.kinds, c.selected, c.plan, out, c.targetX);
    takeLoaded(c, counts);
  }
  out.set(deadlineAt, floorDeadlineHit || skippedForTime ? 1 : 0);
  out.push(cargo.n);
  for (let t = 0; t < cargo.n; t++) {
    if (refused[t] > 0) pushCargoLeft(out, refused[t], reason[t]);
    else pushCargoLeft(out, counts[t], counts[t] > 0 ? OUT_OF_CONTAINERS : FITS);
  }
  return out.finish();
}

/**
 * Container types one at a time: of those still available, one that takes everything left (the
 * smallest such), else the one that loads the most volume. Leaves in counts[] what stays behind.
 */
function greedyTypes(cargo: Cargo, bins: StaticArray<Bin>, availableIn: StaticArray<i32>, counts: StaticArray<i32>, scratch: RowScratch, loaded: StaticArray<i32>): Array<ContainerLoad> {
  const available = new StaticArray<i32>(bins.length);
  for (let k = 0; k < bins.length; k++) available[k] = availableIn[k];
  const picks = new Array<ContainerLoad>();
  while (true) {
    let left = 0;
    for (let t = 0; t < cargo.n; t++) left += counts[t];
    if (left == 0) break;
    let pick = -1;
    let pickAll = false;
    let pickVolume: f64 = 0;
    let pickLoad: ContainerLoad | null = null;
    for (let k = 0; k < bins.length; k++) {
      if (available[k] <= 0) continue;
      const tried = loadOne(cargo, bins, k, counts, scratch, loaded);
      const load = tried.load;
      if (load.volume <= 0) continue;
      let all = true;
      for (let t = 0; t < cargo.n; t++) if (loaded[t] < counts[t]) all = false;
      const better = pick < 0
        || (all && !pickAll)
        || (all && pickAll && bins[k].volume() < bins[pick].volume())
        || (!all && !pickAll && (load.volume > pickVolume || (load.volume == pickVolume && bins[k].volume() < bins[pick].volume())));
      if (better) {
        pick = k;
        pickAll = all;
        pickVolume = load.volume;
        pickLoad = tried;
      }
    }
    if (pickLoad == null) break;
    const chosen = pickLoad as ContainerLoad;
    picks.push(chosen);
    takeLoaded(chosen, counts);
    available[pick]--;
  }
  return picks;
}

/** Sets of containers tried against the greedy choice, and how many at most. */
const MAX_SETS: i32 = 4000;
const MAX_TRIES: i32 = 24;

/**
 * The greedy choice can miss the fewest containers or the least volume (a 45ft-HC and a 40ft-HC
 * where two 40ft-HC do). Sets of one container fewer, then of as many with less volume, are tried
 * in that order, each filled largest first; the first that takes everything wins. Returns null when
 * none does (or there are too many sets to try).
 */
function fewerOrSmaller(
  cargo: Cargo, bins: StaticArray<Bin>, available: StaticArray<i32>, counts: StaticArray<i32>, greedy: Array<ContainerLoad>,
  scratch: RowScratch, loaded: StaticArray<i32>,
): Array<ContainerLoad> | null {
  const m = greedy.length;
  let greedyVolume: f64 = 0;
  for (let i = 0; i < m; i++) greedyVolume += bins[greedy[i].type].volume();
  let cargoVolume: f64 = 0, cargoWeight: f64 = 0;
  for (let t = 0; t < cargo.n; t++) {
    cargoVolume += <f64>counts[t] * cargo.volumeOf(t);
    cargoWeight += <f64>counts[t] * <f64>cargo.weight[t];
  }
  // every set of m - 1 or m containers within the counts: per type how many
  const sets = new Array<StaticArray<i32>>();
  const pick = new StaticArray<i32>(bins.length);
  if (!collectSets(bins, available, pick, 0, m - 1, sets) || !collectSets(bins, available, pick, 0, m, sets)) return null;
  const size = new Array<i32>(), volume = new Array<f64>(), order = new Array<i32>();
  for (let i = 0; i < sets.length; i++) {
    let n = 0, v: f64 = 0, payload: f64 = 0;
    for (let k = 0; k < bins.length; k++) {
      n += sets[i][k];
      v += <f64>sets[i][k] * bins[k].volume();
      payload += <f64>sets[i][k] * bins[k].maxWeight;
    }
    size.push(n);
    volume.push(v);
    if (v < cargoVolume || payload < cargoWeight || (n == m && v >= greedyVolume)) continue;
    order.push(i);
  }
  for (let i = 1; i < order.length; i++) {
    const a = order[i];
    let j = i;
    while (j > 0 && (size[order[j - 1]] > size[a] || (size[order[j - 1]] == size[a] && volume[order[j - 1]] > volume[a]))) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = a;
  }
  const left = new StaticArray<i32>(cargo.n);
  for (let i = 0; i < order.length && i < MAX_TRIES; i++) {
    const set = sets[order[i]];
    // largest first
    const types = new Array<i32>();
    for (let k = 0; k < bins.length; k++) for (let c = 0; c < set[k]; c++) types.push(k);
    for (let a = 1; a < types.length; a++) {
      const k = types[a];
      let j = a;
      while (j > 0 && bins[types[j - 1]].volume() < bins[k].volume()) {
        types[j] = types[j - 1];
        j--;
      }
      types[j] = k;
    }
    for (let t = 0; t < cargo.n; t++) left[t] = counts[t];
    let rest = 0;
    const loads = new Array<ContainerLoad>();
    for (let c = 0; c < types.length && !floorDeadlineHit; c++) {
      loads.push(loadOne(cargo, bins, types[c], left, scratch, loaded));
      rest = 0;
      for (let t = 0; t < cargo.n; t++) {
        left[t] -= loaded[t];
        rest += left[t];
      }
      if (rest == 0) break;
    }
    if (rest == 0 && !floorDeadlineHit) return loads;
  }
  return null;
}

/** Adds to sets every choice of n containers from type k on within the counts; false past MAX_SETS. */
function collectSets(bins: StaticArray<Bin>, available: StaticArray<i32>, pick: StaticArray<i32>, k: i32, n: i32, sets: Array<StaticArray<i32>>): bool {
  if (n <= 0 && k == 0) return true;
  if (k == bins.length) {
    if (n != 0) return true;
    if (sets.length >= MAX_SETS) return false;
    const set = new StaticArray<i32>(bins.length);
    for (let i = 0; i < bins.length; i++) set[i] = pick[i];
    sets.push(set);
    return true;
  }
  for (let c = min(n, available[k]); c >= 0; c--) {
    pick[k] = c;
    if (!collectSets(bins, available, pick, k + 1, n - c, sets)) return false;
  }
  pick[k] = 0;
  return true;
}

/** Stacks of each floor class and their mean volume (what a row's value counts per stack). */
function classTotals(kinds: Array<StackKind>, selected: StaticArray<i32>, avail: StaticArray<i32>, value: StaticArray<f64>): void {
  for (let c = 0; c < avail.length; c++) {
    avail[c] = 0;
    value[c] = 0;
  }
  for (let i = 0; i < kinds.length; i++) {
    const c = kinds[i].floorClass;
    avail[c] += selected[i];
    value[c] += <f64>selected[i] * kinds[i].volume;
  }
  for (let c = 0; c < avail.length; c++) if (avail[c] > 0) value[c] /= <f64>avail[c];
}

/** Takes what the load carries off counts[]. */
function takeLoaded(c: ContainerLoad, counts: StaticArray<i32>): void {
  for (let k = 0; k < c.kinds.length; k++) {
    const n = c.load.placedKinds[k];
    counts[c.kinds[k].bottom] -= n;
    if (c.kinds[k].top >= 0) counts[c.kinds[k].top] -= n;
  }
}

/** One container's load as planned: written out later exactly as it was judged. */
class ContainerLoad {
  constructor(
    public type: i32, public kinds: Array<StackKind>, public selected: StaticArray<i32>, public plan: FloorPlan, public load: BalancedLoad,
    /** Where the load's centre of gravity was aimed along the container (the road's window may want it off the middle). */
    public targetX: f64,
  ) {}
}

/** The job's container types' roads (set per job: every job starts on a fresh heap). */
let roads: StaticArray<RoadLimits> = new StaticArray<RoadLimits>(0);
/** Their payloads (a road's room may be less: bins[k].maxWeight is the lesser). */
let payloads: StaticArray<f64> = new StaticArray<f64>(0);

/**
 * One container of type k loaded from counts[]: the stacks it can carry by weight (heaviest
 * first), laid on its floor and balanced. loaded[] gets the items of each type it takes. On a road,
 * a load whose axles are not within their limits carries less: the most cargo whose load is.
 */
function loadOne(cargo: Cargo, bins: StaticArray<Bin>, k: i32, counts: StaticArray<i32>, scratch: RowScratch, loaded: StaticArray<i32>): ContainerLoad {
  const bin = bins[k];
  const road = roads[k];
  const kinds = buildStacks(cargo, bin, counts);
  let chosen = loadUpTo(cargo, bin, road, k, kinds, bin.maxWeight, scratch);
  if (road.active && !roadAllows(road, chosen.load)) {
    // less cargo widens the window the axles allow: the heaviest load the road takes, by bisection
    // over the weight let in (what a lower cap lets in is a subset's weight, so the halves narrow)
    let lo: f64 = 0, hi = chosen.load.weight;
    let best = loadUpTo(cargo, bin, road, k, kinds, 0, scratch);
    for (let step = 0; step < ROAD_STEPS && hi - lo > ROAD_GRAIN_G; step++) {
      const cap = (lo + hi) / 2;
      const tried = loadUpTo(cargo, bin, road, k, kinds, cap, scratch);
      if (roadAllows(road, tried.load)) {
        lo = cap;
        if (tried.load.weight > best.load.weight || !roadAllows(road, best.load)) best = tried;
      } else hi = cap;
    }
    chosen = best;
  }
  for (let t = 0; t < cargo.n; t++) loaded[t] = 0;
  for (let i = 0; i < kinds.length; i++) {
    const n = chosen.load.placedKinds[i];
    loaded[kinds[i].bottom] += n;
    if (kinds[i].top >= 0) loaded[kinds[i].top] += n;
  }
  return chosen;
}

/** Bisection steps at most, and the weight below which two caps are one (10 kg). */
const ROAD_STEPS: i32 = 16;
const ROAD_GRAIN_G: f64 = 10_000;

/** The load's axles are within the road's limits (an empty load's too: the tares alone). */
function roadAllows(road: RoadLimits, load: BalancedLoad): bool {
  return road.allows(load.stacks > 0 ? load.weight : 0, load.cogX);
}

/**
 * The stacks of kinds a container of type k takes within cap grams: selected by weight when the cap
 * binds, laid on its floor and balanced, the centre of gravity aimed where the road's axles want it
 * (the middle where that is within their window).
 */
function loadUpTo(cargo: Cargo, bin: Bin, road: RoadLimits, k: i32, kinds: Array<StackKind>, cap: f64, scratch: RowScratch): ContainerLoad {
  const nClasses = countClasses(kinds);
  let selected = new StaticArray<i32>(kinds.length);
  let total: f64 = 0;
  for (let i = 0; i < kinds.length; i++) {
    selected[i] = kinds[i].count;
    total += <f64>kinds[i].count * kinds[i].weight;
  }
  const avail = new StaticArray<i32>(nClasses);
  const value = new StaticArray<f64>(nClasses);
  classTotals(kinds, selected, avail, value);
  let plan = layFloor(kinds, avail, value, bin, scratch, 0);
  let load: BalancedLoad;
  let target = targetFor(road, bin, kinds, selected);
  if (total > cap) {
    // the payload may bind: choose what goes for as many stacks as that floor took, then lay again
    let room = 0;
    for (let c = 0; c < nClasses; c++) room += plan.placed[c];
    const all = selected, asLaidPlan = plan, asLaidTarget = target;
    selected = selectByPayload(kinds, cap, room);
    classTotals(kinds, selected, avail, value);
    plan = layFloor(kinds, avail, value, bin, scratch, 0);
    target = targetFor(road, bin, kinds, selected);
    load = balanceLoad(cargo, bin, kinds, selected, plan, null, target);
    // Chosen by weight alone, the stacks can all be of one floor class and leave the places the
    // floor had for another empty (heavy pallets chosen for the crates' places). When the floor as
    // first laid, the heaviest of each class in its places, is within the payload, the payload did
    // not bind: that load goes, unless it cannot be balanced where the weight-chosen one can (more
    // cargo in a container is not worth a centre of gravity outside the limits).
    if (load.stacks < room) {
      const asLaid = balanceLoad(cargo, bin, kinds, all, asLaidPlan, null, asLaidTarget);
      if (asLaid.weight <= cap && asLaid.stacks > load.stacks && (asLaid.balanced || !load.balanced) && roadNoWorse(road, asLaid, load)) {
        selected = all;
        plan = asLaidPlan;
        load = asLaid;
        target = asLaidTarget;
        classTotals(kinds, selected, avail, value);
      }
    }
  } else load = balanceLoad(cargo, bin, kinds, selected, plan, null, target);
  // Rows of several columns put a heavy stack off the centreline; when no place balances it,
  // rows of one column each (centred) may, if they load as much.
  if (!load.balanced) {
    const singlePlan = layFloor(kinds, avail, value, bin, scratch, 1);
    const single = balanceLoad(cargo, bin, kinds, selected, singlePlan, null, target);
    if (single.balanced && single.stacks >= load.stacks && roadNoWorse(road, single, load)) {
      plan = singlePlan;
      load = single;
    }
  }
  return new ContainerLoad(k, kinds, selected, plan, load, target);
}

/** A load the road allows is never traded for one it does not. */
function roadNoWorse(road: RoadLimits, a: BalancedLoad, b: BalancedLoad): bool {
  return !road.active || roadAllows(road, a) || !roadAllows(road, b);
}

/**
 * Where the centre of gravity of the selected stacks is aimed along the container: the middle (the CTU
 * Code's), or on a road the point of the axles' window nearest it. Negative: the middle.
 */
function targetFor(road: RoadLimits, bin: Bin, kinds: Array<StackKind>, selected: StaticArray<i32>): f64 {
  if (!road.active) return -1;
  let weight: f64 = 0;
  for (let i = 0; i < kinds.length; i++) weight += <f64>selected[i] * kinds[i].weight;
  const middle = <f64>bin.l / 2;
  if (weight <= 0 || !road.window(weight)) return -1;
  return min(max(middle, road.lo), road.hi);
}

/**
 * How many stacks of each kind go when the payload binds: as many as the floor takes (room), the
 * lightest first, then heavier ones swapped in for lighter while the payload allows, so a
 * container carries the most weight the floor and payload both allow (heavy pallets alone would
 * fill the payload on half a floor and leave the light ones a container of their own).
 */
function selectByPayload(kinds: Array<StackKind>, payload: f64, room: i32): StaticArray<i32> {
  const selected = new StaticArray<i32>(kinds.length);
  const order = new Array<i32>();
  for (let i = 0; i < kinds.length; i++) {
    let j = order.length;
    order.push(i);
    while (j > 0 && kinds[order[j - 1]].weight > kinds[i].weight) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
  let n = 0;
  let weight: f64 = 0;
  for (let q = 0; q < order.length && n < room; q++) {
    const k = kinds[order[q]];
    const take = <i32>Math.min(<f64>min(k.count, room - n), k.weight > 0 ? Math.floor((payload - weight) / k.weight) : <f64>k.count);
    if (take <= 0) break;
    selected[order[q]] = take;
    n += take;
    weight += <f64>take * k.weight;
  }
  let hi = order.length - 1, lo = 0;
  while (hi > lo) {
    const h = order[hi], l = order[lo];
    if (selected[h] >= kinds[h].count) { hi--; continue; }
    if (selected[l] <= 0) { lo++; continue; }
    const gain = kinds[h].weight - kinds[l].weight;
    if (gain <= 0) break;
    const m = <i32>Math.min(<f64>min(kinds[h].count - selected[h], selected[l]), Math.floor((payload - weight) / gain));
    if (m <= 0) { hi--; continue; }
    selected[h] += m;
    selected[l] -= m;
    weight += <f64>m * gain;
  }
  return selected;
}

/** Why type t can never be loaded into the listed types, or FITS. */
function unplaceable(cargo: Cargo, t: i32, bins: StaticArray<Bin>, available: StaticArray<i32>): i32 {
  let why = TOO_LARGE_FOR_EVERY_TYPE;
  const weight = <f64>cargo.weight[t];
  for (let k = 0; k < bins.length; k++) {
    if (available[k] <= 0 || !cargo.fitsIn(t, bins[k])) continue;
    const road = roads[k];
    // bins[k].maxWeight is the road's room where that is less than the payload
    const payload = road.active ? <f64>payloads[k] : bins[k].maxWeight;
    if (weight > payload) why = max(why, OVER_PAYLOAD);
    else if (weight > bins[k].maxWeight) why = max(why, OVER_ROAD_GROSS);
    else if (road.active && !anywhereAlong(cargo, t, bins[k], road)) why = max(why, OVER_AXLE_LIMITS);
    else return FITS;
  }
  return why;
}

/** One item of type t alone has some place along the bin (in some orientation) where the road's axles allow it. */
function anywhereAlong(cargo: Cargo, t: i32, bin: Bin, road: RoadLimits): bool {
  const weight = <f64>cargo.weight[t];
  if (!road.window(weight)) return false;
  for (let o = 0; o < 6; o++) {
    if ((cargo.oriMask[t] & (1 << o)) == 0) continue;
    const half = <f64>orientedX(o, cargo.l[t], cargo.w[t], cargo.h[t]) / 2;
    if (road.lo <= <f64>bin.l - half && road.hi >= half) return true;
  }
  return false;
}
