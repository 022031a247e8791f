// A submit with ids kept ahead (under load, src/orders/order-id-allocator.ts) does not read the order's
// stream first: these hold it to the same answers and the same log as a submit that reads it, for a new
// order, a retry, a taken reference and an order refused on its own account.
import t, { type Test } from 'tap';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { decideApplyMasterData } from '../../src/master-data/apply-master-data.js';
import { evolveMasterData, initialMasterData, type MasterData } from '../../src/master-data/master-data.js';
import { MAX_AHEAD, orderIdAllocator, type OrderIdAllocator } from '../../src/orders/order-id-allocator.js';
import { submitOrder, type SubmitOrderDependencies } from '../../src/orders/submit-order-handler.js';
import { orderStream } from '../../src/orders/order-events.js';
import { normalizedAcmeOrder, testSeed } from '../support/seed.js';
import { removeDataDir, tempDataDir } from '../support/service.js';

const GROUP = testSeed().company_groups[0]!.name;

function masterData(): MasterData {
  const decision = decideApplyMasterData(testSeed(), initialMasterData());
  if (!decision.ok) throw new Error('test seed refused');
  return decision.events.reduce(evolveMasterData, initialMasterData());
}

/** A store on a fresh log, with its stream reads counted, and an allocator whose clock stands still (a burst). */
function setUp(t: Test, { burst }: { burst: boolean }) {
  const dir = tempDataDir();
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    removeDataDir(dir);
  });
  const reads = { count: 0 };
  const counting = Object.assign(Object.create(store) as EventStore, {
    readStream: (stream: string) => {
      reads.count += 1;
      return store.readStream(stream);
    },
    append: store.append.bind(store),
    readLastEvent: store.readLastEvent.bind(store),
  });
  const allocate: OrderIdAllocator = orderIdAllocator(counting, { now: () => 0 });
  const md = masterData();
  const deps: SubmitOrderDependencies = {
    store: counting,
    masterData: () => md,
    allocateOrderId: allocate,
    visible: async () => undefined,
  };
  const logLength = async () => (await store.readAll()).length;
  return {
    deps,
    reads,
    logLength,
    allocate,
    async start() {
      // a burst of ids taken at once leaves MAX_AHEAD kept ahead (ids 1-100 go to the burst)
      if (burst) await Promise.all(Array.from({ length: 100 }, () => allocate()));
      t.equal(allocate.kept() !== undefined, burst, burst ? 'ids are kept ahead' : 'none kept ahead');
      if (burst) allocate.giveBack({ order_id: 101, service_ref: 'SO-000101' }); // as it was
    },
  };
}

for (const burst of [true, false]) {
  const how = burst ? 'ids kept ahead, the stream not read first' : 'no id at hand, the stream read first';
  t.test(`${how}: new order, retry, taken reference, refused order`, async (t) => {
    const { deps, reads, logLength, start } = setUp(t, { burst });
    await start();
    const first = burst ? 101 : 1;

    const order = normalizedAcmeOrder({ reference: 'R-1' });
    const readsBefore = reads.count;
    const stored = await submitOrder(deps, GROUP, order);
    t.strictSame(stored, { ok: true, order_id: first, service_ref: `SO-${String(first).padStart(6, '0')}`, retry: false });
    t.equal(reads.count - readsBefore, burst ? 0 : 1, burst ? 'the stream was not read' : 'the stream was read');

    const before = await logLength();
    t.strictSame(await submitOrder(deps, GROUP, order), { ...stored, retry: true }, 'a retry answers with the stored ids');
    t.equal(await logLength(), before, 'a retry records nothing, not even an id');

    const taken = await submitOrder(deps, GROUP, normalizedAcmeOrder({ reference: 'R-1', customer_notes: 'another order' }));
    t.notOk(taken.ok);
    t.match(taken, { errors: { reference: [/already/] } }, 'a taken reference is refused');
    t.equal(await logLength(), before, 'a refusal records nothing');

    const bad = await submitOrder(
      deps,
      GROUP,
      normalizedAcmeOrder({
        reference: 'R-1',
        order_items: [{ item: 'NO-SUCH-SKU', quantity: '1.000000', purchase_order: '', line_item_number: '', notes: '' }],
      }),
    );
    t.match(
      bad,
      { ok: false, errors: { reference: [/already/], order_items: {} } },
      'an order refused on its own account also names the taken reference',
    );
    t.equal(await logLength(), before);

    const next = await submitOrder(deps, GROUP, normalizedAcmeOrder({ reference: 'R-2' }));
    t.match(next, { ok: true, order_id: first + 1, retry: false }, 'the next order takes the next id: none was used up by the refusals');
  });
}

t.test('the allocator hands a given-back id out first, and keeps at most MAX_AHEAD', async (t) => {
  const { allocate, start } = setUp(t, { burst: true });
  await start();
  const ids = [allocate.kept()!, allocate.kept()!];
  t.strictSame(
    ids.map((id) => id.order_id),
    [101, 102],
  );
  allocate.giveBack(ids[0]!);
  t.equal((await allocate()).order_id, 101, 'given back, handed out first');
  let kept = 0;
  while (allocate.kept()) kept += 1;
  t.ok(kept <= MAX_AHEAD, `${kept} kept ahead`);
});

for (const burst of [true, false]) {
  t.test(
    `a retry answers once the read models show the stored order, as the first submit did (${burst ? 'ids kept ahead' : 'stream read first'})`,
    async (t) => {
      const { deps, start } = setUp(t, { burst });
      await start();
      const waited: bigint[] = [];
      const watched: SubmitOrderDependencies = { ...deps, visible: async (position) => void waited.push(position) };
      const order = normalizedAcmeOrder({ reference: 'R-9' });
      const first = await submitOrder(watched, GROUP, order);
      t.equal(waited.length, 1, 'the first submit waited for its order to be visible');
      const last = (await deps.store.readLastEvent(orderStream(GROUP, 'R-9')))?.position;
      const retry = await submitOrder(watched, GROUP, order);
      t.match(retry, { ok: true, order_id: (first as { order_id: number }).order_id, retry: true });
      t.strictSame(
        waited,
        [waited[0]!, last!],
        "the retry waited for the order's last event too: its first answer may have been lost before the order was visible",
      );
    },
  );
}
