import t from 'tap';
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';
import { EUR, item, lane, line, looseBox, order, preBuilt } from './fixtures.js';
import { planChecked } from './plan.js';

const empty = lane([item('A', 40, 30, 25, 9.5)]);
const placed = (plan: OrderPlan, kind: string): number =>
  plan.containers.reduce((s, c) => s + c.placements.filter((p) => p.kind === kind).length, 0);
const reasons = (plan: OrderPlan): string[][] => plan.unplaced.map((u) => [u.kind, u.ref, String(u.count), u.reason]);

t.test('service-built pallets, pre-builts and loose boxes load together, in loading order', async (t) => {
  const plan = planChecked(t, {
    lane: empty,
    order: order({
      order_items: [line('A', 300)],
      pre_builts: [preBuilt('PB', 120, 100, 150, 600, 2)],
      loose_boxes: [looseBox('LB', 50, 40, 40, 20, 6)],
      order_containers: [{ code: '40ft', count: 2 }],
    }),
  });
  t.equal(plan.containers.length, 1);
  const c = plan.containers[0]!;
  t.equal(placed(plan, 'pallet'), plan.pallets.length);
  t.equal(placed(plan, 'pre_built'), 2);
  t.equal(placed(plan, 'loose_box'), 6);
  t.same(
    c.placements.map((p) => p.loading_order),
    c.placements.map((_, i) => i + 1),
  );
  t.ok(
    c.placements.every((p, i) => i === 0 || p.x >= c.placements[i - 1]!.x || p.z > 0),
    'loading goes from the back wall to the door',
  );
  t.ok(c.placements[0]!.x > 0, 'a part load is not pushed to the back wall: the gap is left to dunnage');
  t.ok(c.within_cog_limits);
  t.ok(c.volume_utilization > 0 && c.volume_utilization < 1);
  t.ok(c.weight_utilization > 0 && c.weight_utilization < 1);
  t.same(plan.unplaced, []);
});

t.test('the fewest containers, then the least container volume', async (t) => {
  const few = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('PB', 120, 80, 150, 400, 6)],
      order_containers: [
        { code: '40ft', count: 2 },
        { code: '20ft', count: 2 },
      ],
    }),
  });
  t.same(
    few.containers.map((c) => c.code),
    ['20ft'],
    'six pallets fit a 20ft',
  );
  const many = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('PB', 120, 80, 150, 400, 16)],
      order_containers: [
        { code: '20ft', count: 2 },
        { code: '40ft', count: 2 },
      ],
    }),
  });
  t.same(
    many.containers.map((c) => c.code),
    ['40ft'],
    'one 40ft rather than two 20ft',
  );
  const both = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('PB', 120, 80, 150, 400, 30)],
      order_containers: [
        { code: '20ft', count: 2 },
        { code: '40ft', count: 2 },
      ],
    }),
  });
  t.same(both.containers.map((c) => c.code).sort(), ['20ft', '40ft'], 'a 40ft filled, the rest in a 20ft');
});

t.test('the unplaced reasons', async (t) => {
  const plan = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('PB', 120, 80, 150, 400, 14)],
      loose_boxes: [looseBox('LONG', 700, 100, 100, 50, 1), looseBox('LEAD', 100, 100, 100, 30_000, 1)],
      order_containers: [{ code: '20ft', count: 1 }],
    }),
  });
  t.same(reasons(plan).sort(), [
    ['loose_box', 'LEAD', '1', 'over_payload'],
    ['loose_box', 'LONG', '1', 'too_large_for_every_type'],
    ['pre_built', 'PB', '3', 'out_of_containers'],
  ]);
  t.equal(placed(plan, 'pre_built'), 11, 'a 20ft floor takes eleven 120 x 80 pallets');
});

t.test('double stacking: a top pallet on a bottom pallet when the floor runs out', async (t) => {
  const stack = { double_stacked_bottom: true, double_stacked_top: true };
  const plan = planChecked(t, {
    lane: empty,
    order: order({ pre_builts: [preBuilt('PB', 120, 80, 110, 400, 20, stack)], order_containers: [{ code: '20ft', count: 1 }] }),
  });
  t.equal(placed(plan, 'pre_built'), 20);
  t.ok(plan.containers[0]!.placements.filter((p) => p.z > 0).length >= 9, 'at least nine pallets stand on others');
  const flat = planChecked(t, {
    lane: empty,
    order: order({ pre_builts: [preBuilt('PB', 120, 80, 110, 400, 20)], order_containers: [{ code: '20ft', count: 1 }] }),
  });
  t.same(reasons(flat), [['pre_built', 'PB', '9', 'out_of_containers']], 'without the flags they stay on the floor');
  const onlyTop = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('PB', 120, 80, 110, 400, 20, { double_stacked_top: true })],
      order_containers: [{ code: '20ft', count: 1 }],
    }),
  });
  t.equal(placed(onlyTop, 'pre_built'), 11, 'a top pallet needs a bottom-flagged pallet under it');
});

