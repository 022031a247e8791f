// The validator must catch each broken rule: a planner plan, then one rule broken at a time.
import t, { type Test } from 'tap';
import type { OrderPlan } from '../../../src/plan-contract/plan-types.js';
import { validatePlan } from '../../../src/planner/checks/validate-plan.js';
import { EUR, GMA, item, lane, line, looseBox, order, preBuilt } from '../fixtures.js';
import { planChecked } from '../plan.js';

const input = {
  lane: lane([item('A', 40, 30, 25, 9.5), item('U', 30, 20, 20, 3, true)]),
  order: order({
    order_items: [line('A', 60, 'PO-1', '1'), line('U', 40)],
    pre_builts: [preBuilt('PB', 120, 80, 110, 400, 2, { double_stacked_bottom: true, double_stacked_top: true })],
    loose_boxes: [looseBox('LB', 50, 40, 40, 20, 3, { rotation_x: false, rotation_y: false, rotation_z: false })],
    order_containers: [{ code: '20ft', count: 1 }],
  }),
};

function broken(t: Test, what: string, mutate: (plan: OrderPlan) => void, expected: RegExp): void {
  const plan = structuredClone(planChecked(t, input));
  mutate(plan);
  const violations = validatePlan(input, plan);
  t.match(violations.join('\n'), expected, what);
}

t.test('a clean plan passes', async (t) => {
  t.same(validatePlan(input, planChecked(t, input)), []);
});

