import t from 'tap';
import type { BrInstance } from '../../../src/planner/checks/br-instance.js';
import { packContainer } from '../../../src/planner/checks/br-packer.js';
import { PlannerWasm } from '../../../src/planner/planner-wasm.js';
import { generateBrInstance } from '../../../src/planner/checks/br-generator.js';
import { validateBrPacking, volumeUtilization } from '../../../src/planner/checks/validate-br-packing.js';

// BR1 instance 1 (thpack1.txt)
const BR1_1: BrInstance = {
  instance: 1,
  container: { l: 587, w: 233, h: 220 },
  types: [
    { id: 1, dims: [108, 76, 30], verticalOk: [false, false, true], count: 40 },
    { id: 2, dims: [110, 43, 25], verticalOk: [false, true, true], count: 33 },
    { id: 3, dims: [92, 81, 55], verticalOk: [true, true, true], count: 39 },
  ],
};

const wasm = new PlannerWasm();

t.test('a BR instance packs past 90 % with full support and its orientation flags', async (t) => {
  const { placements } = packContainer(wasm, BR1_1, { timeLimitMs: 500 });
  t.same(validateBrPacking(BR1_1, placements), []);
  const u = volumeUtilization(BR1_1, placements);
  t.ok(u >= 0.9, `utilization ${u}`);
  t.ok(
    placements.some((p) => p.z > 0),
    'boxes stand on boxes',
  );
  for (const p of placements.filter((x) => x.type === 1)) t.equal(p.h, 30, 'type 1 only ever stands on its 30 side');
});

t.test('with an effort budget the packing does not depend on the clock', async (t) => {
  const a = packContainer(wasm, BR1_1, { timeLimitMs: 60_000, effort: 3000 });
  const b = packContainer(wasm, BR1_1, { timeLimitMs: 60_000, effort: 3000 });
  t.ok(a.limited, 'the budget ended the search');
  t.same(a.placements, b.placements);
});

t.test('the BR validator catches broken packings', async (t) => {
  const { placements } = packContainer(wasm, BR1_1, { timeLimitMs: 100 });
  const floating = placements.map((p) => ({ ...p }));
  const top = floating.reduce((a, b) => (b.z > a.z ? b : a));
  top.z += 1;
  t.match(validateBrPacking(BR1_1, floating).join('\n'), /unsupported|outside/);
  const tipped = placements.map((p) => ({ ...p }));
  const one = tipped.find((p) => p.type === 1)!;
  [one.w, one.h] = [one.h, one.w];
  t.match(validateBrPacking(BR1_1, tipped).join('\n'), /must not be vertical|overlap|unsupported/);
  const extra = [...placements, ...placements.slice(0, 1)];
  t.match(validateBrPacking(BR1_1, extra).join('\n'), /overlap/);
});

t.test('strongly heterogeneous cargo (BR15: 100 box types, composite blocks in play) packs with full support and its flags', async (t) => {
  for (const instance of [1, 2]) {
    const inst = generateBrInstance(instance, 100);
    const { placements } = packContainer(wasm, inst, { timeLimitMs: 60_000, effort: 1500 });
    t.same(validateBrPacking(inst, placements), [], `BR15 #${instance}: no violation`);
    const u = volumeUtilization(inst, placements);
    t.ok(u >= 0.75, `BR15 #${instance}: utilization ${u}`);
  }
});

t.test('from 30 types, foresight (no beam the budget cannot finish) decides by the effort budget, not the clock', async (t) => {
  // the deadline is far: the effort budget is what binds, so foresight's estimate of the budget left
  // must come from it alone, and every round of re-seeded searches ends the same way
  const inst = generateBrInstance(3, 40);
  const a = packContainer(wasm, inst, { timeLimitMs: 60_000, effort: 1200 });
  const b = packContainer(wasm, inst, { timeLimitMs: 60_000, effort: 1200 });
  t.ok(a.limited, 'the budget ended the searches');
  t.same(a.placements, b.placements);
  t.same(validateBrPacking(inst, a.placements), []);
});

t.test('from 30 types, a short time limit still gives a full load that validates', async (t) => {
  const inst = generateBrInstance(4, 60);
  const { placements } = packContainer(wasm, inst, { timeLimitMs: 300 });
  t.same(validateBrPacking(inst, placements), []);
  const u = volumeUtilization(inst, placements);
  t.ok(u >= 0.8, `utilization ${u}`);
});
