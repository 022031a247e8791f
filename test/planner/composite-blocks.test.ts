// Composite blocks (assembly/composite-blocks.ts), the BR job's blocks of several parts: side by
// side as tall, or one on another. The wasm checks every composite generated for a cargo leaf by
// leaf (assembly/checks/composite-blocks-check.ts, a job of the tests' build): inside its bounding
// box, parts apart, every part above the floor wholly on parts below, 98 % of the box filled, no type used beyond its count. Loads
// built from them are checked by the independent validator (checks/br-packer.test.ts, bench:packing).
import t from 'tap';
import { brOrientations } from '../../src/planner/checks/br-packer.js';
import { generateBrInstance } from '../../src/planner/checks/br-generator.js';
import {
  type BoxType,
  readCheckCompositeBlocksAnswer,
  StackPolicy,
  UPRIGHT_ORIENTATIONS,
  writeCheckCompositeBlocksInput,
} from '../../src/planner/wasm-wire.js';
import { checksWasm } from './checks-wasm.js';

// the check is a job of the tests' build only
const wasm = checksWasm();

function check(bin: [number, number, number], cargo: BoxType[], seed: number, stacked: boolean) {
  const [l, w, h] = bin;
  const input = writeCheckCompositeBlocksInput({ l, w, h, seed, composites: 4000, stacked, cargo });
  return readCheckCompositeBlocksAnswer(wasm.run('checkCompositeBlocks', input));
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

for (const [instance, types] of [
  [3, 30],
  [13, 60],
  [99, 100],
] as const) {
  t.test(`BR cargo of ${types} types: every composite block holds`, async (t) => {
    const r = check([587, 233, 220], brCargo(instance, types), instance, true);
    t.ok(r.composites > 10, `${r.composites} composites`);
    t.equal(r.failing, 0);
    t.ok(r.withStack > 0, `${r.withStack} with a part on another`);
    t.equal(r.mostLeaves, 2);
  });
}

t.test('without stacking, no composite has a part on another', async (t) => {
  const r = check([587, 233, 220], brCargo(13, 60), 13, false);
  t.ok(r.composites > 0);
  t.equal(r.failing, 0);
  t.equal(r.withStack, 0);
});

t.test('two boxes of one footprint make the stacked pairs and nothing side by side', async (t) => {
  const box = (h: number): BoxType => ({
    l: 50,
    w: 40,
    h,
    weightG: 0,
    count: 1,
    orientations: UPRIGHT_ORIENTATIONS,
    policy: StackPolicy.Free,
    canTop: true,
    stackClass: 0,
  });
  // each on the other, both ways round in the plane; the heights differ, so none side by side
  const r = check([200, 200, 200], [box(30), box(20)], 1, true);
  t.equal(r.composites, 4);
  t.equal(r.withStack, 4);
  t.equal(r.failing, 0);
});

t.test('nothing stands on a box that may carry nothing', async (t) => {
  const r = check(
    [200, 200, 200],
    [
      {
        l: 50,
        w: 40,
        h: 30,
        weightG: 0,
        count: 1,
        orientations: UPRIGHT_ORIENTATIONS,
        policy: StackPolicy.None,
        canTop: true,
        stackClass: 0,
      },
      {
        l: 50,
        w: 40,
        h: 20,
        weightG: 0,
        count: 1,
        orientations: UPRIGHT_ORIENTATIONS,
        policy: StackPolicy.Free,
        canTop: true,
        stackClass: 0,
      },
    ],
    1,
    true,
  );
  // only the free box may be the bottom part
  t.equal(r.composites, 2);
  t.equal(r.failing, 0);
});
