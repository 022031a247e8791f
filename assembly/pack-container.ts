// One container, boxes may be left out: the job of the BR container-loading benchmark.
import { Bin, Cargo } from './cargo';
import { generateBlocks } from './blocks';
import { BlockSearch, EXIT_EFFORT, EXIT_TIME_LIMIT, SPACE_CORNER } from './block-search';
import { nowMs } from './clock';
import { LoadState } from './load-state';
import { InputReader, OutputWriter, writeBoxes } from './wire';

/** Blocks beyond the k best by volume that are ranked by volume less the dead space they leave. */
const FIT_WINDOW: i32 = 8;
/** Pair blocks (two blocks of one kind side by side, blocks.ts) added to the blocks of one kind. */
const PAIR_BLOCKS: i32 = 4000;
/** Few box types come in many boxes each: their blocks of one kind fill well, and pairs only slow the search. */
const PAIR_MIN_TYPES: i32 = 15;

/**
 * Input: bin l, w, h, max weight (0: none), time limit ms, effort (0: none), seed, n types,
 * then per type l, w, h, weight, count, orientation mask, stack policy, can top, stack class.
 * Output: [stopped by a limit, boxes, then per box: type, x, y, z, l, w, h].
 */
export function packContainerJob(input: InputReader): StaticArray<i32> {
  const start = nowMs();
  const bin = new Bin(input.next(), input.next(), input.next(), 0);
  const maxWeight = input.next();
  bin.maxWeight = maxWeight > 0 ? <f64>maxWeight : f64.MAX_VALUE;
  const limits = input.readLimits(start);
  const seed = <u32>input.next();
  const cargo = input.readCargo();
  const blocks = generateBlocks(cargo, bin, cargo.count, 12000, 0, seed, null, cargo.n >= PAIR_MIN_TYPES ? PAIR_BLOCKS : 0);
  let boxes = 0;
  for (let t = 0; t < cargo.n; t++) boxes += cargo.count[t];
  const search = new BlockSearch(cargo, bin, blocks, limits, 2048, boxes + 1, 128);
  search.spaceRule = SPACE_CORNER;
  search.fitWindow = FIT_WINDOW;
  const best = search.run(search.root(cargo.count));
  const out = new OutputWriter(16 + boxes * 7);
  out.push(search.exit == EXIT_EFFORT || search.exit == EXIT_TIME_LIMIT ? 1 : 0);
  writeBoxes(out, best, blocks);
  return out.finish();
}
