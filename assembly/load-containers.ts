// Container loading: pallets, pre-built pallets and loose cartons into the order's container
// types, as few containers as possible, then the least container volume. In a container nothing
// stands on anything but a double-stacked top on its bottom, so each container is a floor plan of
// stacks (floor-stacks.ts) laid in rows (floor-rows.ts) and balanced (floor-balance.ts).
import { Bin, Cargo } from './cargo';
import { balanceLoad, BalancedLoad } from './floor-balance';
import { layFloor, RowScratch } from './floor-rows';
import { buildStacks, countClasses, StackKind } from './floor-stacks';
import { InputReader, OutputWriter } from './wire';

export const FITS: i32 = 0;
export const TOO_LARGE_FOR_EVERY_TYPE: i32 = 1;
export const OVER_PAYLOAD: i32 = 2;
export const OUT_OF_CONTAINERS: i32 = 3;

/**
 * Input: time limit ms, effort per container tried, seed, container types (n, then per type
 * l, w, h, payload g, count), then the cargo.
 * Output: [deadline hit, containers, per container: type index, boxes, per box type, x, y, z, l,
 * w, h], then per cargo type: [count not loaded, reason].
 */
export function loadContainersJob(input: InputReader): StaticArray<i32> {
  // the floor plans are deterministic and take milliseconds: no limits needed
  input.next();
  input.next();
  input.next();
  const nBins = input.next();
  const bins = new StaticArray<Bin>(nBins);
  const available = new StaticArray<i32>(nBins);
  let widest = 0;
  for (let k = 0; k < nBins; k++) {
    bins[k] = new Bin(input.next(), input.next(), input.next(), 0);
    bins[k].maxWeight = <f64>input.next();
    available[k] = input.next();
    widest = max(widest, bins[k].w);
  }
  const cargo = input.readCargo();
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
  if (everything && greedy.length > 1) {
    const better = fewerOrSmaller(cargo, bins, available, start, greedy, scratch, loaded);
    if (better != null) chosen = better;
  }

  const out = new OutputWriter(16 + items * 8);
  out.push(0);
  out.push(chosen.length);
  for (let t = 0; t < cargo.n; t++) counts[t] = start[t];
  for (let i = 0; i < chosen.length; i++) {
    out.push(chosen[i]);
    loadOne(cargo, bins[chosen[i]], counts, scratch, out, loaded);
    for (let t = 0; t < cargo.n; t++) counts[t] -= loaded[t];
  }
  for (let t = 0; t < cargo.n; t++) {
    if (refused[t] > 0) {
      out.push(refused[t]);
      out.push(reason[t]);
    } else {
      out.push(counts[t]);
      out.push(counts[t] > 0 ? OUT_OF_CONTAINERS : FITS);
    }
  }
  return out.finish();
}

/**
 * Container types one at a time: of those still available, one that takes everything left (the
 * smallest such), else the one that loads the most volume. Leaves in counts[] what stays behind.
 */
