// Two planning reactors on one log and one work lease store, as two replicas: a new order is claimed by the
// replica that took its submit, and the other leaves it alone for the pause (OTHERS_FIRST_MS); an
// order whose replica never plans it (stopped, or busy) is taken by the other once the pause is over.
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { NO_STREAM } from '../../src/eventstore/event-store.js';
import { openSqliteWorkLeaseStore } from '../../src/leases/sqlite-work-leases.js';
import { openSqliteCheckpointStore } from '../../src/checkpoints/sqlite-checkpoint-store.js';
import type { WorkLeaseStore } from '../../src/leases/work-lease-store.js';
import { planningLeases } from '../../src/leases/planning-leases.js';
import { startPlanningReactor, type PlanningReactor } from '../../src/planning/planning-reactor.js';
import { SubmittedHere } from '../../src/planning/submitted-here.js';
import { orderStream } from '../../src/orders/order-events.js';
import { readOrderStream } from '../../src/orders/read-order-stream.js';
import { submittedOrder } from '../packing-instructions/sample-orders.js';
import { removeDataDir, tempDataDir } from '../support/service.js';

const quiet = () => {};

/** A replica's planning: its own work-lease-store view (which records the keys it tried), its own memory of submits. */
async function replica(dataDir: string, store: ReturnType<typeof openSqliteEventStore>, name: string, othersFirstMs: number) {
  const inner = openSqliteWorkLeaseStore(dataDir);
  const tried = new Set<string>();
  const workLeases: WorkLeaseStore = {
    ...inner,
    acquire(key, ...rest) {
      tried.add(key);
      return inner.acquire(key, ...rest);
    },
  };
  const submittedHere = new SubmittedHere();
  const reactor: PlanningReactor = await startPlanningReactor({
    store,
    checkpoints: openSqliteCheckpointStore(dataDir),
    leases: planningLeases(workLeases, { holder: name, leaseMs: 10_000, log: quiet }),
    // fails fast: OrderPlanningFailed is a result as good as a plan here
    planner: { planStored: async () => Promise.reject(new Error('no planner in this test')) },
    concurrency: 1,
    log: quiet,
    submittedHere,
    othersFirstMs,
  });
  return { tried, submittedHere, reactor, close: () => inner.close() };
}

async function submit(store: ReturnType<typeof openSqliteEventStore>, id: number): Promise<string> {
  const data = submittedOrder();
  data.order_id = id;
  data.service_ref = `SO-${String(id).padStart(6, '0')}`;
  data.order = { ...data.order, reference: `R-${id}` };
  const stream = orderStream(data.company_group, data.order.reference);
  await store.append(stream, [{ type: 'OrderSubmitted', data }], NO_STREAM);
  return stream;
}

async function allHaveResults(store: ReturnType<typeof openSqliteEventStore>, streams: string[], withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    const histories = await Promise.all(streams.map((stream) => readOrderStream(store, stream)));
    if (histories.every((history) => history.some((event) => event.type === 'OrderPlanningFailed' || event.type === 'OrderPlanned')))
      return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

t.test("each replica claims the orders it took the submit of, and leaves the other's alone", async (t) => {
  const dataDir = tempDataDir();
  const store = openSqliteEventStore(dataDir);
  // a pause far longer than either needs for its own orders
  const a = await replica(dataDir, store, 'A', 10_000);
  const b = await replica(dataDir, store, 'B', 10_000);
  t.teardown(async () => {
    await Promise.all([a.reactor.stop(), b.reactor.stop()]);
    await Promise.all([a.close(), b.close()]);
    await store.close();
    removeDataDir(dataDir);
  });
  const streams: string[] = [];
  for (let id = 1; id <= 12; id++) {
    (id % 2 === 0 ? a : b).submittedHere.add(id);
    streams.push(await submit(store, id));
  }
  t.ok(await allHaveResults(store, streams, 8_000), 'every order has its result');
  const own = (even: boolean) => streams.filter((_, i) => ((i + 1) % 2 === 0) === even);
  t.same([...a.tried].sort(), own(true).sort(), 'A tried the claims of its own orders only');
  t.same([...b.tried].sort(), own(false).sort(), 'B tried the claims of its own orders only');
  t.equal(a.submittedHere.size + b.submittedHere.size, 0, 'and forgot each once its order was read');
});

t.test('an order whose replica does not plan it is taken by another once the pause is over', async (t) => {
  const dataDir = tempDataDir();
  const store = openSqliteEventStore(dataDir);
  const b = await replica(dataDir, store, 'B', 300);
  t.teardown(async () => {
    await b.reactor.stop();
    await b.close();
    await store.close();
    removeDataDir(dataDir);
  });
  // submitted at a replica that is gone (or never plans): B does not know them as its own
  const started = Date.now();
  const streams = [await submit(store, 1), await submit(store, 2)];
  t.ok(await allHaveResults(store, streams, 8_000), 'both have their result');
  t.ok(Date.now() - started >= 300, `not before the pause (${Date.now() - started} ms)`);
  t.same([...b.tried].sort(), [...streams].sort(), 'B claimed them');
});
