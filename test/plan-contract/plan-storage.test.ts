// OrderPlanned stores the plan compact: identical units as blocks, identical pallets once. What is
// read back is the plan as planned; plans stored whole before this form still read.
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { LaneDocument } from '../../src/master-data/master-data-document.js';
import { DEFAULT_EFFORT, planOrder } from '../../src/planner/plan-order.js';
import { compactPlan, expandPlan, storedPalletContents } from '../../src/plan-contract/plan-storage.js';
import { plannerInput } from '../../src/planning/planner-input.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { validatePlan } from '../../src/planner/checks/validate-plan.js';
import { item, lane, line, looseBox, order, preBuilt } from '../planner/fixtures.js';
import { planChecked } from '../planner/plan.js';

const demo = (
  JSON.parse(readFileSync(new URL('../../../demo/master-data.json', import.meta.url), 'utf8')) as {
    company_groups: { lanes: LaneDocument[] }[];
  }
).company_groups[0]!.lanes[0]!;

const stored = (plan: Parameters<typeof compactPlan>[0]): unknown => JSON.parse(JSON.stringify(compactPlan(plan)));

t.test('a plan read back from its stored form is the plan as planned', async (t) => {
  const plan = planChecked(t, {
    lane: lane([item('A', 40, 30, 25, 9.5), item('B', 60, 40, 30, 14, true), item('C', 33, 22, 18, 4)]),
    order: order({
      order_items: [line('A', 130, 'PO-1', '1'), line('A', 70, 'PO-2', '1'), line('B', 45), line('C', 170)],
      pre_builts: [preBuilt('PB', 120, 80, 110, 400, 3)],
      loose_boxes: [looseBox('LB', 50, 40, 40, 20, 5)],
    }),
  });
  const back = expandPlan(stored(plan));
  t.same(back, plan);
  t.same(
    storedPalletContents(stored(plan)),
    plan.pallets.map((p) => ({ pallet_index: p.pallet_index, pallet_code: p.pallet_code, contents: p.contents })),
  );
});

t.test('a plan stored whole (before the compact form) reads as it is', async (t) => {
  const plan = planChecked(t, { lane: lane([item('A', 40, 30, 25, 9.5)]), order: order({ order_items: [line('A', 100)] }) });
  const whole = JSON.parse(JSON.stringify(plan)) as unknown;
  t.same(expandPlan(whole), plan);
  t.same(
    storedPalletContents(whole).map((p) => p.pallet_index),
    plan.pallets.map((p) => p.pallet_index),
  );
});

t.test('containers keep fields the planner adds, and placements out of loading order stay as they are', async (t) => {
  const plan = planChecked(t, { lane: lane([item('A', 40, 30, 25, 9.5)]), order: order({ order_items: [line('A', 100)] }) });
  const odd = structuredClone(plan);
  const c = odd.containers[0]! as (typeof odd.containers)[0] & { note?: string };
  c.note = 'kept';
  c.placements.reverse();
  t.same(expandPlan(stored(odd)), odd);
});

t.test('a 100,000-unit plan is stored far below the 1 MiB append limit', async (t) => {
  const input = {
    lane: demo,
    order: order({
      order_items: ['SKU-1001', 'SKU-1002', 'SKU-1003', 'SKU-1004'].flatMap((sku, i) => [
        line(sku, 12_500, 'PO-1', String(i + 1)),
        line(sku, 12_500, 'PO-2', String(i + 1)),
      ]),
      order_containers: [{ code: '40ft-HC', count: 200 }],
    }),
  };
  const plan = planOrder(new PlannerWasm(), plannerInput(input), { timeLimitMs: 20_000, effort: DEFAULT_EFFORT });
  t.equal(plan.metrics.units_palletized, 100_000);
  const whole = JSON.stringify(plan).length;
  const compact = JSON.stringify(compactPlan(plan)).length;
  t.comment(
    `100,000 units on ${plan.pallets.length} pallets: ${(whole / 2 ** 20).toFixed(1)} MiB whole, ${(compact / 1024).toFixed(0)} KiB stored`,
  );
  t.ok(compact < 256 * 1024, `${compact} bytes stored, under a quarter of 1 MiB`);
  const storedForm = JSON.parse(JSON.stringify(compactPlan(plan))) as { pallets: unknown[] };
  t.ok(
    storedForm.pallets.length < plan.pallets.length / 10,
    `identical pallets stored once: ${storedForm.pallets.length} entries for ${plan.pallets.length} pallets`,
  );
  t.same(
    storedPalletContents(storedForm),
    plan.pallets.map((p) => ({ pallet_index: p.pallet_index, pallet_code: p.pallet_code, contents: p.contents })),
    'pallet contents read without expanding',
  );
  const back = expandPlan(storedForm);
  t.same(validatePlan(input, back), [], 'what is read back passes the validator');
  t.equal(
    back.pallets.reduce((s, p) => s + p.units.length, 0),
    100_000,
    'every unit is listed again',
  );
});
