// Issue 13 point 6 and issue 15 point 1 over HTTP: the load plan as JSON with the lookup, scope and
// 400s of pallet contents, in mm and kg whatever the lane's units; and the order's status on
// retrieve and list.
import t from 'tap';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { NO_PALLETS_MESSAGE } from '../../src/packing-instructions/routes.js';
import { LoadPlanSchema } from '../../src/load-plan/load-plan-schema.js';
import { validatorFor } from '../../src/validation/ajv.js';
import { centerOfGravity } from '../../src/planner/center-of-gravity.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const loadPlan = (order: string, key = ACME_KEY) =>
  service.request('GET', `/api/v1/orders/load-plan/?order=${encodeURIComponent(order)}`, { key });
const planned = async (orderId: number) => {
  await eventually(
    async () => (await service.request('GET', `/api/v1/orders/detailed-orders/${orderId}/`)).body.status !== 'submitted',
    60_000,
  );
  return (await service.request('GET', `/api/v1/orders/detailed-orders/${orderId}/`)).body;
};
const schemaValid = validatorFor(LoadPlanSchema);

t.test('a planned order reads status planned on retrieve and list, and its load plan in mm and kg', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      reference: 'LP-1',
      order_items: [
        { item: 'SKU-1001', quantity: 96 },
        { item: 'SKU-1002', quantity: 30 },
      ],
      loose_boxes: [{ name: 'Spare parts', length: 50, width: 40, height: 30, weight: 12.25, count: 3 }],
    }),
  });
  t.equal(created.status, 201);
  const order = await planned(created.body.order_id);
  t.equal(order.status, 'planned');
  t.equal(order.planning_failure_reason, null);
  const listed = await service.request('GET', '/api/v1/orders/detailed-orders/?search=LP-1');
  t.match(listed.body.results[0], { reference: 'LP-1', status: 'planned', planning_failure_reason: null });

  for (const lookup of ['LP-1', created.body.service_ref]) {
    const response = await loadPlan(lookup);
    t.equal(response.status, 200, JSON.stringify(response.body));
    t.ok(schemaValid(response.body), `matches the published schema: ${JSON.stringify(validatorFor(LoadPlanSchema).errors)}`);
    t.equal(response.body.service_ref, created.body.service_ref);
    t.equal(response.body.reference, 'LP-1');
  }
  const plan = (await loadPlan('LP-1')).body;
  t.match(
    plan.viewer_url,
    new RegExp(`^${service.url}/plans/${created.body.service_ref}\\?token=\\d+\\.[\\w-]{43}$`),
    'an absolute share link without the API key',
  );
  t.notMatch(plan.viewer_url, ACME_KEY);

  const [container] = plan.containers;
  t.match(container, { code: '40ft', index: 1, inner_mm: { l: Number, w: Number, h: Number } });
  t.ok(
    container.inner_mm.l > 12000 && container.inner_mm.l < 12100,
    `a 40ft is about 12 m long inside (${container.inner_mm.l} mm), whatever the lane's cm`,
  );
  const placements = container.placements as {
    kind: string;
    ref: string;
    x: number;
    l: number;
    weight_kg: number;
    loading_order: number;
  }[];
  t.same(
    placements.map((p) => p.loading_order).sort((a, b) => a - b),
    placements.map((_, i) => i + 1),
    'loading orders 1..n',
  );
  const boxes = placements.filter((p) => p.kind === 'loose_box');
  t.same(boxes.map((p) => p.ref).sort(), ['Spare parts #1', 'Spare parts #2', 'Spare parts #3']);
  t.ok(
    boxes.every((p) => p.weight_kg === 12.25),
    'kg as submitted on a kg lane',
  );
  t.ok(
    placements.every((p) => Number.isInteger(p.x) && Number.isInteger(p.l)),
    'integer millimetres',
  );

  const weights = placements.reduce((sum, p) => sum + p.weight_kg, 0);
  t.ok(Math.abs(container.cargo_weight_kg - weights) < 0.01, 'cargo weight is the sum of the placements');
  const cog = centerOfGravity(
    (placements as never as { x: number; y: number; z: number; l: number; w: number; h: number; weight_kg: number }[]).map((p) => ({
      ...p,
      weight_g: p.weight_kg * 1000,
    })),
  );
  t.ok(
    Math.abs(container.center_of_gravity_mm.x - cog!.x) <= 1 && Math.abs(container.center_of_gravity_mm.y - cog!.y) <= 1,
    'the centre of gravity of what is placed',
  );
  t.type(container.within_cog_limits, 'boolean');

  const pallets = plan.pallets as {
    ref: string;
    pallet_code: string;
    l: number;
    w: number;
    units: { sku: string; x: number; z: number; l: number; w: number; h: number }[];
  }[];
  t.same(
    pallets.map((p) => p.ref),
    pallets.map((_, i) => `AP${i + 1}`),
  );
  t.ok(pallets.every((p) => p.pallet_code === 'EUR' && p.l === 1200 && p.w === 800));
  t.equal(pallets.flatMap((p) => p.units).filter((u) => u.sku === 'SKU-1001').length, 96, 'every unit is listed');
  t.ok(
    pallets.flatMap((p) => p.units).some((u) => u.z === 0),
    'units stand on the deck at z = 0',
  );
  t.same(plan.unplaced, []);
});

t.test('an order of only loose boxes has a load plan (pallet contents has no pallets to show)', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      reference: 'LP-BOXES',
      order_items: undefined,
      loose_boxes: [{ name: 'Carton', length: 60, width: 40, height: 40, weight: 12, count: 10 }],
    }),
  });
  await planned(created.body.order_id);
  t.same((await service.request('GET', '/api/v1/orders/pallet-contents/?order=LP-BOXES')).body, { order: [NO_PALLETS_MESSAGE] });
  const plan = await loadPlan('LP-BOXES');
  t.equal(plan.status, 200);
  t.same(plan.body.pallets, []);
  t.equal(plan.body.containers[0].placements.length, 10);
});

t.test('lengths in mm and weights in kg on an inch and pound lane', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    key: OTHER_KEY,
    body: {
      supplier_name: 'Other Supplier',
      consignee_name: 'Other Consignee',
      reference: 'LP-IN',
      transportation_mode: 'OceanFCL',
      loose_boxes: [{ name: 'Crate', length: 10, width: 10, height: 10, weight: 22.046226, count: 1 }],
      order_containers: [{ code: '40ft-HC' }],
    },
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  await eventually(async () => (await loadPlan('LP-IN', OTHER_KEY)).status === 200, 60_000);
  const plan = (await loadPlan('LP-IN', OTHER_KEY)).body;
  t.match(plan.containers[0].placements[0], { kind: 'loose_box', ref: 'Crate #1', l: 254, w: 254, h: 254, weight_kg: 10 });
});

t.test('the lookup, scope and 400s are those of pallet contents', async (t) => {
  t.same((await loadPlan('NO-SUCH')).body, { order: ['No order matches "NO-SUCH".'] });
  t.equal((await loadPlan('LP-1', OTHER_KEY)).status, 400, "another group's order is unknown");
  const missing = await service.request('GET', '/api/v1/orders/load-plan/');
  t.equal(missing.status, 400);
  t.match(missing.body, { order: [/required/] });
  t.equal((await service.request('GET', '/api/v1/orders/load-plan/?order=LP-1', { key: null })).status, 401);
});
