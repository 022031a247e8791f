// TruckFTL plans hold to the lane's road profile (docs/road-profiles.md): the cargo weighs no more
// than the road leaves, the axles carry no more than their limits, another container takes the rest,
// and what no container can take legally is unplaced with a reason. OceanFCL keeps the rules it had,
// unless the lane holds it to the road too. Every plan goes through the independent validator.
import t from 'tap';
import type { LaneDocument } from '../../src/master-data/master-data-document.js';
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';
import { ROAD_PRESETS, type RoadPresetName } from '../../src/plan-contract/road-profile.js';
import { EUR, lane, looseBox, order, preBuilt } from './fixtures.js';
import { planChecked } from './plan.js';
import { validatePlan } from '../../src/planner/checks/validate-plan.js';

const onRoad = (profile: LaneDocument['road_profile'], extra: Partial<LaneDocument> = {}): LaneDocument => ({
  ...lane([], [EUR]),
  transportation_modes: ['OceanFCL', 'TruckFTL'],
  container_codes: ['20ft', '40ft', '40ft-HC', '45ft-HC'],
  road_profile: profile,
  ...extra,
});
const loaded = (plan: OrderPlan) => plan.containers.filter((c) => c.placements.length > 0);
const kg = (g: number) => g / 1000;

// the issue's order: 20 pre-builts of 1,300 kg, 40ft and 20ft offered
const twentyPreBuilts = (mode: 'TruckFTL' | 'OceanFCL' = 'TruckFTL') =>
  order({
    transportation_mode: mode,
    pre_builts: [preBuilt('PB', 120, 100, 150, 1300, 20)],
    order_containers: [
      { code: '40ft', count: 5 },
      { code: '20ft', count: 5 },
    ],
  });

t.test('20 pre-builts of 1,300 kg: a 40ft carries what each road leaves it, a 20ft the rest', async (t) => {
  const expected: Record<RoadPresetName, number[]> = { EU: [18, 2], US: [16, 4], 'EU-44': [20] };
  for (const profile of ['EU', 'US', 'EU-44'] as const) {
    const plan = planChecked(t, { lane: onRoad(profile), order: twentyPreBuilts() });
    t.same(
      loaded(plan).map((c) => c.placements.length),
      expected[profile],
      `${profile}: ${loaded(plan)
        .map((c) => `${c.code} ${kg(c.cargo_weight_g)} kg`)
        .join(', ')}`,
    );
    for (const c of plan.containers) {
      t.equal(c.road?.profile, profile);
      t.ok(c.road?.within_road_limits, `${profile} ${c.code}: within the road's limits`);
      t.ok(c.road!.gross_g <= c.road!.gross_limit_g);
      for (const axle of ['steer', 'drive', 'trailer'] as const)
        t.ok(c.road!.axle_loads_g[axle] <= c.road!.axle_limits_g[axle], `${profile} ${c.code} ${axle}`);
    }
    t.same(plan.unplaced, []);
  }
});

t.test('the lever rule balances: steer, drive and trailer axles carry the gross', async (t) => {
  const plan = planChecked(t, { lane: onRoad('EU'), order: twentyPreBuilts() });
  for (const c of plan.containers) {
    const r = c.road!;
    const sum = r.axle_loads_g.steer + r.axle_loads_g.drive + r.axle_loads_g.trailer;
    t.ok(Math.abs(sum - r.gross_g) <= 3, `${c.code}: ${sum} against ${r.gross_g}`);
    t.equal(r.tare_g.container, c.code === '20ft' ? 2_280_000 : 3_780_000, 'the box: its rating less its payload');
  }
});

t.test('OceanFCL keeps the plan it had: no road block, the same containers as a lane without a profile', async (t) => {
  const withProfile = planChecked(t, { lane: onRoad('EU'), order: twentyPreBuilts('OceanFCL') });
  const without = planChecked(t, { lane: onRoad(undefined), order: twentyPreBuilts('OceanFCL') });
  t.same(
    withProfile.containers.map((c) => c.placements.length),
    [20],
  );
  t.notOk(withProfile.containers.some((c) => c.road !== undefined));
  t.same(withProfile.containers, without.containers);
});

t.test('a lane may hold OceanFCL to its road profile, for the truck to the port', async (t) => {
  const plan = planChecked(t, { lane: onRoad('EU', { road_profile_modes: ['TruckFTL', 'OceanFCL'] }), order: twentyPreBuilts('OceanFCL') });
  t.same(
    loaded(plan).map((c) => c.placements.length),
    [18, 2],
  );
  t.ok(plan.containers.every((c) => c.road?.within_road_limits));
});

