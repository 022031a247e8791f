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

t.test('the road: only for the modes the lane holds to it, in grams with tares up and limits down', async (t) => {
  const onRoad = { ...lane([item('A', 40, 30, 25, 9.5)]), road_profile: 'US' as const };
  const truck = plannerInput({ lane: onRoad, order: order({ transportation_mode: 'TruckFTL', order_items: [line('A', 1)] }) });
  // 80,000 lb = 36,287,389.6 g: a limit, down; 10,000 lb = 4,535,923.7 g: a tare, up
  t.equal(truck.road?.profile, 'US');
  t.equal(truck.road?.chassis['40ft']?.grossLimitG, 36_287_389);
  t.equal(truck.road?.tractor.steerTareG, 4_535_924);
  t.equal(truck.road?.tractor.driveMinShare, 0);
  const ship = plannerInput({ lane: onRoad, order: order({ transportation_mode: 'OceanFCL', order_items: [line('A', 1)] }) });
  t.notOk('road' in ship, 'OceanFCL: no road rule unless the lane says so');
  const toPort = plannerInput({
    lane: { ...onRoad, road_profile: 'EU', road_profile_modes: ['OceanFCL'] },
    order: order({ transportation_mode: 'OceanFCL', order_items: [line('A', 1)] }),
  });
  t.equal(toPort.road?.profile, 'EU');
  t.equal(toPort.road?.tractor.driveMinShare, 0.25);
  const noProfile = plannerInput({
    lane: lane([item('A', 40, 30, 25, 9.5)]),
    order: order({ transportation_mode: 'TruckFTL', order_items: [line('A', 1)] }),
  });
  t.notOk('road' in noProfile, 'no profile: no road rule, as before');
});

t.test('what a unit bears: in grams rounded down; not stackable bears nothing; no limit stays absent', async (t) => {
  const items = [
    { ...item('A', 40, 30, 25, 9.5), max_load_on_top: 10.0001 },
    { ...item('B', 40, 30, 25, 9.5), stackable: false, max_load_on_top: 50 },
    item('C', 40, 30, 25, 9.5),
  ];
  const input = plannerInput({
    lane: lane(items, [EUR], { length: 'cm', weight: 'lb' }),
    order: order({
      order_items: [line('A', 1), line('B', 1), line('C', 1)],
      loose_boxes: [
        looseBox('Box', 20, 10, 10, 5, 4, { max_load_on_top: '2.000000' }),
        looseBox('Flat', 20, 10, 10, 5, 1, { stackable: false }),
      ],
    }),
  });
  // 10.0001 lb = 4,535.97 g, down
  t.same(
    input.items.map((i) => i.maxLoadG),
    [4535, 0, undefined],
  );
  t.notOk('maxLoadG' in input.items[2]!);
  t.same(
    input.looseBoxes.map((b) => b.maxLoadG),
    [907, 0],
  );
});
