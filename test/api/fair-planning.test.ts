// One company group floods the planner; another group's order is still planned within 2 s of its
// submit (issue 16), because the planning reactor serves the groups in turn rather than in log order.
import t from 'tap';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';

const FLOOD = 12;

// Many distinct carton sizes keep the loader searching until the time limit (0.8 s here), so each
// flood order holds the only planner thread that long: in log order the other group's order would
// wait about 10 s behind them, served in turn it waits at most for the one being planned.
function slowAcmeOrder(n: number): Record<string, unknown> {
  const loose_boxes = Array.from({ length: 150 }, (_, i) => ({
    name: `Carton ${i}`, length: 20 + (i % 37), width: 15 + ((i * 7) % 29), height: 10 + ((i * 3) % 23), weight: 2 + (i % 9), count: 8,
  }));
  return acmeOrder({ reference: `FLOOD-${n}`, order_items: undefined, loose_boxes, order_containers: [{ code: '40ft' }, { code: '20ft' }] });
}

const otherOrder = {
  supplier_name: 'Other Supplier', consignee_name: 'Other Consignee', reference: 'OTHER-1', transportation_mode: 'OceanFCL',
  order_items: [{ item: 'SKU-1001', quantity: 12 }], order_containers: [{ code: '40ft-HC' }],
};

t.test("another group's order is planned within 2 s while one group floods the planner", async (t) => {
  const service = await startTestService({ key: ACME_KEY, config: { plannerTimeLimitMs: 800 } });
  t.teardown(async () => {
    await service.stop();
    removeDataDir(service.dataDir);
  });
  const status = async (id: number, key = ACME_KEY): Promise<string> => (await service.request('GET', `/api/v1/orders/detailed-orders/${id}/`, { key })).body.status;
  const flood: number[] = [];
  for (let n = 0; n < FLOOD; n++) {
    const submitted = await service.request('POST', '/api/v1/orders/submit-order/', { body: slowAcmeOrder(n) });
    t.equal(submitted.status, 201, `flood order ${n} accepted`);
    flood.push(submitted.body.order_id);
  }
  // the planner is busy with the flood before the other group submits
  await eventually(async () => (await status(flood[0]!)) === 'planned', 60_000);

  const metrics = await service.request('GET', '/metrics');
  const backlog = Number(/^orders_planning_backlog (\d+)$/m.exec(String(metrics.body))?.[1]);
  t.ok(backlog >= FLOOD / 2, `the backlog shows in /metrics (${backlog})`);

  const started = Date.now();
  const submitted = await service.request('POST', '/api/v1/orders/submit-order/', { key: OTHER_KEY, body: otherOrder });
  t.equal(submitted.status, 201);
  await eventually(async () => (await status(submitted.body.order_id, OTHER_KEY)) === 'planned', 60_000);
  const waited = Date.now() - started;

  const floodStatuses = await Promise.all(flood.map((id) => status(id)));
  const stillWaiting = floodStatuses.filter((s) => s === 'submitted').length;
  t.comment(`other group's order planned ${waited} ms after its submit; ${stillWaiting} of ${FLOOD} flood orders still waiting then`);
  t.ok(stillWaiting >= FLOOD / 2, `the flood is still being planned (${stillWaiting} waiting): the other order did not simply come after it`);
  t.ok(waited < 2000, `planned within 2 s of its submit (${waited} ms)`);
});
