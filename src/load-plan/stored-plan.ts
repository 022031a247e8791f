// The one place the load plan and the viewer read the plan an OrderPlanned event stores: plans are
// stored compactly (identical units as blocks, src/plan-contract/plan-storage.ts), and expanded here, so
// every reader gets every placement and unit.
import type { OrderPlanned, OrderSubmitted } from '../orders/order-events.js';
import { currentOrderIn, currentPlanIn, type RecordedOrderEvent } from '../orders/read-order-stream.js';
import { expandPlan } from '../plan-contract/plan-storage.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';

export function planOf(planned: OrderPlanned['data']): OrderPlan {
  return expandPlan(planned.plan);
}

/**
 * The order as it stands (as last amended) and the plan of that version; undefined while it has none
 * (not planned yet, planned again after an amend, or cancelled: an earlier plan is void).
 */
export function plannedOrderIn(events: readonly RecordedOrderEvent[]): { submitted: OrderSubmitted['data']; plan: OrderPlan } | undefined {
  const submitted = currentOrderIn(events);
  const { planned } = currentPlanIn(events);
  return submitted && planned ? { submitted, plan: planOf(planned.data) } : undefined;
}
