// The planner's entry points, the service's build (build/planner.wasm). The host calls reset() before
// each job, writes the job into the buffer inputBuffer() returns, runs one job and reads the answer at
// the pointer it returns. Every job allocates from a fresh heap (the stub runtime's reset): nothing
// outlives a job. What each job reads and answers: wire-layout.ts. The tests' build
// (checks/index.ts) exports these and the jobs only the tests run.
import { exitCount, resetDeadlineHit } from './block-search';
import { jobInput, newJobInput } from './job-input';
import { layerStacksJob } from './layer-stacks';
import { loadContainersJob } from './load-containers';
import { packContainerJob } from './pack-container';
import { palletizeJob } from './palletize';

export function reset(): void {
  __reset();
  resetDeadlineHit();
  newJobInput(0);
}

export function inputBuffer(length: i32): usize {
  return newJobInput(length);
}

/** The BR benchmark job: one container, boxes may be left out. */
export function packContainer(): usize {
  return changetype<usize>(packContainerJob(jobInput()));
}

/** Palletizing: SKU units onto pallets of the lane's pallet type. */
export function palletize(): usize {
  return changetype<usize>(palletizeJob(jobInput()));
}

/** Container loading: pallets, pre-built pallets and cartons into the order's containers. */
export function loadContainers(): usize {
  return changetype<usize>(loadContainersJob(jobInput()));
}

/** Mixed pallets of whole layers (src/planner/whole-layer-pallets.ts): the layer choices tried, the best one's pallets. */
export function layerStacks(): usize {
  return changetype<usize>(layerStacksJob(jobInput()));
}

/** How many searches of the last job ended each way (wire-layout.ts EXIT_*: all placed, effort, widest beam, time limit). */
export function searchExits(kind: i32): i32 {
  return exitCount(kind);
}