t.test('double stacking of cartons: two tiers, never three', async (t) => {
  const plan = planChecked(t, {
    lane: empty,
    order: order({
      loose_boxes: [
        looseBox('CUBE', 100, 100, 70, 200, 40, {
          double_stacked_bottom: true,
          double_stacked_top: true,
          rotation_y: false,
          rotation_z: false,
        }),
      ],
      order_containers: [{ code: '20ft', count: 1 }],
    }),
  });
  // 5 x 2 on the floor of a 20ft, 2 tiers of 70 cm though 3 would fit under 239 cm
  t.equal(placed(plan, 'loose_box'), 20);
  t.same(reasons(plan), [['loose_box', 'CUBE', '20', 'out_of_containers']]);
  t.ok(plan.containers[0]!.placements.every((p) => p.z === 0 || p.z === 700));
});

t.test('rotation flags: rotation_x false locks the footprint, y and z allow tilting', async (t) => {
  const wide = { rotation_x: false, rotation_y: false, rotation_z: false };
  const locked = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('ACROSS', 60, 240, 100, 300, 1, { rotation_x: false }), preBuilt('TURNS', 60, 240, 100, 300, 1)],
      loose_boxes: [looseBox('FIXED', 60, 240, 60, 50, 1, wide), looseBox('SPIN', 60, 240, 60, 50, 1, { ...wide, rotation_x: true })],
      order_containers: [{ code: '20ft', count: 1 }],
    }),
  });
  t.same(reasons(locked).sort(), [
    ['loose_box', 'FIXED', '1', 'too_large_for_every_type'],
    ['pre_built', 'ACROSS', '1', 'too_large_for_every_type'],
  ]);
  const turned = locked.containers[0]!.placements;
  t.same(turned.map((p) => [p.ref, p.l, p.w]).sort(), [
    ['SPIN #1', 2400, 600],
    ['TURNS #1', 2400, 600],
  ]);

  const tall = planChecked(t, {
    lane: empty,
    order: order({
      loose_boxes: [looseBox('UPRIGHT', 50, 50, 250, 40, 1, wide), looseBox('TILT_Y', 50, 50, 250, 40, 1, { ...wide, rotation_y: true })],
      order_containers: [{ code: '20ft', count: 1 }],
    }),
  });
  t.same(reasons(tall), [['loose_box', 'UPRIGHT', '1', 'too_large_for_every_type']]);
  t.same(
    tall.containers[0]!.placements.map((p) => [p.ref, p.l, p.w, p.h]),
    [['TILT_Y #1', 2500, 500, 500]],
    'tilted onto its length: its height runs along the container',
  );

  // rotation_z tilts about the length: the height runs across, which only a reefer's width allows
  const across = planChecked(t, {
    lane: empty,
    order: order({
      loose_boxes: [looseBox('TILT_Z', 50, 50, 228.5, 40, 1, { ...wide, rotation_z: true })],
      order_containers: [{ code: '20ft-RF', count: 1 }],
    }),
  });
  t.same(
    across.containers[0]!.placements.map((p) => [p.ref, p.l, p.w, p.h]),
    [['TILT_Z #1', 500, 2285, 500]],
  );
});

t.test('pallets that do not fit any container are reported by pallet', async (t) => {
  const tallPallets = lane([item('A', 40, 30, 25, 9.5)], [{ ...EUR, max_height: 300 }]);
  const plan = planChecked(t, {
    lane: tallPallets,
    order: order({ order_items: [line('A', 150)], order_containers: [{ code: '20ft', count: 1 }] }),
  });
  const tooTall = plan.pallets.filter((p) => p.height_mm > 2393).map((p) => p.pallet_index);
  t.ok(tooTall.length > 0);
  t.same(
    plan.unplaced.filter((u) => u.kind === 'pallet').map((u) => u.ref),
    tooTall,
  );
  t.ok(plan.unplaced.every((u) => u.reason === 'too_large_for_every_type'));
});

