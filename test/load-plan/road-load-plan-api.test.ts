// Issue 57 over HTTP: a lane given a road profile through the admin API plans its TruckFTL orders to
// the road and the load plan says so (road per container, within the published schema); a misspelt
// road field is refused whole; a loose box's load-bearing fields are taken, and a contradictory one
// refused; the order shows them back.
import t from 'tap';
import { allEvents } from '../support/events.js';
import { ACME_KEY, ADMIN_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { LoadPlanSchema } from '../../src/load-plan/load-plan-schema.js';
import { validatorFor } from '../../src/validation/ajv.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const put = (body: unknown) => service.request('PUT', '/api/v1/admin/master-data/', { body, key: ADMIN_KEY });
const schemaValid = validatorFor(LoadPlanSchema);

/** The test seed with lane 101 on the EU road (and one change more, if given). */
function onRoad(change: (lane: Record<string, unknown>) => void = () => {}) {
  const document = testSeed();
  const lane = document.company_groups[0]!.lanes[0]! as unknown as Record<string, unknown>;
  lane.road_profile = 'EU';
  change(lane);
  return document;
}

async function planOf(reference: string, body: Record<string, unknown>) {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference, ...body }) });
  t.equal(created.status, 201, JSON.stringify(created.body));
  await eventually(
    async () => (await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`)).body.status === 'planned',
    60_000,
  );
  const plan = await service.request('GET', `/api/v1/orders/load-plan/?order=${reference}`);
  t.ok(schemaValid(plan.body), `the load plan matches the published schema: ${JSON.stringify(schemaValid.errors)}`);
  return { order: created.body, plan: plan.body };
}

t.test('a misspelt road field is refused whole, naming it; nothing of the document applies', async (t) => {
  const before = (await allEvents(service.dataDir)).length;
  const response = await put(onRoad((lane) => Object.assign(lane, { road_profile: undefined, road_profil: 'EU' })));
  t.equal(response.status, 400);
  t.same(response.body, { company_groups: [{ lanes: [{ road_profil: ['Unknown field.'] }, {}] }, {}] });
  t.equal((await allEvents(service.dataDir)).length, before);
});

t.test('on the EU road a TruckFTL order of 26 t takes what a 40ft may carry, and says so per container', async (t) => {
  const applied = await put(onRoad());
  t.equal(applied.status, 200);
  t.equal(applied.body.changes.LaneDefined, 1, 'the lane gained its road profile');
  const { plan } = await planOf('ROAD-1', {
    transportation_mode: 'TruckFTL',
    order_items: [],
    pre_builts: [{ name: 'PB', length: 120, width: 100, height: 150, weight: 1300, count: 20 }],
    order_containers: [{ code: '40ft' }, { code: '20ft' }],
  });
  t.same(
    plan.containers.map((c: { code: string; placements: unknown[] }) => [c.code, c.placements.length]),
    [
      ['40ft', 18],
      ['20ft', 2],
    ],
  );
  const road = plan.containers[0].road;
  t.match(road, {
    profile: 'EU',
    gross_limit_kg: 40_000,
    axle_limits_kg: { steer: 10_000, drive: 11_500, trailer: 24_000 },
    tare_kg: { tractor_steer: 5400, tractor_drive: 2300, chassis: 4800, container: 3780 },
    geometry_mm: { kingpin: 1220, trailer_axle_group: 8320, tractor_wheelbase: 3700, fifth_wheel_ahead_of_drive: 600 },
    within_road_limits: true,
  });
  t.ok(road.gross_kg <= 40_000 && road.axle_loads_kg.drive <= 11_500 && road.axle_loads_kg.drive >= road.drive_min_kg);
  // the same lane by sea: the plan it always had
  const { plan: bySea } = await planOf('ROAD-2', {
    transportation_mode: 'OceanFCL',
    order_items: [],
    pre_builts: [{ name: 'PB', length: 120, width: 100, height: 150, weight: 1300, count: 20 }],
    order_containers: [{ code: '40ft' }, { code: '20ft' }],
  });
  t.same(
    bySea.containers.map((c: { road: unknown }) => c.road),
    [null],
  );
});

t.test("a loose box's max_load_on_top and stackable: taken, shown back, and a contradiction refused", async (t) => {
  const box = {
    name: 'Reel',
    length: 100,
    width: 100,
    height: 110,
    weight: 400,
    count: 2,
    double_stacked_bottom: true,
    double_stacked_top: true,
  };
  const refused = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ reference: 'LB-0', order_items: [], loose_boxes: [{ ...box, stackable: false }] }),
  });
  t.equal(refused.status, 400);
  t.same(refused.body, {
    loose_boxes: [{ stackable: ['A box that may carry nothing (stackable false) cannot be double_stacked_bottom.'] }],
  });
  // 30 reels: a 40ft's floor takes 24, so six go on others where those bear them
  const reels = (bears: number) => [{ ...box, count: 30, max_load_on_top: bears }];
  const { order, plan: weak } = await planOf('LB-1', { order_items: [], loose_boxes: reels(350), order_containers: [{ code: '40ft' }] });
  const retrieved = await service.request('GET', `/api/v1/orders/detailed-orders/${order.order_id}/`);
  t.equal(retrieved.body.loose_boxes[0].max_load_on_top, '350.000000');
  t.notOk('stackable' in retrieved.body.loose_boxes[0], 'shown back only where sent');
  const stacked = (plan: { containers: { placements: { z: number }[] }[] }) =>
    plan.containers.flatMap((c) => c.placements).filter((p) => p.z > 0).length;
  t.equal(stacked(weak), 0, 'a 400 kg reel is never stacked on one that bears 350 kg');
  t.equal(weak.containers.length, 2);
  const { plan: strong } = await planOf('LB-2', { order_items: [], loose_boxes: reels(450), order_containers: [{ code: '40ft' }] });
  t.ok(stacked(strong) >= 6, `on reels that bear 450 kg, others stand on them (${stacked(strong)})`);
  t.equal(strong.containers.length, 1);
});
