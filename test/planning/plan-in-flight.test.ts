// Issue 59: an amend or a cancel that lands while a planner runs. Two planning reactors on one log and
// one work lease store, as two replicas, with a planner that holds each plan until the test lets it go: the
// result of a plan made for a version the order no longer is (amended, cancelled meanwhile) is never
// recorded; the amended order is planned once more, for its new version, by either replica; a cancelled
// one never again, also after both restart from their checkpoints.
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { exactly, NO_STREAM } from '../../src/eventstore/event-store.js';
import { openSqliteWorkLeaseStore } from '../../src/leases/sqlite-work-leases.js';
import { openSqliteCheckpointStore } from '../../src/checkpoints/sqlite-checkpoint-store.js';
import { planningLeases } from '../../src/leases/planning-leases.js';
import { startPlanningReactor, type PlanningReactor } from '../../src/planning/planning-reactor.js';
import { orderStream } from '../../src/orders/order-events.js';
import { readOrderStream } from '../../src/orders/read-order-stream.js';
import { compactPlan } from '../../src/plan-contract/plan-storage.js';
import type { PlanOrderInput } from '../../src/plan-contract/planner-input.js';
import { submittedOrder } from '../packing-instructions/sample-orders.js';
import { emptyPlan } from '../support/plans.js';
import { removeDataDir, tempDataDir } from '../support/service.js';

const quiet = () => {};

/** A planner whose plans wait until `release`; `started` counts the runs begun. */
function gatedPlanner() {
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => (open = resolve));
  const runs: PlanOrderInput[] = [];
  return {
    runs,
    planner: {
      async planStored(input: PlanOrderInput) {
        runs.push(input);
        await gate;
        return compactPlan(emptyPlan(runs.length));
      },
    },
    release() {
      open();
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    releaseAll() {
      open();
      gate = Promise.resolve();
    },
  };
}

t.test('an amend or a cancel while the plan is in flight: no stale result, the new version planned once', async (t) => {
  const dataDir = tempDataDir();
  const store = openSqliteEventStore(dataDir);
  const gated = gatedPlanner();
  const leaseStores: ReturnType<typeof openSqliteWorkLeaseStore>[] = [];
  const outcomes: string[] = [];
  const start = async (name: string): Promise<PlanningReactor> => {
    const workLeases = openSqliteWorkLeaseStore(dataDir);
    leaseStores.push(workLeases);
    return startPlanningReactor({
      store,
      checkpoints: openSqliteCheckpointStore(dataDir),
      leases: planningLeases(workLeases, { holder: name, leaseMs: 10_000, log: quiet }),
      planner: gated.planner,
      concurrency: 1,
      log: quiet,
      onRun: (outcome) => outcomes.push(outcome),
    });
  };
  let reactors = [await start('A'), await start('B')];
  t.teardown(async () => {
    gated.releaseAll();
    await Promise.all(reactors.map((r) => r.stop()));
    await Promise.all(leaseStores.map((c) => c.close()));
    await store.close();
    removeDataDir(dataDir);
  });

  const submit = async (id: number) => {
    const data = { ...submittedOrder(), order_id: id, service_ref: `SO-00000${id}` };
    data.order = { ...data.order, reference: `R-${id}` };
    const stream = orderStream(data.company_group, data.order.reference);
    await store.append(stream, [{ type: 'OrderSubmitted', data }], NO_STREAM);
    return { stream, data };
  };
  const results = async (stream: string) =>
    (await readOrderStream(store, stream))
      .filter((e) => e.type === 'OrderPlanned' || e.type === 'OrderPlanningFailed')
      .map((e) => (e.data as { version?: number }).version ?? 0);
  const until = async (what: string, condition: () => Promise<boolean> | boolean) => {
    const deadline = Date.now() + 10_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  // Amended while version 0 is being planned (the planner holds it).
  const amended = await submit(1);
  await until('the first plan under way', () => gated.runs.length === 1);
  const bigger = { ...amended.data.order, order_items: amended.data.order.order_items.map((item) => ({ ...item, quantity: '96.000000' })) };
  await store.append(
    amended.stream,
    [
      {
        type: 'OrderAmended',
        data: {
          order_id: 1,
          service_ref: 'SO-000001',
          company_group: amended.data.company_group,
          version: 1,
          lane: amended.data.lane,
          order: bigger,
          amended_at: '2026-11-20T10:00:00.000000',
        },
      },
    ],
    exactly(0n),
  );
  gated.release(); // version 0's plan ends: its result is void
  await until('the amended version planned', async () => gated.runs.length >= 2);
  t.not(JSON.stringify(gated.runs[1]), JSON.stringify(gated.runs[0]), 'the second run plans the order as amended');
  gated.release();
  await until('a result', async () => (await results(amended.stream)).length > 0);

  // Cancelled while being planned.
  const cancelled = await submit(2);
  await until('its plan under way', () => gated.runs.length === 3);
  await store.append(
    cancelled.stream,
    [
      {
        type: 'OrderCancelled',
        data: {
          order_id: 2,
          service_ref: 'SO-000002',
          reference: 'R-2',
          company_group: cancelled.data.company_group,
          reason: null,
          cancelled_at: '2026-11-20T10:00:00.000000',
          status_before: 'submitted',
          packing_instructions_downloaded: false,
        },
      },
    ],
    exactly(0n),
  );
  gated.releaseAll();
  await new Promise((resolve) => setTimeout(resolve, 300));

  // Both replicas restart from their checkpoints: nothing is planned again.
  await Promise.all(reactors.map((r) => r.stop()));
  reactors = [await start('A2'), await start('B2')];
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.same(await results(amended.stream), [1], 'one result, for the amended version; none recorded for the version planned before the amend');
  t.same(await results(cancelled.stream), [], 'no result for the cancelled order');
  t.equal(gated.runs.length, 3, `3 planner runs in all (the void one, the amended version, the cancelled order's), none after the restart`);
  t.same(
    outcomes.sort(),
    ['stored', 'superseded', 'superseded'],
    'the runs the amend and the cancel overtook count as superseded, not as a second planning (discarded)',
  );
});