t.test('each broken rule is caught', async (t) => {
  broken(
    t,
    'overhang',
    (p) => {
      p.pallets[0]!.units[0]!.x = 1100;
    },
    /overhangs the deck|overlap/,
  );
  broken(
    t,
    'overlap on a pallet',
    (p) => {
      const [a, b] = p.pallets[0]!.units;
      b!.x = a!.x;
      b!.y = a!.y;
      b!.z = a!.z;
    },
    /overlap/,
  );
  broken(
    t,
    'floating unit',
    (p) => {
      const u = p.pallets[0]!.units.at(-1)!;
      u.z += 10;
    },
    /not fully supported|overlap|high/,
  );
  broken(
    t,
    'upright unit on its side',
    (p) => {
      const u = p.pallets.flatMap((x) => x.units).find((x) => x.sku === 'U')!;
      // its height swapped with a different side (turned about z, l may equal h)
      if (u.l !== u.h) [u.l, u.h] = [u.h, u.l];
      else [u.w, u.h] = [u.h, u.w];
    },
    /no allowed orientation/,
  );
  broken(
    t,
    'contents miscounted',
    (p) => {
      p.pallets[0]!.contents[0]!.quantity++;
    },
    /contents say/,
  );
  broken(
    t,
    'a unit lost',
    (p) => {
      p.pallets[0]!.units.pop();
    },
    /units ordered|layers/,
  );
  broken(
    t,
    'pallet over max weight',
    (p) => {
      p.pallets[0]!.weight_g = 2_000_000;
    },
    /weight_g/,
  );
  broken(
    t,
    'container overlap',
    (p) => {
      const [a, b] = p.containers[0]!.placements;
      b!.x = a!.x;
      b!.y = a!.y;
      b!.z = a!.z;
    },
    /overlap/,
  );
  broken(
    t,
    'outside the container',
    (p) => {
      p.containers[0]!.placements[0]!.x = 5800;
    },
    /outside the container/,
  );
  broken(
    t,
    'loose box turned against its flags',
    (p) => {
      const b = p.containers[0]!.placements.find((x) => x.kind === 'loose_box')!;
      [b.l, b.w] = [b.w, b.l];
    },
    /no allowed orientation/,
  );
  broken(
    t,
    'a pallet on a pallet that is not double_stacked_bottom',
    (p) => {
      const c = p.containers[0]!;
      const bottom = c.placements.find((x) => x.kind === 'pallet')!;
      const top = c.placements.find((x) => x.kind === 'pre_built')!;
      Object.assign(top, { x: bottom.x, y: bottom.y, z: bottom.h, l: 1200, w: 800 });
    },
    /not double_stacked_bottom/,
  );
  broken(
    t,
    'a third tier',
    (p) => {
      const c = p.containers[0]!;
      const [a, b] = c.placements.filter((x) => x.kind === 'pre_built');
      const lb = c.placements.find((x) => x.kind === 'loose_box')!;
      Object.assign(b!, { x: a!.x, y: a!.y, z: a!.h, l: a!.l, w: a!.w });
      Object.assign(lb, { x: a!.x, y: a!.y, z: a!.h + b!.h });
    },
    /stands on|third tier|a loose_box on a pre_built/,
  );
  broken(
    t,
    'over payload',
    (p) => {
      for (const x of p.containers[0]!.placements) x.weight_g = 10_000_000;
    },
    /over the payload/,
  );
  broken(
    t,
    'loading order before support',
    (p) => {
      const c = p.containers[0]!;
      for (const x of c.placements) x.loading_order = c.placements.length + 1 - x.loading_order;
    },
    /loading order|loads before/,
  );
  broken(
    t,
    'a container type not in the order',
    (p) => {
      p.containers[0]!.code = '40ft';
    },
    /inner size|not in the order/,
  );
  broken(
    t,
    'a pre-built loaded twice',
    (p) => {
      const c = p.containers[0]!;
      c.placements.push({
        ...c.placements.find((x) => x.kind === 'pre_built')!,
        x: 5000,
        y: 1500,
        z: 0,
        loading_order: c.placements.length + 1,
      });
    },
    /loaded twice/,
  );
  broken(
    t,
    'a load pushed to the back wall that claims a balanced centre of gravity',
    (p) => {
      const c = p.containers[0]!;
      const front = Math.min(...c.placements.map((x) => x.x));
      for (const x of c.placements) x.x -= front;
      const m = c.placements.reduce((s, x) => s + x.weight_g * (x.x + x.l / 2), 0) / c.cargo_weight_g;
      c.center_of_gravity_mm!.x = Math.round(m);
    },
    /says within the centre-of-gravity limits, but is \d+ mm outside them/,
  );
  broken(
    t,
    'a balanced load that says it is not',
    (p) => {
      p.containers[0]!.within_cog_limits = false;
    },
    /says outside the centre-of-gravity limits/,
  );
  broken(
    t,
    "a centre of gravity that is not the placements'",
    (p) => {
      p.containers[0]!.center_of_gravity_mm!.y += 40;
    },
    /centre of gravity \{/,
  );
  broken(
    t,
    'a wrong cargo weight',
    (p) => {
      p.containers[0]!.cargo_weight_g += 1000;
    },
    /cargo_weight_g/,
  );
  broken(
    t,
    'a wrong utilization',
    (p) => {
      p.containers[0]!.volume_utilization = 0.99;
    },
    /volume_utilization/,
  );
  broken(
    t,
    'a number JSON cannot hold',
    (p) => {
      p.containers[0]!.weight_utilization = NaN;
    },
    /weight_utilization does not survive JSON/,
  );
});

t.test('each pallet is checked against its own pallet type', async (t) => {
  // GMA (fixtures): 200 cm high at most, 1,200 kg; EUR: 220 cm, 1,500 kg
  const both = { lane: lane([item('X', 50, 50, 40, 10, true)], [EUR, GMA]), order: order({ order_items: [line('X', 40)] }) };
  const plan = planChecked(t, both);
  t.ok(
    plan.pallets.every((p) => p.pallet_code === 'GMA'),
    'X goes on GMA',
  );
  const check = (what: string, mutate: (p: OrderPlan) => void, expected: RegExp): void => {
    const copy = structuredClone(plan);
    mutate(copy);
    t.match(validatePlan(both, copy).join('\n'), expected, what);
  };
  check(
    "over the GMA max_height, within EUR's",
    (p) => {
      const pallet = p.pallets[0]!;
      const top = pallet.units.reduce((m, u) => Math.max(m, u.z + u.h), 0);
      pallet.units.push({ ...pallet.units[0]!, z: top, x: 0, y: 0 }, { ...pallet.units[0]!, z: top + 400, x: 0, y: 0 });
      pallet.height_mm += 800;
    },
    /over max_height of GMA/,
  );
  // the same pallets read with X at 80 kg: 16 of them weigh 1,280 kg, over GMA's limit, within EUR's
  const heavier = { ...both, lane: lane([item('X', 50, 50, 40, 80, true)], [EUR, GMA]) };
  t.match(validatePlan(heavier, plan).join('\n'), /over max_weight of GMA/, "over the GMA max_weight, within EUR's");
  check(
    'a pallet code the lane does not have',
    (p) => {
      p.pallets[0]!.pallet_code = 'CHEP';
    },
    /no pallet type of the lane/,
  );
  check(
    'an EUR code on a GMA deck',
    (p) => {
      p.pallets[0]!.pallet_code = 'EUR';
    },
    /deck 1219x1016, expected 1200x800/,
  );
  t.match(
    validatePlan({ ...both, palletCode: 'EUR' }, plan).join('\n'),
    /the input asked for EUR/,
    'a pallet code other than the one asked for',
  );
});

t.test('a count the order gave is booked: the plan must have exactly that many of the type', async (t) => {
  const booked = { ...input, order: { ...input.order, order_containers: [{ code: '20ft' as const, count: 2, exact: true as const }] } };
  const plan = planChecked(t, booked);
  t.equal(plan.containers.length, 2, 'the planner lists both booked 20ft');
  t.equal(plan.containers[1]!.placements.length, 0, 'the second empty: the cargo fits in one');
  const missing = structuredClone(plan);
  missing.containers.pop();
  t.match(
    validatePlan(booked, missing).join('\n'),
    /1 containers of 20ft, the order booked exactly 2/,
    'a booked container left out is a violation',
  );
});