t.test('a piece heavier than any container may carry on the road is unplaced, saying so with the figures', async (t) => {
  const plan = planChecked(t, {
    lane: onRoad('EU'),
    order: order({
      transportation_mode: 'TruckFTL',
      pre_builts: [preBuilt('Press', 300, 200, 200, 25_000, 1), preBuilt('Crate', 120, 100, 100, 800, 4)],
      order_containers: [{ code: '40ft', count: 2 }],
    }),
  });
  const press = plan.unplaced.find((u) => u.ref === 'Press');
  t.equal(press?.reason, 'over_road_gross');
  t.match(
    press?.detail,
    /^25,000 kg: over the 23,\d{3} kg a 40ft may carry on the EU road \(40,000 kg gross less the tractor's 7,700 kg, the chassis' 4,800 kg and the box's 3,780 kg\)\.$/,
  );
  t.equal(plan.containers.flatMap((c) => c.placements).length, 4, 'the crates still go');
  // the same piece within the payload on the US road too: over what that road leaves
  const us = planChecked(t, {
    lane: onRoad('US'),
    order: order({
      transportation_mode: 'TruckFTL',
      pre_builts: [preBuilt('Press', 300, 200, 200, 22_000, 1)],
      order_containers: [{ code: '40ft', count: 1 }],
    }),
  });
  t.equal(us.unplaced[0]?.reason, 'over_road_gross');
});

t.test('a short heavy piece no place along the container keeps the axles legal is over_axle_limits', async (t) => {
  // a chassis whose axle group carries little: 18 t in one piece fits the gross, but wherever it
  // stands either the drive axles or the axle group is over
  const weakAxles = structuredClone(ROAD_PRESETS.EU);
  for (const c of Object.values(weakAxles.chassis)) c!.axle_group_limit_kg = 12_000;
  weakAxles.name = 'light chassis';
  const plan = planChecked(t, {
    lane: onRoad(weakAxles),
    order: order({
      transportation_mode: 'TruckFTL',
      pre_builts: [preBuilt('Block', 100, 100, 100, 18_000, 1)],
      order_containers: [{ code: '40ft', count: 1 }],
    }),
  });
  t.equal(plan.unplaced[0]?.reason, 'over_axle_limits');
  t.match(
    plan.unplaced[0]?.detail,
    /^18,000 kg in one piece: wherever it stands in a 40ft, the light chassis truck's axles are not all within their limits \(.*(drive axles|chassis' axles).*\)\.$/,
  );
  t.equal(plan.containers.length, 0, 'no container is used for nothing');
});

t.test('dense cargo in a container that could take more by volume: the road decides, and the axles are balanced', async (t) => {
  const plan = planChecked(t, {
    lane: onRoad('EU'),
    order: order({
      transportation_mode: 'TruckFTL',
      loose_boxes: [looseBox('Steel', 60, 40, 30, 900, 40, { rotation_y: false, rotation_z: false })],
      order_containers: [{ code: '40ft', count: 3 }],
    }),
  });
  const used = loaded(plan);
  t.equal(used.length, 2, '36 t of steel: two 40ft on an EU road');
  for (const c of used) {
    t.ok(c.cargo_weight_g <= 23_750_000, `${c.code}: ${kg(c.cargo_weight_g)} kg`);
    t.ok(c.road?.within_road_limits);
  }
});

t.test('booked containers hold to the road too: what they cannot take legally goes into the others', async (t) => {
  const plan = planChecked(t, {
    lane: onRoad('EU'),
    order: order({
      transportation_mode: 'TruckFTL',
      pre_builts: [preBuilt('PB', 120, 100, 150, 1300, 20)],
      order_containers: [
        { code: '40ft', count: 1, exact: true },
        { code: '20ft', count: 3 },
      ],
    }),
  });
  t.same(
    plan.containers.map((c) => [c.code, c.placements.length]),
    [
      ['40ft', 18],
      ['20ft', 2],
    ],
  );
  t.same(plan.unplaced, []);
});

t.test('the validator works the axle loads out on its own and finds a plan that breaks them', async (t) => {
  const input = { lane: onRoad('EU'), order: twentyPreBuilts() };
  const plan = planChecked(t, input);
  // all 18 pre-builts of the 40ft pushed to the front wall: the drive axles would carry far too much
  const tampered = structuredClone(plan);
  const forty = tampered.containers.find((c) => c.code === '40ft')!;
  const shift = Math.min(...forty.placements.map((p) => p.x));
  for (const p of forty.placements) p.x -= shift;
  const found = validatePlan(input, tampered).join('\n');
  t.match(found, /container 1 \(40ft\): road axle_loads_g.drive \d+ g, computed \d+ g/);
  // a road block the plan leaves out, and one an OceanFCL order should not have
  const bare = structuredClone(plan);
  delete bare.containers[0]!.road;
  t.match(validatePlan(input, bare).join('\n'), /no road block, yet the lane holds this order to the EU road/);
  t.match(
    validatePlan({ ...input, order: twentyPreBuilts('OceanFCL') }, plan).join('\n'),
    /a road block, but the lane holds this order to no road profile/,
  );
});

t.test('the validator finds a container over its road limits even when the plan says it is within them', async (t) => {
  const input = { lane: onRoad('EU'), order: twentyPreBuilts() };
  const plan = planChecked(t, input);
  const tampered = structuredClone(plan);
  const forty = tampered.containers.find((c) => c.code === '40ft')!;
  for (const p of forty.placements) p.weight_g *= 1.2;
  const found = validatePlan(input, tampered).join('\n');
  t.match(found, /container 1 \(40ft\): gross \d+ g, over its limit of 40000000 g on the EU road/);
  t.match(found, /within_road_limits true, computed false/);
});
