// The tests' build of the planner (build/planner-checks.wasm, `asc assembly/checks/index.ts --target
// checks`): every export of the service's build, and the jobs only tests run, which look inside the
// planner (its knapsack, its block scan and fit cache against plain ones, its composite blocks). The
// service's build leaves these out, so nothing the service loads can run them.
import { jobInput } from '../job-input';
import { checkFirstWithinJob, checkFitCacheJob } from './block-index-check';
import { checkCompositeBlocksJob } from './composite-blocks-check';
import { fullestPalletJob } from './fullest-pallet-check';

export * from '../index';

/** The layer stacks' knapsack (../fullest-pallet.ts). */
export function fullestPallet(): usize {
  return changetype<usize>(fullestPalletJob(jobInput()));
}

/** The search's block scan against a plain one (block-index-check.ts). */
export function checkFirstWithin(): usize {
  return changetype<usize>(checkFirstWithinJob(jobInput()));
}

/** The fit cache against none (block-index-check.ts). */
export function checkFitCache(): usize {
  return changetype<usize>(checkFitCacheJob(jobInput()));
}

/** Composite blocks, leaf by leaf (composite-blocks-check.ts). */
export function checkCompositeBlocks(): usize {
  return changetype<usize>(checkCompositeBlocksJob(jobInput()));
}
