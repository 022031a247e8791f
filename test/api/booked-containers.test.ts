// Spec 2.8: "When omitted, 5 is used for that row. When given, the exact quantity is used." A count
// the order gives books that many containers: they are loaded first and the plan has exactly that
// many, one the cargo does not need listed empty; a row without a count offers up to 5, used as
// needed (fewest containers, then the least volume).
import t from 'tap';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

interface Container {
  code: string;
  index: number;
  placements: unknown[];
  cargo_weight_kg: number;
  center_of_gravity_mm: unknown;
  within_cog_limits: boolean;
}

async function plannedContainers(order: Record<string, unknown>): Promise<Container[]> {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: order });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  let plan: { containers: Container[] } | undefined;
  await eventually(async () => {
    const response = await service.request('GET', `/api/v1/orders/load-plan/?order=${order.reference as string}`);
    if (response.status === 200) plan = response.body;
    return response.status === 200;
  }, 60_000);
  return plan!.containers;
}

// 300 units of SKU-1001 make 5 EUR pallets: a 20ft takes them
const small = { order_items: [{ item: 'SKU-1001', quantity: 300 }] };

t.test('no count: the fewest and smallest containers the cargo needs', async (t) => {
  const containers = await plannedContainers(
    acmeOrder({ reference: 'PO-OFFERED', ...small, order_containers: [{ code: '40ft' }, { code: '20ft' }] }),
  );
  t.strictSame(
    containers.map((c) => [c.code, c.placements.length]),
    [['20ft', 5]],
    'one 20ft: of the offered, the least volume',
  );
});

t.test('a count books exactly that many: loaded first, the one not needed listed empty', async (t) => {
  const containers = await plannedContainers(
    acmeOrder({ reference: 'PO-BOOKED', ...small, order_containers: [{ code: '40ft', count: 2 }, { code: '20ft' }] }),
  );
  t.strictSame(
    containers.map((c) => [c.index, c.code, c.placements.length]),
    [
      [1, '40ft', 5],
      [2, '40ft', 0],
    ],
    'the booked 40ft takes the cargo, not the smaller 20ft offered',
  );
  t.match(containers[1], { cargo_weight_kg: 0, center_of_gravity_mm: null, within_cog_limits: true }, 'the empty one says so');
});

t.test('booked containers full, the rest goes into the offered ones', async (t) => {
  const big = { order_items: [{ item: 'SKU-1001', quantity: 3000 }] };
  const containers = await plannedContainers(
    acmeOrder({ reference: 'PO-BOOKED-BIG', ...big, order_containers: [{ code: '20ft', count: 1 }, { code: '40ft' }] }),
  );
  t.equal(containers[0]!.code, '20ft', 'the booked 20ft first');
  t.equal(containers.filter((c) => c.code === '20ft').length, 1, 'exactly one 20ft');
  t.ok(
    containers.slice(1).every((c) => c.code === '40ft' && c.placements.length > 0),
    `then 40ft as needed (${containers.length - 1})`,
  );
  t.ok(containers[0]!.placements.length >= 10, `the 20ft is filled (${containers[0]!.placements.length} pallets)`);
});
