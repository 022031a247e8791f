// The planner's entry points. The host calls reset() before each job, writes the job into the
// buffer inputBuffer() returns, runs one job and reads the answer at the pointer it returns.
// Every job allocates from a fresh heap (the stub runtime's reset): nothing outlives a job.
import { exitCount, resetDeadlineHit } from './block-search';
import { checkFirstWithinJob, checkFitCacheJob } from './block-index-check';
import { checkCompositeBlocksJob } from './composite-blocks-check';
import { fullestPalletJob } from './fullest-pallet';
import { layerStacksJob } from './layer-stacks';
import { loadContainersJob } from './load-containers';
import { packContainerJob } from './pack-container';
import { palletizeJob } from './palletize';
import { InputReader } from './wire';

let input: StaticArray<i32> = new StaticArray<i32>(0);
let inputLen: i32 = 0;

export function reset(): void {
  __reset();
  resetDeadlineHit();
  input = new StaticArray<i32>(0);
  inputLen = 0;
}

export function inputBuffer(length: i32): usize {
  input = new StaticArray<i32>(length);
  inputLen = length;
  return changetype<usize>(input);
}

/** The BR benchmark job: one container, boxes may be left out. */
export function packContainer(): usize {
  return changetype<usize>(packContainerJob(new InputReader(input, inputLen)));
}

/** Palletizing: SKU units onto pallets of the lane's pallet type. */
export function palletize(): usize {
  return changetype<usize>(palletizeJob(new InputReader(input, inputLen)));
}

/** Container loading: pallets, pre-built pallets and cartons into the order's containers. */
export function loadContainers(): usize {
  return changetype<usize>(loadContainersJob(new InputReader(input, inputLen)));
}

/** Mixed pallets of whole layers (src/planner/whole-layer-pallets.ts): the layer choices tried, the best one's pallets. */
export function layerStacks(): usize {
  return changetype<usize>(layerStacksJob(new InputReader(input, inputLen)));
}

/** The tests' look at the layer stacks' knapsack (fullest-pallet.ts). */
export function fullestPallet(): usize {
  return changetype<usize>(fullestPalletJob(new InputReader(input, inputLen)));
}

/** How many searches of the last job ended each way (block-search.ts EXIT_*: all placed, effort, widest beam, time limit). */
export function searchExits(kind: i32): i32 {
  return exitCount(kind);
}

/** The tests' check of the search's block scan against a plain one (block-index-check.ts). */
export function checkFirstWithin(): usize {
  return changetype<usize>(checkFirstWithinJob(new InputReader(input, inputLen)));
}

/** The tests' check of the fit cache against none (block-index-check.ts). */
export function checkFitCache(): usize {
  return changetype<usize>(checkFitCacheJob(new InputReader(input, inputLen)));
}

/** The tests' check of composite blocks (composite-blocks-check.ts). */
export function checkCompositeBlocks(): usize {
  return changetype<usize>(checkCompositeBlocksJob(new InputReader(input, inputLen)));
}
