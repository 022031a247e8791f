// One container, boxes may be left out: the job of the BR container-loading benchmark.
import { Bin, Cargo, cargoOf } from './cargo';
import { generateBlocks } from './blocks';
import { withCompositeBlocks } from './composite-blocks';
import { BlockSearch, searchLimitsOf, SPACE_CORNER, SPACE_LOWEST } from './block-search';
import { nowMs } from './clock';
import { LoadState, writeBoxes } from './load-state';
import { InputReader, OutputWriter } from './wire';
import { EXIT_ALL_PLACED, EXIT_EFFORT, EXIT_TIME_LIMIT, readPackContainerInput } from './wire-layout';

/** Blocks beyond the k best by volume that are ranked by volume less the dead space they leave. */
const FIT_WINDOW: i32 = 8;
/**
 * Composite blocks (composite-blocks.ts) added to the blocks of one kind, at most: pairs side by
 * side and one on the other. Few pairs fill their box as full as a composite must, so the cap seldom
 * binds (docs/history/2026-11.md, "Loader ideas, measured").
 */
const COMPOSITES: i32 = 4000;
/** Composites one on another too: with side by side only, strongly heterogeneous cargo loads less. */
const STACKED: bool = true;
/** Few box types come in many boxes each: their blocks of one kind fill well, and composites only slow the search. */
const COMPOSITE_MIN_TYPES: i32 = 30;
/**
 * Below COMPOSITE_MIN_TYPES types, searches in turn while time is left: blocks ranked by volume alone and with the
 * dead-space rule; spaces nearest a corner, then lowest first.
 */
const RULES: i32 = 4;
const MAX_ROUNDS: i32 = 64;
/**
 * With composites a round is one search: the dead-space rule, lowest spaces first (it fills better
 * there than nearest a corner, and the next seed's search adds more than one by another rule),
 * each beam node trying width / BRANCHING blocks, so the beams run wider in the time
 * (docs/history/2026-11.md, "Loader ideas, measured").
 */
const BRANCHING: i32 = 4;
/** Foresight tries a beam 1.5 times the last's width when the doubled one cannot finish. */
const HALF_STEPS: bool = true;
/** A search of seconds meets more space sizes than the service's: a larger fit cache pays for itself here. */
const FIT_CACHE_BITS: i32 = 16;

/** The job's input and answer: wire-layout.ts PackContainerInput and PackContainerAnswer. */
export function packContainerJob(input: InputReader): StaticArray<i32> {
  const start = nowMs();
  const job = readPackContainerInput(input);
  const bin = new Bin(job.l, job.w, job.h, 0);
  const maxWeight = job.maxWeightG;
  bin.maxWeight = maxWeight > 0 ? <f64>maxWeight : f64.MAX_VALUE;
  const limits = searchLimitsOf(start, job.limits);
  const seed = <u32>job.seed;
  const cargo = cargoOf(job.cargo);
  const composites = cargo.n >= COMPOSITE_MIN_TYPES ? COMPOSITES : 0;
  const blocks = withCompositeBlocks(generateBlocks(cargo, bin, cargo.count, 12000, 0, seed), cargo, bin, cargo.count, composites, STACKED);
  let boxes = 0;
  for (let t = 0; t < cargo.n; t++) boxes += cargo.count[t];
  const search = new BlockSearch(cargo, bin, blocks, limits, 2048, boxes + 1, 128, FIT_CACHE_BITS);
  const root = search.root(cargo.count);
  const best = new LoadState(search.spCap, cargo.n, boxes + 1);
  best.copyFrom(root);
  let bestBlocks = blocks;
  let limited = false;
  let done = false;
  // The widest beam often ends well within the limit (few box types): the time left goes to the
  // searches of other rules, then to the same again on blocks whose ties are broken by the next
  // seed, and the best load of all is kept. A search the limit cuts short still gives its best load
  // so far. Without a time limit (effort only) one round of rules runs, so the result stays the same.
  const timed = limits.deadlineMs < f64.MAX_VALUE;
  for (let round = 0; round < MAX_ROUNDS && !done && (round == 0 || (timed && nowMs() < limits.deadlineMs)); round++) {
    const roundBlocks = round == 0 ? blocks : withCompositeBlocks(generateBlocks(cargo, bin, cargo.count, 12000, 0, seed + <u32>round), cargo, bin, cargo.count, composites, STACKED);
    search.setBlocks(roundBlocks);
    const rules = composites > 0 ? 1 : RULES;
    for (let c = 0; c < rules && (c == 0 || nowMs() < limits.deadlineMs); c++) {
      search.restart();
      if (composites > 0) {
        // no beam the time left cannot finish (its loads would come at its deepest levels): the
        // time goes to the next seed's search instead
        search.fitWindow = FIT_WINDOW;
        search.spaceRule = SPACE_LOWEST;
        search.foresee = timed;
        search.halfSteps = HALF_STEPS;
        search.branching = BRANCHING;
      } else {
        // volume alone first, the search main's loader ran
        search.fitWindow = c % 2 == 1 ? FIT_WINDOW : 0;
        search.spaceRule = c < 2 ? SPACE_CORNER : SPACE_LOWEST;
      }
      const found = search.run(root);
      if (search.exit == EXIT_EFFORT || search.exit == EXIT_TIME_LIMIT) limited = true;
      if (found.volume > best.volume) {
        best.copyFrom(found);
        bestBlocks = roundBlocks;
      }
      if (search.exit == EXIT_ALL_PLACED) {
        done = true;
        break;
      }
    }
  }
  const out = new OutputWriter(16 + boxes * 7);
  out.push(limited ? 1 : 0);
  writeBoxes(out, best, bestBlocks);
  return out.finish();
}