function greedyTypes(cargo: Cargo, bins: StaticArray<Bin>, availableIn: StaticArray<i32>, counts: StaticArray<i32>, scratch: RowScratch, loaded: StaticArray<i32>): Array<i32> {
  const available = new StaticArray<i32>(bins.length);
  for (let k = 0; k < bins.length; k++) available[k] = availableIn[k];
  const picks = new Array<i32>();
  while (true) {
    let left = 0;
    for (let t = 0; t < cargo.n; t++) left += counts[t];
    if (left == 0) break;
    let pick = -1;
    let pickAll = false;
    let pickVolume: f64 = 0;
    for (let k = 0; k < bins.length; k++) {
      if (available[k] <= 0) continue;
      const load = loadOne(cargo, bins[k], counts, scratch, null, loaded);
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
      }
    }
    if (pick < 0) break;
    loadOne(cargo, bins[pick], counts, scratch, null, loaded);
    for (let t = 0; t < cargo.n; t++) counts[t] -= loaded[t];
    available[pick]--;
    picks.push(pick);
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
  cargo: Cargo, bins: StaticArray<Bin>, available: StaticArray<i32>, counts: StaticArray<i32>, greedy: Array<i32>,
  scratch: RowScratch, loaded: StaticArray<i32>,
): Array<i32> | null {
  const m = greedy.length;
  let greedyVolume: f64 = 0;
  for (let i = 0; i < m; i++) greedyVolume += bins[greedy[i]].volume();
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
    for (let c = 0; c < types.length; c++) {
      loadOne(cargo, bins[types[c]], left, scratch, null, loaded);
      rest = 0;
      for (let t = 0; t < cargo.n; t++) {
        left[t] -= loaded[t];
        rest += left[t];
      }
      if (rest == 0) {
        types.length = c + 1;
        break;
      }
    }
    if (rest == 0) return types;
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

/**
 * One container of this type loaded from counts[]: the stacks it can carry by weight (heaviest
 * first), laid on its floor and balanced. loaded[] gets the items of each type it takes.
 */
function loadOne(cargo: Cargo, bin: Bin, counts: StaticArray<i32>, scratch: RowScratch, out: OutputWriter | null, loaded: StaticArray<i32>): BalancedLoad {
  const kinds = buildStacks(cargo, bin, counts);
  const selected = selectByPayload(kinds, bin.maxWeight);
  const nClasses = countClasses(kinds);
  const avail = new StaticArray<i32>(nClasses);
  const value = new StaticArray<f64>(nClasses);
  for (let i = 0; i < kinds.length; i++) {
    const c = kinds[i].floorClass;
    avail[c] += selected[i];
    value[c] += <f64>selected[i] * kinds[i].volume;
  }
  for (let c = 0; c < nClasses; c++) if (avail[c] > 0) value[c] /= <f64>avail[c];
  // Rows of several columns put a heavy stack off the centreline; when no place balances it,
  // rows of one column each (centred) may, if they load as much.
  let columns = 0;
  let load = balanceLoad(cargo, bin, kinds, selected, layFloor(kinds, avail, value, bin, scratch, 0), null);
  if (!load.balanced) {
    const single = balanceLoad(cargo, bin, kinds, selected, layFloor(kinds, avail, value, bin, scratch, 1), null);
    if (single.balanced && single.stacks >= load.stacks) columns = 1;
  }
  if (out != null || columns != 0) load = balanceLoad(cargo, bin, kinds, selected, layFloor(kinds, avail, value, bin, scratch, columns), out);
  for (let t = 0; t < cargo.n; t++) loaded[t] = 0;
  for (let i = 0; i < kinds.length; i++) {
    const n = load.placedKinds[i];
    loaded[kinds[i].bottom] += n;
    if (kinds[i].top >= 0) loaded[kinds[i].top] += n;
  }
  return load;
}

/** How many stacks of each kind the payload allows: all when they fit, else heaviest first. */
function selectByPayload(kinds: Array<StackKind>, payload: f64): StaticArray<i32> {
  const selected = new StaticArray<i32>(kinds.length);
  let total: f64 = 0;
  for (let i = 0; i < kinds.length; i++) total += <f64>kinds[i].count * kinds[i].weight;
  if (total <= payload) {
    for (let i = 0; i < kinds.length; i++) selected[i] = kinds[i].count;
    return selected;
  }
  const taken = new StaticArray<bool>(kinds.length);
  let room = payload;
  for (let step = 0; step < kinds.length; step++) {
    let k = -1;
    for (let i = 0; i < kinds.length; i++) if (!taken[i] && (k < 0 || kinds[i].weight > kinds[k].weight)) k = i;
    taken[k] = true;
    const n = kinds[k].weight > 0 ? <i32>Math.min(<f64>kinds[k].count, Math.floor(room / kinds[k].weight)) : kinds[k].count;
    selected[k] = n;
    room -= <f64>n * kinds[k].weight;
  }
  return selected;
}

/** Why type t can never be loaded into the listed types, or FITS. */
function unplaceable(cargo: Cargo, t: i32, bins: StaticArray<Bin>, available: StaticArray<i32>): i32 {
  let fitsSome = false;
  for (let k = 0; k < bins.length; k++) {
    if (available[k] <= 0 || !cargo.fitsIn(t, bins[k])) continue;
    fitsSome = true;
    if (<f64>cargo.weight[t] <= bins[k].maxWeight) return FITS;
  }
  return fitsSome ? OVER_PAYLOAD : TOO_LARGE_FOR_EVERY_TYPE;
}
