// A self-check the tests run (test/planner/block-index.test.ts): firstWithin, the grouped SIMD scan
// the search ranks blocks with, against firstWithinPlain, one block at a time, on the blocks of a
// real cargo and many random spaces and starting points. Any difference would change plans.
import { Bin } from './cargo';
import { firstWithin, firstWithinPlain, generateBlocks } from './blocks';
import { InputReader, OutputWriter } from './wire';

/**
 * Input: bin l, w, h, seed, probes, pair blocks (0: none), then the cargo.
 * Output: [mismatches, probes, blocks, probes that found a block].
 */
export function checkFirstWithinJob(input: InputReader): StaticArray<i32> {
  const bin = new Bin(input.next(), input.next(), input.next(), f64.MAX_VALUE);
  const seed = <u32>input.next();
  const probes = input.next();
  const pairs = input.next();
  const cargo = input.readCargo();
  const blocks = generateBlocks(cargo, bin, cargo.count, 12000, 0, seed, null, pairs);
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
  out.push(mismatches);
  out.push(probes);
  out.push(blocks.n);
  out.push(found);
  return out.finish();
}
