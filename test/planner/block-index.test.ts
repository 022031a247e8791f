// The search ranks blocks by scanning them four at a time (assembly/blocks.ts firstWithin): the
// wasm checks that scan against a plain one-block-at-a-time scan on real blocks and random spaces
// (assembly/block-index-check.ts). A difference would make plans differ from before, silently.
import t from 'tap';
import { brOrientations } from '../../src/planner/checks/br-packer.js';
import { generateBrInstance } from '../../src/planner/checks/br-generator.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { ANY_ORIENTATION, pushCargo, StackPolicy, UPRIGHT_ORIENTATIONS, type WireBoxType } from '../../src/planner/wasm-wire.js';

// the check is a job the service never runs, so PlannerJob does not name it
const wasm = new PlannerWasm() as unknown as { run(job: string, input: Int32Array): Int32Array };

function check(bin: [number, number, number], cargo: WireBoxType[], seed: number, pairs: number) {
  const probes = 3000;
  const input = [...bin, seed, probes, pairs];
  pushCargo(input, cargo);
  const [, mismatches, ran, blocks, found] = wasm.run('checkFirstWithin', Int32Array.from(input));
  return { mismatches, ran, blocks: blocks!, found: found! };
}

const brCargo = (instance: number, types: number): WireBoxType[] =>
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
  const cargo: WireBoxType[] = [
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
      const input = [587, 233, 220, instance, 3000, pairs];
      pushCargo(input, brCargo(instance, types));
      const [, differ, searches, placements] = wasm.run('checkFitCache', Int32Array.from(input));
      t.equal(searches, 6);
      t.equal(differ, 0);
      t.ok(placements! > 4, `${placements} placements compared`);
    },
  );
}
