// The search ranks blocks by scanning them four at a time (assembly/blocks.ts firstWithin): the
// wasm checks that scan against a plain one-block-at-a-time scan on real blocks and random spaces
// (assembly/checks/block-index-check.ts, in the tests' build). A difference would make plans differ
// from before, silently.
import t from 'tap';
import { brOrientations } from '../../src/planner/checks/br-packer.js';
import { generateBrInstance } from '../../src/planner/checks/br-generator.js';
import {
  ANY_ORIENTATION,
  type BoxType,
  readCheckFirstWithinAnswer,
  readCheckFitCacheAnswer,
  StackPolicy,
  UPRIGHT_ORIENTATIONS,
  writeCheckFirstWithinInput,
  writeCheckFitCacheInput,
} from '../../src/planner/wasm-wire.js';
import { checksWasm } from './checks-wasm.js';

// the checks are jobs of the tests' build only
const wasm = checksWasm();

function check(bin: [number, number, number], cargo: BoxType[], seed: number, pairs: number) {
  const probes = 3000;
  const [l, w, h] = bin;
  const input = writeCheckFirstWithinInput({ l, w, h, seed, probes, composites: pairs, cargo });
  const { mismatches, probes: ran, blocks, found } = readCheckFirstWithinAnswer(wasm.run('checkFirstWithin', input));
  return { mismatches, ran, blocks, found };
}

const brCargo = (instance: number, types: number): BoxType[] =>
  generateBrInstance(instance, types).types.map((b) => ({
    l: b.dims[0],
    w: b.dims[1],
    h: b.dims[2],
    weightG: 0,
    count: b.count,
    orientations: brOrientations(b),
    policy: StackPolicy.Free,
    canTop: true,
    stackClass: 0,
  }));

for (const [instance, types, pairs] of [
  [1, 3, 0],
  [7, 20, 0],
  [13, 50, 4000],
  [99, 100, 4000],
] as const) {
  t.test(`BR cargo of ${types} types${pairs ? ' with pair blocks' : ''}: the grouped scan finds what the plain scan finds`, async (t) => {
    const r = check([587, 233, 220], brCargo(instance, types), instance, pairs);
    t.equal(r.ran, 3000);
    t.equal(r.mismatches, 0);
    // the probes exercised both outcomes, on more blocks than one group
    t.ok(r.blocks > 100, `${r.blocks} blocks`);
    t.ok(r.found > 0 && r.found < 3000, `${r.found} of 3000 probes found a block`);
  });
}

t.test('pallet cargo in mm: the grouped scan finds what the plain scan finds', async (t) => {
  const cargo: BoxType[] = [
    {
      l: 400,
      w: 300,
      h: 250,
      weightG: 8000,
      count: 120,
      orientations: UPRIGHT_ORIENTATIONS,
      policy: StackPolicy.Free,
      canTop: true,
      stackClass: 0,
    },
    {
      l: 333,
      w: 211,
      h: 170,
      weightG: 3000,
      count: 250,
      orientations: ANY_ORIENTATION,
      policy: StackPolicy.Free,
      canTop: true,
      stackClass: 0,
    },
    {
      l: 597,
      w: 397,
      h: 311,
      weightG: 15000,
      count: 33,
      orientations: UPRIGHT_ORIENTATIONS,
      policy: StackPolicy.Free,
      canTop: true,
      stackClass: 0,
    },
  ];
  const r = check([1200, 800, 1900], cargo, 5, 0);
  t.equal(r.mismatches, 0);
  t.ok(r.blocks > 100, `${r.blocks} blocks`);
  t.ok(r.found > 0 && r.found < 3000, `${r.found} of 3000 probes found a block`);
});

// The fit cache (assembly/fit-cache.ts) lists the blocks a space size admits once and reads the
// list after, and a beam takes what an earlier beam of the run found for a child (child-memo.ts):
// the same searches with and without them must load exactly alike, and count the same effort.
for (const [instance, types, pairs] of [
  [2, 3, 0],
  [9, 30, 4000],
  [55, 80, 4000],
] as const) {
  t.test(
    `BR cargo of ${types} types: searches with the fit cache, reused greedy runs and reused children load exactly as without`,
    async (t) => {
      const input = writeCheckFitCacheInput({
        l: 587,
        w: 233,
        h: 220,
        seed: instance,
        effort: 3000,
        composites: pairs,
        cargo: brCargo(instance, types),
      });
      const { differ, searches, placements } = readCheckFitCacheAnswer(wasm.run('checkFitCache', input));
      t.equal(searches, 6);
      t.equal(differ, 0);
      t.ok(placements > 4, `${placements} placements compared`);
    },
  );
}
