// Loads the loader leaves outside the centre-of-gravity limits, mended by moving whole slabs: the
// pure function on boxes laid out by hand, then real orders (found by a random sweep of hostile
// orders) through the planner and the independent validator.
import t from 'tap';
import { balanceSlabs } from '../../src/planner/balance-slabs.js';
import { lane, looseBox, order, preBuilt } from './fixtures.js';
import { planChecked } from './plan.js';

interface B {
  x: number;
  y: number;
  z: number;
  l: number;
  w: number;
  h: number;
  kg: number;
}
const inner = { l: 12_000, w: 2_400 };
const kg = (b: B): number => b.kg;
const cog = (boxes: readonly B[]): { x: number; y: number } => {
  const total = boxes.reduce((s, b) => s + b.kg, 0);
  return {
    x: boxes.reduce((s, b) => s + b.kg * (b.x + b.l / 2), 0) / total,
    y: boxes.reduce((s, b) => s + b.kg * (b.y + b.w / 2), 0) / total,
  };
};
const overlaps = (a: B, b: B): boolean =>
  a.x < b.x + b.l && b.x < a.x + a.l && a.y < b.y + b.w && b.y < a.y + a.w && a.z < b.z + b.h && b.z < a.z + a.h;

t.test('a load within the limits is left exactly as laid', async (t) => {
  const boxes: B[] = [
    { x: 5000, y: 0, z: 0, l: 1000, w: 1200, h: 1000, kg: 500 },
    { x: 5000, y: 1200, z: 0, l: 1000, w: 1200, h: 1000, kg: 500 },
    { x: 6000, y: 600, z: 0, l: 1000, w: 1200, h: 1000, kg: 100 },
  ];
  t.strictSame(balanceSlabs(boxes, kg, inner), boxes);
});

t.test('heavy rows all at the front and at one wall: rows are moved and turned, boxes stay apart and on their supports', async (t) => {
  const boxes: B[] = [
    // two heavy rows at the front, each heavy at the left wall; a box stands on the first
    { x: 0, y: 0, z: 0, l: 1000, w: 800, h: 1000, kg: 3000 },
    { x: 0, y: 0, z: 1000, l: 1000, w: 800, h: 500, kg: 200 },
    { x: 0, y: 800, z: 0, l: 1000, w: 1600, h: 1000, kg: 100 },
    { x: 1000, y: 0, z: 0, l: 1000, w: 800, h: 1000, kg: 3000 },
    { x: 1000, y: 800, z: 0, l: 1000, w: 1600, h: 1000, kg: 100 },
    // light rows towards the door
    ...[2000, 4500, 7000].map((x) => ({ x, y: 0, z: 0, l: 2500, w: 2400, h: 1000, kg: 300 })),
  ];
  const before = cog(boxes);
  t.ok(
    Math.abs(before.x - inner.l / 2) > 0.05 * inner.l && Math.abs(before.y - inner.w / 2) > 0.05 * inner.w,
    `laid outside both limits (${before.x.toFixed(0)}, ${before.y.toFixed(0)})`,
  );
  const after = balanceSlabs(boxes, kg, inner);
  const c = cog(after);
  t.ok(Math.abs(c.x - inner.l / 2) <= 0.05 * inner.l, `along the length within the limits (${c.x.toFixed(0)} of ${inner.l})`);
  t.ok(Math.abs(c.y - inner.w / 2) <= 0.05 * inner.w, `across within the limits (${c.y.toFixed(0)} of ${inner.w})`);
  t.ok(
    after.every(
      (b) => b.x >= 0 && b.x + b.l <= inner.l && b.y >= 0 && b.y + b.w <= inner.w && Number.isInteger(b.x) && Number.isInteger(b.y),
    ),
    'inside the walls, whole millimetres',
  );
  t.notOk(
    after.some((a, i) => after.some((b, j) => i < j && overlaps(a, b))),
    'no two boxes overlap',
  );
  t.equal(after[1]!.x, after[0]!.x, 'the box on top moved with the box under it');
  t.equal(after[1]!.y, after[0]!.y);
  t.strictSame(
    after.map((b) => [b.z, b.l, b.w, b.h, b.kg]),
    boxes.map((b) => [b.z, b.l, b.w, b.h, b.kg]),
    'nothing but positions changes',
  );
});

