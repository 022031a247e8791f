// A plan too large for the event store (here the embedded one given a 2000-byte limit; KurrentDB has its
// MaxAppendSize) fails that order with the reason instead of being retried for ever, and planning
// goes on with the next order.
import t from 'tap';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { allEvents } from '../support/events.js';

t.test('an OrderPlanned over the store limit becomes OrderPlanningFailed with the reason; the reactor is not stuck', async (t) => {
  const service = await startTestService({ key: ACME_KEY, maxAppendBytes: 2000 });
  t.teardown(async () => {
    await service.stop();
    removeDataDir(service.dataDir);
  });
  // Stored compact, a plan is still a row per placement: 150 loose cartons make one over 2,000 bytes
  // from a short submit; one unit stays under it.
  const cartons = [{ name: 'Carton', length: 30, width: 20, height: 20, weight: 5, count: 150 }];
  const big = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ reference: 'BIG', order_items: undefined, loose_boxes: cartons }),
  });
  const small = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ reference: 'SMALL', order_items: [{ item: 'SKU-1001', quantity: 1 }] }),
  });
  t.equal(big.status, 201);
  t.equal(small.status, 201);

  // Planned one after the other: the small one's plan shows only once the big one's outcome is stored.
  await eventually(async () => (await service.request('GET', '/api/v1/orders/pallet-contents/?order=SMALL')).status === 200);
  const failed = await service.request('GET', '/api/v1/orders/pallet-contents/?order=BIG');
  t.equal(failed.status, 400);
  t.match(failed.body, {
    order: [
      /Planning this order failed \(the plan is too large to store \(append to .* of \d+ bytes is over the event store's limit of 2000 bytes\)\)/,
    ],
  });
  const smallPlan = await service.request('GET', '/api/v1/orders/pallet-contents/?order=SMALL');
  t.equal(smallPlan.status, 200, `the next order is planned: ${JSON.stringify(smallPlan.body)}`);

  const outcomes = (await allEvents(service.dataDir))
    .filter((event) => event.type === 'OrderPlanned' || event.type === 'OrderPlanningFailed')
    .map((event) => event.type);
  t.strictSame(outcomes, ['OrderPlanningFailed', 'OrderPlanned'], 'one result each, in order');
});
