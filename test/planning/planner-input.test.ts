// The one adapter from a submitted order and its lane to the planner's input: whole millimetres
// and grams whatever the lane's units, cargo rounded up and limits down, whole units per line.
import t from 'tap';
import { plannerInput, togetherInput } from '../../src/planning/planner-input.js';
import { EUR, item, lane, line, looseBox, order, preBuilt } from '../planner/fixtures.js';

t.test('a lane in inches and pounds becomes millimetres and grams', async (t) => {
  const theLane = lane(
    [item('A', 10, 8.5, 6, 2.2, true), item('UNUSED', 1, 1, 1, 1)],
    [{ code: 'US', length: 48, width: 40, height: 5.5, weight: 40, max_height: 80, max_weight: 2500 }],
    { length: 'in', weight: 'lb' },
  );
  const input = plannerInput({
    lane: theLane,
    order: order({
      order_items: [line('A', '2.5', 'PO-9', '1'), line('NO-MASTER', 3)],
      pre_builts: [preBuilt('Crate', 40, 40, 30, 100, 2, { double_stacked_bottom: true })],
      loose_boxes: [looseBox('Box', 20, 10, 10, 5, 4, { rotation_y: false })],
      order_containers: [
        { code: '40ft', count: 2, exact: true },
        { code: '20ft', count: 5 },
      ],
    }),
    palletCode: 'US',
    seed: 7,
  });
  // 48 in = 1219.2 mm, a deck never grows: 1219; 5.5 in = 139.7 mm, a pallet never shrinks: 140
  t.same(input.palletTypes, [
    { code: 'US', l: 1219, w: 1016, h: 140, weightG: 18_144, loadHeight: 2032 - 140, loadWeightG: 1_133_980 - 18_144 },
  ]);
  // 8.5 in = 215.9 mm -> 216; 2.2 lb = 997.9 g -> 998; only the items the order names
  t.same(input.items, [{ sku: 'A', l: 254, w: 216, h: 153, weightG: 998, upright: true }]);
  t.same(
    input.lines,
    [
      { sku: 'A', purchase_order: 'PO-9', line_item_number: '1', units: 3 },
      { sku: 'NO-MASTER', purchase_order: '', line_item_number: '', units: 3 },
    ],
    'part of a unit ships as a unit',
  );
  t.same(input.preBuilts, [
    {
      name: 'Crate',
      l: 1016,
      w: 1016,
      h: 762,
      weightG: 45_360,
      count: 2,
      double_stacked_bottom: true,
      double_stacked_top: false,
      rotation_x: true,
    },
  ]);
  t.same(input.looseBoxes, [
    {
      name: 'Box',
      l: 508,
      w: 254,
      h: 254,
      weightG: 2268,
      count: 4,
      double_stacked_bottom: false,
      double_stacked_top: false,
      rotation_x: true,
      rotation_y: false,
      rotation_z: true,
    },
  ]);
  t.same(input.containers, [
    { code: '40ft', count: 2, exact: true },
    { code: '20ft', count: 5 },
  ]);
  t.equal(input.palletCode, 'US');
  t.equal(input.seed, 7);
  t.same(JSON.parse(JSON.stringify(input)), input, 'plain JSON: it goes to a worker as it is');
});

t.test('without a pallet code or seed the input names none', async (t) => {
  const input = plannerInput({ lane: lane([item('A', 40, 30, 25, 9.5)], [EUR]), order: order({ order_items: [line('A', 1)] }) });
  t.notOk('palletCode' in input);
  t.notOk('seed' in input);
  t.same(
    input.palletTypes.map((p) => [p.l, p.w, p.h, p.loadHeight]),
    [[1200, 800, 144, 2200 - 144]],
  );
});

t.test('orders planned together each get their input on the one lane', async (t) => {
  const theLane = lane([item('A', 40, 30, 25, 9.5), item('B', 30, 20, 20, 3)]);
  const together = togetherInput(theLane, [
    { service_ref: 'SO-1', order: order({ order_items: [line('A', 2)] }) },
    { service_ref: 'SO-2', order: order({ order_items: [line('B', 1)] }) },
  ]);
  t.same(
    together.orders.map((o) => o.service_ref),
    ['SO-1', 'SO-2'],
  );
  t.same(
    together.orders.map((o) => o.input.items.map((i) => i.sku)),
    [['A'], ['B']],
  );
  t.same(together.orders[0]!.input, plannerInput({ lane: theLane, order: order({ order_items: [line('A', 2)] }) }));
});
