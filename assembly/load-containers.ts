// Container loading: pallets, pre-built pallets and loose cartons into the order's container
// types, as few containers as possible, then the least container volume.
import { Bin, Cargo } from './cargo';
import { generateBlocks } from './blocks';
import { BlockSearch, deadlineHit, SearchLimits, SPACE_BACK } from './block-search';
import { nowMs } from './clock';
import { LoadState } from './load-state';
import { InputReader, OutputWriter, writeBoxes } from './wire';

export const FITS: i32 = 0;
export const TOO_LARGE_FOR_EVERY_TYPE: i32 = 1;
export const OVER_PAYLOAD: i32 = 2;
export const OUT_OF_CONTAINERS: i32 = 3;

const MAX_BLOCKS: i32 = 6000;
const BEAM_WIDTH: i32 = 4;

/**
 * Input: time limit ms, effort per container tried, seed, container types (n, then per type
 * l, w, h, payload g, count), then the cargo.
 * Output: [deadline hit, containers, per container: type index, boxes, per box type, x, y, z, l,
 * w, h], then per cargo type: [count not loaded, reason].
 */
export function loadContainersJob(input: InputReader): StaticArray<i32> {
  const start = nowMs();
  const timeLimit = input.next();
  const effort = input.next();
  const seed = <u32>input.next();
  const nBins = input.next();
  const bins = new StaticArray<Bin>(nBins);
  const available = new StaticArray<i32>(nBins);
  for (let k = 0; k < nBins; k++) {
    bins[k] = new Bin(input.next(), input.next(), input.next(), 0);
    bins[k].maxWeight = <f64>input.next();
    available[k] = input.next();
  }
  const cargo = input.readCargo();
  const limits = new SearchLimits();
  if (timeLimit > 0) limits.deadlineMs = start + <f64>timeLimit;
  if (effort > 0) limits.effort = <i64>effort;
  limits.maxWidth = BEAM_WIDTH;

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

  const searches = new StaticArray<BlockSearch | null>(nBins);
  const out = new OutputWriter(16 + items * 8);
  const deadlineAt = out.reserve();
  const containersAt = out.reserve();
  let containers = 0;
  const chosen = new LoadState(2048, cargo.n, items + 1);
  while (true) {
    let left = 0;
    for (let t = 0; t < cargo.n; t++) left += counts[t];
    if (left == 0) break;
    // Try every type still available; prefer one that takes everything left (the smallest
    // such), otherwise the one that loads the most volume.
    let pick = -1;
    let pickAll = false;
    let pickVolume: f64 = 0;
    for (let k = 0; k < nBins; k++) {
      if (available[k] <= 0) continue;
      let search = searches[k];
      if (search == null) {
        const s = new BlockSearch(cargo, bins[k], generateBlocks(cargo, bins[k], counts, MAX_BLOCKS, 0, seed), limits, 2048, items + 1, BEAM_WIDTH);
        s.spaceRule = SPACE_BACK;
        s.anchorBack = true;
        searches[k] = s;
        search = s;
      }
      search.restart();
      const best = search.run(search.root(counts));
      if (best.np == 0) continue;
      let all = true;
      for (let t = 0; t < cargo.n; t++) if (best.rem[t] > 0) all = false;
      const better = pick < 0
        || (all && !pickAll)
        || (all && pickAll && bins[k].volume() < bins[pick].volume())
        || (!all && !pickAll && (best.volume > pickVolume || (best.volume == pickVolume && bins[k].volume() < bins[pick].volume())));
      if (better) {
        pick = k;
        pickAll = all;
        pickVolume = best.volume;
        chosen.copyFrom(best);
      }
    }
    if (pick < 0) break;
    out.push(pick);
    writeBoxes(out, chosen, (searches[pick] as BlockSearch).blocks);
    containers++;
    available[pick]--;
    for (let t = 0; t < cargo.n; t++) counts[t] = chosen.rem[t];
  }
  out.set(containersAt, containers);
  out.set(deadlineAt, deadlineHit ? 1 : 0);
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
