// The tests' check of composite blocks (../composite-blocks.ts, test/planner/composite-blocks.test.ts),
// a job of the tests' build: every composite generated for a cargo is checked on its own terms, leaf by leaf.
import { Bin, cargoOf } from '../cargo';
import { Blocks, generateBlocks } from '../blocks';
import { COMPOSITE_MIN_FILL, withCompositeBlocks } from '../composite-blocks';
import { InputReader, OutputWriter } from '../wire';
import { pushCheckCompositeBlocksAnswer, readCheckCompositeBlocksInput } from '../wire-layout';

/**
 * The job's input and answer: wire-layout.ts CheckCompositeBlocksInput and CheckCompositeBlocksAnswer.
 * The rules: leaves are blocks of one kind inside the bounding box and apart; a leaf above the
 * floor stands wholly on tops of leaves; the leaves' volume is the block's and fills
 * COMPOSITE_MIN_FILL of the box; count is the leaves' boxes, and no type takes more than it has.
 */
export function checkCompositeBlocksJob(input: InputReader): StaticArray<i32> {
  const job = readCheckCompositeBlocksInput(input);
  const bin = new Bin(job.l, job.w, job.h, f64.MAX_VALUE);
  const seed = <u32>job.seed;
  const composites = job.composites;
  const stacked = job.stacked;
  const cargo = cargoOf(job.cargo);
  const blocks = withCompositeBlocks(generateBlocks(cargo, bin, cargo.count, 12000, 0, seed), cargo, bin, cargo.count, composites, stacked);
  let found = 0, failing = 0, withStack = 0, mostLeaves = 0;
  const used = new StaticArray<i32>(cargo.n);
  for (let b = 0; b < blocks.n; b++) {
    const n = blocks.leafLen[b];
    if (n == 0) continue;
    found++;
    mostLeaves = max(mostLeaves, n);
    if (!compositeHolds(blocks, b, cargo.count, used)) failing++;
    const s = blocks.leafStart[b];
    for (let j = s; j < s + n; j++) {
      if (blocks.leafZ[j] > 0) {
        withStack++;
        break;
      }
    }
  }
  const out = new OutputWriter(8);
  pushCheckCompositeBlocksAnswer(out, found, failing, withStack, mostLeaves);
  return out.finish();
}

function compositeHolds(blocks: Blocks, b: i32, counts: StaticArray<i32>, used: StaticArray<i32>): bool {
  const s = blocks.leafStart[b], e = s + blocks.leafLen[b];
  const l = blocks.l[b], w = blocks.w[b], h = blocks.h[b];
  let volume: f64 = 0;
  let boxes = 0;
  for (let t = 0; t < used.length; t++) used[t] = 0;
  for (let j = s; j < e; j++) {
    const f = blocks.leafBlock[j];
    if (f < 0 || f >= blocks.n || blocks.leafLen[f] != 0) return false;
    const x = blocks.leafX[j], y = blocks.leafY[j], z = blocks.leafZ[j];
    if (x < 0 || y < 0 || z < 0 || x + blocks.l[f] > l || y + blocks.w[f] > w || z + blocks.h[f] > h) return false;
    if (blocks.l[f] != blocks.nx[f] * blocks.ul[f] || blocks.w[f] != blocks.ny[f] * blocks.uw[f] || blocks.h[f] != blocks.nz[f] * blocks.uh[f]) return false;
    volume += <f64>blocks.l[f] * <f64>blocks.w[f] * <f64>blocks.h[f];
    boxes += blocks.count[f];
    used[blocks.type[f]] += blocks.count[f];
    let below: f64 = 0;
    for (let i = s; i < e; i++) {
      if (i == j) continue;
      const g = blocks.leafBlock[i];
      const ox = min(x + blocks.l[f], blocks.leafX[i] + blocks.l[g]) - max(x, blocks.leafX[i]);
      const oy = min(y + blocks.w[f], blocks.leafY[i] + blocks.w[g]) - max(y, blocks.leafY[i]);
      const oz = min(z + blocks.h[f], blocks.leafZ[i] + blocks.h[g]) - max(z, blocks.leafZ[i]);
      if (ox > 0 && oy > 0 && oz > 0) return false;
      if (ox > 0 && oy > 0 && blocks.leafZ[i] + blocks.h[g] == z) below += <f64>ox * <f64>oy;
    }
    if (z > 0 && below != <f64>blocks.l[f] * <f64>blocks.w[f]) return false;
  }
  for (let t = 0; t < used.length; t++) if (used[t] > counts[t]) return false;
  return boxes == blocks.count[b] && volume == blocks.volume[b] && volume >= COMPOSITE_MIN_FILL * <f64>l * <f64>w * <f64>h;
}
