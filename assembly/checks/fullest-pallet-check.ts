// The tests' look at the layer stacks' knapsack (../fullest-pallet.ts fullest, test/planner/fullest-pallet.test.ts):
// given layer kinds and a pallet's load height and weight, the layers it picks.
import { fullest } from '../fullest-pallet';
import { InputReader, OutputWriter } from '../wire';
import { pushPick, readFullestPalletInput } from '../wire-layout';

/** The job's input and answer: wire-layout.ts FullestPalletInput and FullestPalletAnswer. */
export function fullestPalletJob(input: InputReader): StaticArray<i32> {
  const job = readFullestPalletInput(input);
  const n = job.kinds.length;
  const height = new StaticArray<i32>(n);
  const weightG = new StaticArray<f64>(n);
  const count = new StaticArray<i32>(n);
  for (let i = 0; i < n; i++) {
    height[i] = job.kinds[i].height;
    weightG[i] = <f64>job.kinds[i].weightG;
    count[i] = job.kinds[i].count;
  }
  const kind = new StaticArray<i32>(n);
  const layers = new StaticArray<i32>(n);
  const picked = fullest(job.loadHeight, <f64>job.loadWeightG, n, height, weightG, count, kind, layers);
  const out = new OutputWriter(2 + 2 * n);
  out.push(picked);
  for (let p = 0; p < picked; p++) pushPick(out, kind[p], layers[p]);
  return out.finish();
}
