// The knapsack that picks one mixed pallet's whole layers (assembly/fullest-pallet.ts, asked by
// src/planner/whole-layer-pallets.ts): given layer kinds (height, weight, how many are left) and a pallet's
// load height and weight, when it runs, then it takes the tallest fill within the weight, and among
// the tallest the one richest in the layers most left.
import t from 'tap';
import { readFullestPalletAnswer, writeFullestPalletInput } from '../../src/planner/wasm-wire.js';
import { checksWasm } from './checks-wasm.js';

// the knapsack is a job of the tests' build only
const wasm = checksWasm();

interface Kind {
  height: number;
  weightG: number;
  count: number;
}

/** The layers picked, as [kind index, how many] in the order the fill took them; [] for none. */
function fullest(loadHeight: number, loadWeightG: number, kinds: Kind[]): [number, number][] {
  const input = writeFullestPalletInput({ loadHeight, loadWeightG, kinds });
  return readFullestPalletAnswer(wasm.run('fullestPallet', input)).picks.map((p) => [p.kind, p.layers] as [number, number]);
}

/** Layers of one kind: height (mm), weight (kg), how many are left. */
const kind = (height: number, kg: number, count: number): Kind => ({ height, weightG: kg * 1000, count });
const tonnes = (t: number) => t * 1_000_000;

t.test('the tallest fill wins; among fills as tall, the one with most of the layers most left', async (t) => {
  // 5 x 400 and 2 x 400 + 4 x 300 both reach 2,000 mm: the 400 mm layers are more of what is left
  // (4,000 of 7,000 mm), so five of them
  t.same(fullest(2000, tonnes(1.5), [kind(400, 100, 10), kind(300, 100, 10)]), [[0, 5]]);
  // the 300 mm layers now make most of what is left (6,000 of 10,000 mm): of the two fills, the one
  // with more of them, two 400s and four 300s
  t.same(fullest(2000, tonnes(1.5), [kind(400, 100, 10), kind(300, 100, 20)]), [
    [0, 2],
    [1, 4],
  ]);
});

t.test('no more of a kind than are left, and no fill over the pallet weight', async (t) => {
  // one 400 mm layer left: 1 x 400 + 5 x 300 = 1,900 mm is the tallest fill
  t.same(fullest(2000, tonnes(1.5), [kind(400, 100, 1), kind(300, 100, 10)]), [
    [0, 1],
    [1, 5],
  ]);
  // 400 mm layers of 300 kg and a pallet of 1,000 kg: at most three of them, so the tallest fill
  // within the weight is 2 x 400 + 4 x 300 = 2,000 mm (640 kg), not 5 x 400
  t.same(fullest(2000, tonnes(1), [kind(400, 300, 10), kind(300, 10, 10)]), [
    [0, 2],
    [1, 4],
  ]);
  // 300 kg layers on a 1,000 kg pallet: three layers at most, whichever the kinds (3 x 400 + 2 x 300
  // would be 1,800 mm but 1,500 kg)
  t.same(fullest(2000, tonnes(1), [kind(400, 300, 10), kind(300, 300, 10)]), [[0, 3]]);
});

t.test('nothing when no layer fits the height or the weight', async (t) => {
  t.same(fullest(250, tonnes(1.5), [kind(300, 100, 4)]), []);
  t.same(fullest(2000, tonnes(0.05), [kind(300, 100, 4)]), []);
  t.same(fullest(2000, tonnes(1.5), []), []);
});
