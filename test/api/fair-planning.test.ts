// One company group floods the planner; another group's order is still planned within 2 s of its
// submit (issue 16), because the planning reactor serves the groups in turn rather than in log order;
// with two replicas sharing the planning by claims (issue 24) as well.
import t from 'tap';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import type { TapTest } from '../eventstore/event-store-contract.js';

const FLOOD = 12;

// Many distinct carton sizes keep the loader searching until the time limit (0.8 s here), so each
// flood order holds the only planner thread that long: in log order the other group's order would
// wait about 10 s behind them, served in turn it waits at most for the one being planned.
function slowAcmeOrder(n: number): Record<string, unknown> {
  const loose_boxes = Array.from({ length: 150 }, (_, i) => ({
    name: `Carton ${i}`,
    length: 20 + (i % 37),
    width: 15 + ((i * 7) % 29),
    height: 10 + ((i * 3) % 23),
    weight: 2 + (i % 9),
    count: 8,
  }));
  return acmeOrder({
    reference: `FLOOD-${n}`,
    order_items: undefined,
    loose_boxes,
    order_containers: [{ code: '40ft' }, { code: '20ft' }],
  });
}

const otherOrder = {
  supplier_name: 'Other Supplier',
  consignee_name: 'Other Consignee',
  reference: 'OTHER-1',
  transportation_mode: 'OceanFCL',
  order_items: [{ item: 'SKU-1001', quantity: 12 }],
  order_containers: [{ code: '40ft-HC' }],
};

/**
 * `replicas` services on one data directory, planning shared by claims (issue 24): the flood goes to the
 * first, the other group's order to the last, and whichever replica's turn comes first plans it.
 */
async function floodThenOther(t: TapTest, replicas: number): Promise<void> {
  const first = await startTestService({ key: ACME_KEY, config: { plannerTimeLimitMs: 800 } });
  const services = [first];
  for (let i = 1; i < replicas; i++)
    services.push(await startTestService({ key: ACME_KEY, dataDir: first.dataDir, config: { plannerTimeLimitMs: 800 } }));
  t.teardown(async () => {
    for (const service of services) await service.stop();
    removeDataDir(first.dataDir);
  });
  const service = first;
  const last = services.at(-1)!;
  const floodSize = FLOOD * replicas;
  const status = async (id: number, key = ACME_KEY): Promise<string> =>
    (await service.request('GET', `/api/v1/orders/detailed-orders/${id}/`, { key })).body.status;
  const flood: number[] = [];
  for (let n = 0; n < floodSize; n++) {
    const submitted = await service.request('POST', '/api/v1/orders/submit-order/', { body: slowAcmeOrder(n) });
    t.equal(submitted.status, 201, `flood order ${n} accepted`);
    flood.push(submitted.body.order_id);
  }
  // the planner is busy with the flood before the other group submits
  await eventually(async () => (await status(flood[0]!)) === 'planned', 60_000);

  const metrics = await service.request('GET', '/metrics');
  const backlog = Number(/^orders_planning_backlog (\d+)$/m.exec(String(metrics.body))?.[1]);
  t.ok(backlog >= floodSize / 2, `the backlog shows in /metrics (${backlog})`);

  const started = Date.now();
  const submitted = await last.request('POST', '/api/v1/orders/submit-order/', { key: OTHER_KEY, body: otherOrder });
  t.equal(submitted.status, 201);
  await eventually(async () => (await status(submitted.body.order_id, OTHER_KEY)) === 'planned', 60_000);
  const waited = Date.now() - started;

  const floodStatuses = await Promise.all(flood.map((id) => status(id)));
  const stillWaiting = floodStatuses.filter((s) => s === 'submitted').length;
  t.comment(
    `${replicas} replica(s): other group's order planned ${waited} ms after its submit; ${stillWaiting} of ${floodSize} flood orders still waiting then`,
  );
  t.ok(
    stillWaiting >= floodSize / 2,
    `the flood is still being planned (${stillWaiting} waiting): the other order did not simply come after it`,
  );
  t.ok(waited < 2000, `planned within 2 s of its submit (${waited} ms)`);
  if (replicas > 1) {
    // wait for the flood, then count: every order planned by one replica only
    await eventually(async () => (await Promise.all(flood.map((id) => status(id)))).every((s) => s !== 'submitted'), 120_000);
    const runs = await Promise.all(
      services.map(async (s) => {
        const text = String((await s.request('GET', '/metrics')).body);
        return [...text.matchAll(/^orders_planner_runs_total\{outcome="\w+"\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
      }),
    );
    t.equal(
      runs.reduce((a, b) => a + b, 0),
      floodSize + 1,
      `one planner run per order over the replicas (${runs.join(' + ')})`,
    );
  }
}

t.test("another group's order is planned within 2 s while one group floods the planner", (t) => floodThenOther(t, 1));
t.test('with two replicas on one data directory: still within 2 s, and each order planned once', (t) => floodThenOther(t, 2));
