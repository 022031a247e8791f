// The one place the load plan and the viewer read the plan an OrderPlanned event stores: plans are
// stored compactly (identical units as blocks, src/plan-contract/plan-storage.ts), and expanded here, so
// every reader gets every placement and unit.
import type { OrderPlanned, OrderSubmitted } from '../orders/order-events.js';
import type { RecordedOrderEvent } from '../orders/read-order-stream.js';
import { expandPlan } from '../plan-contract/plan-storage.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';

export function planOf(planned: OrderPlanned['data']): OrderPlan {
  return expandPlan(planned.plan);
}

/** The order as submitted and the newest plan it was given; undefined while it has none. */
export function plannedOrderIn(events: readonly RecordedOrderEvent[]): { submitted: OrderSubmitted['data']; plan: OrderPlan } | undefined {
  let submitted: OrderSubmitted['data'] | undefined;
  let planned: OrderPlanned['data'] | undefined;
  for (const event of events) {
    if (event.type === 'OrderSubmitted') submitted = event.data;
    else if (event.type === 'OrderPlanned') planned = event.data;
  }
  return submitted && planned ? { submitted, plan: planOf(planned) } : undefined;
}