t.test('a heavy box at one wall that turning cannot help slides towards the centreline, within its room', async (t) => {
  const boxes: B[] = [
    { x: 5000, y: 0, z: 0, l: 1000, w: 800, h: 1000, kg: 3000 },
    { x: 6000, y: 0, z: 0, l: 1000, w: 2400, h: 1000, kg: 1000 },
  ];
  const after = balanceSlabs(boxes, kg, inner);
  t.ok(Math.abs(cog(after).y - inner.w / 2) <= 0.05 * inner.w, `across within the limits (${cog(after).y.toFixed(0)})`);
  t.equal(after[1]!.y, 0, 'the full-width box has no room to move');
  t.ok(
    after[0]!.y > 0 && after[0]!.y + after[0]!.w <= inner.w,
    `the heavy box moved off the wall, inside the container (y ${after[0]!.y})`,
  );
});

t.test('lanes the whole length long, the heavy one at a wall: the lanes are reordered across', async (t) => {
  const lane = (y: number, kg: number): B => ({ x: 1000, y, z: 0, l: 10_000, w: 600, h: 1000, kg });
  const boxes: B[] = [lane(0, 3000), lane(600, 100), lane(1200, 100), { x: 1000, y: 0, z: 1000, l: 10_000, w: 600, h: 500, kg: 50 }];
  const after = balanceSlabs(boxes, kg, inner);
  t.ok(Math.abs(cog(after).y - inner.w / 2) <= 0.05 * inner.w, `across within the limits (${cog(after).y.toFixed(0)})`);
  t.ok(after[0]!.y > after[1]!.y || after[0]!.y > after[2]!.y, 'the heavy lane is no longer at the wall');
  t.equal(after[3]!.y, after[0]!.y, 'what stands on the heavy lane moved with it');
  t.notOk(
    after.some((a, i) => after.some((b, j) => i < j && overlaps(a, b))),
    'no two boxes overlap',
  );
  t.ok(
    after.every((b) => b.y >= 0 && b.y + b.w <= inner.w && Number.isInteger(b.y)),
    'inside the walls, whole millimetres',
  );
});

t.test('real orders the loader left unbalanced come out within the limits', async (t) => {
  const demoLane = lane([]);
  const heavyFront = {
    lane: demoLane,
    order: order({
      order_items: [],
      pre_builts: [
        preBuilt('Deck', 278, 202, 20, 700, 15, { double_stacked_top: true }),
        preBuilt('Coil', 120, 50, 46, 3653, 13, { double_stacked_bottom: true }),
      ],
      order_containers: [{ code: '40ft-HC', count: 5 }],
    }),
  };
  const heavyLeft = {
    lane: demoLane,
    order: order({
      order_items: [],
      pre_builts: [preBuilt('Press', 244, 60, 35, 2710, 12, { double_stacked_bottom: true, double_stacked_top: true })],
      loose_boxes: [
        looseBox('Panel', 207, 38, 67, 651, 20, { double_stacked_bottom: true }),
        looseBox('Crate', 244, 118, 134, 117, 20, { double_stacked_bottom: true }),
      ],
      order_containers: [{ code: '40ft', count: 5 }],
    }),
  };
  for (const [name, input] of [
    ['heavy coils at the front', heavyFront],
    ['heavy presses at one wall', heavyLeft],
  ] as const) {
    const plan = planChecked(t, input);
    t.ok(plan.containers.length > 0);
    t.strictSame(
      plan.containers.filter((c) => !c.within_cog_limits).map((c) => [c.index, c.center_of_gravity_mm]),
      [],
      `${name}: every container within the limits`,
    );
  }
});
