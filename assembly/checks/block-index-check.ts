// Self-checks the tests run in the tests' build (test/planner/block-index.test.ts). firstWithin, the grouped SIMD scan
// the search ranks blocks with, against firstWithinPlain, one block at a time, on the blocks of a
// real cargo and many random spaces and starting points. Any difference would change plans.
import { Bin, cargoOf } from '../cargo';
import { firstWithin, firstWithinPlain, generateBlocks } from '../blocks';
import { withCompositeBlocks } from '../composite-blocks';
import { BlockSearch, SearchLimits, SPACE_CORNER, SPACE_LOWEST } from '../block-search';
import { PL_STRIDE } from '../load-state';
import { InputReader, OutputWriter } from '../wire';
import { pushCheckFirstWithinAnswer, pushCheckFitCacheAnswer, readCheckFirstWithinInput, readCheckFitCacheInput } from '../wire-layout';

/** The job's input and answer: wire-layout.ts CheckFirstWithinInput and CheckFirstWithinAnswer. */
export function checkFirstWithinJob(input: InputReader): StaticArray<i32> {
  const job = readCheckFirstWithinInput(input);
  const bin = new Bin(job.l, job.w, job.h, f64.MAX_VALUE);
  const seed = <u32>job.seed;
  const probes = job.probes;
  const pairs = job.composites;
  const cargo = cargoOf(job.cargo);
  const blocks = withCompositeBlocks(generateBlocks(cargo, bin, cargo.count, 12000, 0, seed), cargo, bin, cargo.count, pairs, true);
  let x: u32 = seed * 2654435761 + 1;
  let mismatches = 0, found = 0;
  for (let p = 0; p < probes; p++) {
    // xorshift: sizes from 0 to the bin's, a start anywhere in the blocks
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    const sx = <i32>(x % <u32>(bin.l + 1));
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    const sy = <i32>(x % <u32>(bin.w + 1));
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    const sz = <i32>(x % <u32>(bin.h + 1));
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    let b = <i32>(x % <u32>(blocks.n + 1));
    // follow the scan as the search does: each hit, then on from the next block
    for (let step = 0; step < 8; step++) {
      const fast = firstWithin(blocks, b, i32x4.splat(sx), i32x4.splat(sy), i32x4.splat(sz));
      const plain = firstWithinPlain(blocks, b, sx, sy, sz);
      if (fast != plain) mismatches++;
      if (plain >= blocks.n) break;
      if (step == 0) found++;
      b = plain + 1;
    }
  }
  const out = new OutputWriter(8);
  pushCheckFirstWithinAnswer(out, mismatches, probes, blocks.n, found);
  return out.finish();
}

/**
 * The fit cache (fit-cache.ts), the reuse of greedy continuations (block-search.ts beam) and of the
 * children an earlier beam of the run tried (child-memo.ts) against none of them: the same searches
 * (both space rules, with and without the dead-space window, and the BR job's: lowest first, a
 * quarter of the width in blocks per node) on two block searches, one remembering what each space
 * size admits and reusing its greedy runs, one scanning and running every greedy completion. The
 * job's input and answer: wire-layout.ts CheckFitCacheInput and CheckFitCacheAnswer.
 */
export function checkFitCacheJob(input: InputReader): StaticArray<i32> {
  const job = readCheckFitCacheInput(input);
  const bin = new Bin(job.l, job.w, job.h, f64.MAX_VALUE);
  const seed = <u32>job.seed;
  const limits = new SearchLimits();
  limits.effort = <i64>job.effort;
  const pairs = job.composites;
  const cargo = cargoOf(job.cargo);
  let boxes = 0;
  for (let t = 0; t < cargo.n; t++) boxes += cargo.count[t];
  const blocks = withCompositeBlocks(generateBlocks(cargo, bin, cargo.count, 12000, 0, seed), cargo, bin, cargo.count, pairs, true);
  const cached = new BlockSearch(cargo, bin, blocks, limits, 2048, boxes + 1, 16);
  const plain = new BlockSearch(cargo, bin, blocks, limits, 2048, boxes + 1, 16);
  plain.fits.disable();
  plain.reuseContinuations = false;
  plain.reuseChildren = false;
  let differ = 0, placements = 0;
  const searches = 6;
  for (let c = 0; c < searches; c++) {
    for (let k = 0; k < 2; k++) {
      const search = k == 0 ? cached : plain;
      search.restart();
      search.fitWindow = c % 2 == 0 ? 8 : 0;
      search.spaceRule = c < 2 ? SPACE_CORNER : SPACE_LOWEST;
      search.branching = c < 4 ? 1 : 4;
      search.run(search.root(cargo.count));
    }
    const a = cached.best, b = plain.best;
    // the same placements, and the same effort counted (greedy runs reused count as run)
    let same = a.np == b.np && a.volume == b.volume && cached.effort == plain.effort;
    for (let i = 0; same && i < a.np * PL_STRIDE; i++) same = a.pl[i] == b.pl[i];
    if (!same) differ++;
    placements += a.np;
  }
  const out = new OutputWriter(8);
  pushCheckFitCacheAnswer(out, differ, searches, placements);
  return out.finish();
}