const count = (plan: OrderPlan): number => plan.containers[0]?.placements.length ?? 0;

t.test('identical pallets reach the standard floor counts', async (t) => {
  const floors: [string, number][] = [
    ['40ft', 25],
    ['40ft-HC', 25],
    ['20ft', 11],
    ['45ft-HC', 27],
  ];
  for (const [code, n] of floors) {
    const plan = planChecked(t, {
      lane: empty,
      order: order({ pre_builts: [preBuilt('EUR', 120, 80, 150, 500, 30)], order_containers: [{ code: code as '20ft', count: 1 }] }),
    });
    t.equal(count(plan), n, `${n} EUR pallets in a ${code}`);
    t.ok(plan.containers[0]!.within_cog_limits, `the ${code} is balanced`);
  }
  const inches = lane([], [EUR], { length: 'in', weight: 'lb' });
  for (const [code, n] of [
    ['40ft', 20],
    ['20ft', 9],
  ] as const) {
    const plan = planChecked(t, {
      lane: inches,
      order: order({ pre_builts: [preBuilt('GMA', 48, 40, 50, 1100, 30)], order_containers: [{ code, count: 1 }] }),
    });
    t.equal(count(plan), n, `${n} GMA pallets in a ${code}`);
  }
});

t.test('double stacking where both flags allow it and the height fits: 50 EUR pallets of 110 cm in one 40ft-HC', async (t) => {
  const stack = { double_stacked_bottom: true, double_stacked_top: true };
  const plan = planChecked(t, {
    lane: empty,
    order: order({ pre_builts: [preBuilt('P', 120, 80, 110, 400, 50, stack)], order_containers: [{ code: '40ft-HC', count: 1 }] }),
  });
  t.equal(count(plan), 50);
  t.equal(plan.containers[0]!.placements.filter((p) => p.z > 0).length, 25, 'half of them on the other half');
  const tall = planChecked(t, {
    lane: empty,
    order: order({ pre_builts: [preBuilt('P', 120, 80, 125, 400, 50, stack)], order_containers: [{ code: '40ft', count: 2 }] }),
  });
  t.same(
    tall.containers.map((c) => c.placements.length),
    [25, 25],
    'two of 125 cm do not fit under 239 cm: one tier',
  );
});

t.test('weight distribution: 8 pre-built pallets of 2 t and 12 light ones in a 40ft', async (t) => {
  const plan = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('HEAVY', 120, 80, 150, 2000, 8), preBuilt('LIGHT', 120, 80, 150, 150, 12)],
      order_containers: [{ code: '40ft', count: 1 }],
    }),
  });
  const c = plan.containers[0]!;
  t.equal(c.placements.length, 20);
  t.equal(c.cargo_weight_g, 8 * 2_000_000 + 12 * 150_000);
  t.ok(c.within_cog_limits);
  const g = c.center_of_gravity_mm!;
  t.ok(Math.abs(g.x - 12_032 / 2) <= 601 && Math.abs(g.y - 2352 / 2) <= 117, `centre of gravity ${g.x}, ${g.y} within 5 %`);
  t.ok(Math.min(...c.placements.map((p) => p.x)) > 0, 'rows are not pushed to the back wall');
  t.ok(
    Math.min(...c.placements.map((p) => p.y)) > 0 && Math.max(...c.placements.map((p) => p.y + p.w)) < 2352,
    'nor to a side wall: the gaps are left to dunnage',
  );
});

t.test('where no plan meets the centre-of-gravity limits, the container says so with its figures, and still loads', async (t) => {
  // two pallets as wide as the container and half its length each: nowhere to move the weight to
  const plan = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('HEAVY', 290, 235, 150, 10_000, 1), preBuilt('LIGHT', 290, 235, 150, 100, 1)],
      order_containers: [{ code: '20ft', count: 1 }],
    }),
  });
  const c = plan.containers[0]!;
  t.equal(c.placements.length, 2);
  t.equal(c.within_cog_limits, false);
  t.ok(
    Math.abs(c.center_of_gravity_mm!.x - 5898 / 2) > 295,
    `centre of gravity ${c.center_of_gravity_mm!.x} mm along a 5,898 mm container`,
  );
  t.same(plan.unplaced, []);
});

t.test('containers per spec 2.8: each listed type up to its count, the fewest, then the least volume', async (t) => {
  const counted = planChecked(t, {
    lane: empty,
    order: order({ pre_builts: [preBuilt('P', 120, 80, 150, 400, 30)], order_containers: [{ code: '20ft', count: 2 }] }),
  });
  t.same(
    counted.containers.map((c) => c.code),
    ['20ft', '20ft'],
    'exactly the count given',
  );
  t.same(reasons(counted), [['pre_built', 'P', '8', 'out_of_containers']]);
  const five = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('P', 120, 80, 150, 400, 130)],
      order_containers: [
        { code: '40ft', count: 5 },
        { code: '20ft', count: 5 },
      ],
    }),
  });
  t.same(
    five.containers.map((c) => c.code),
    ['40ft', '40ft', '40ft', '40ft', '40ft', '20ft'],
    '125 in five 40ft, the last 5 in a 20ft',
  );
  t.same(five.unplaced, []);
  const heavy = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('P', 120, 80, 150, 1400, 25)],
      order_containers: [
        { code: '40ft', count: 5 },
        { code: '20ft', count: 5 },
      ],
    }),
  });
  t.same(
    heavy.containers.map((c) => [c.code, c.placements.length]),
    [
      ['40ft', 19],
      ['20ft', 6],
    ],
    '35 t: a 40ft takes 19 (its payload), a 20ft the other 6',
  );
  t.ok(heavy.containers.every((c) => c.within_cog_limits));
  const both = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('H', 120, 80, 150, 1400, 30), preBuilt('L', 120, 80, 150, 200, 20)],
      order_containers: [{ code: '40ft', count: 5 }],
    }),
  });
  t.same(
    both.containers.map((c) => c.placements.length),
    [25, 25],
    '46 t on 50 floor places: heavy and light share both 40ft (payload and floor both bind)',
  );
  t.ok(both.containers.every((c) => c.cargo_weight_g <= c.payload_g && c.within_cog_limits));
  const smaller = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('P', 120, 80, 150, 400, 30)],
      order_containers: [
        { code: '45ft-HC', count: 5 },
        { code: '40ft-HC', count: 5 },
      ],
    }),
  });
  t.same(
    smaller.containers.map((c) => c.code),
    ['40ft-HC', '40ft-HC'],
    'two 40ft-HC hold 30 with less volume than a 45ft-HC and a 40ft-HC',
  );
});

t.test('cargo heavier than a payload: each container still fills the places its floor has for every kind', async (t) => {
  // 37 t in all: the first 40ft is loaded from more than its payload, yet its floor (20 heavy pallets
  // and a row of 4 crates, 15 t) is within it; a crate row left empty there pushes 8 crates beside
  // the last pallets and pre-builts, more than a 20ft's floor takes
  const plan = planChecked(t, {
    lane: empty,
    order: order({
      pre_builts: [preBuilt('HEAVY', 121.9, 101.6, 200, 750, 44), preBuilt('MACHINE', 120, 100, 140, 620, 4)],
      loose_boxes: [looseBox('CRATE', 80, 60, 50, 45, 12)],
      order_containers: [
        { code: '40ft', count: 5 },
        { code: '20ft', count: 5 },
      ],
    }),
  });
  t.same(
    plan.containers.map((c) => c.code),
    ['40ft', '40ft', '20ft'],
  );
  t.same(
    plan.containers.map((c) => c.placements.filter((p) => p.kind === 'loose_box').length),
    [4, 4, 4],
    'a row of 4 crates in each',
  );
  t.ok(plan.containers.every((c) => c.cargo_weight_g <= c.payload_g && c.within_cog_limits));
  t.same(plan.unplaced, []);
});

t.test('thousands of carton sizes: the time limit stops the floor plans, the plan says so and stays valid', async (t) => {
  const rows = Array.from({ length: 2000 }, (_, i) => looseBox(`B${i}`, 20 + (i % 97), 15 + ((i * 7) % 83), 10 + ((i * 13) % 61), 5, 3));
  const input = {
    lane: empty,
    order: order({
      loose_boxes: rows,
      order_containers: [
        { code: '40ft', count: 5 },
        { code: '20ft', count: 5 },
      ],
    }),
  };
  const plan = planChecked(t, input, undefined, 300);
  t.ok(plan.metrics.time_limited);
  t.ok(
    plan.containers.every((c) => c.placements.length > 0),
    'no empty container is listed',
  );
  t.equal(plan.containers.reduce((s, c) => s + c.placements.length, 0) + plan.unplaced.reduce((s, u) => s + u.count, 0), 6000);
});
