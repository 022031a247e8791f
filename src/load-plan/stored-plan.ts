// The one place that reads the plan an OrderPlanned event stores. The event holds the planner's
// OrderPlan as it is today; should plans come to be stored compactly (identical units as blocks),
// the expanding happens here and every reader (load-plan JSON, viewer) keeps getting every placement.
import type { RecordedEvent } from '../eventstore/event-store.js';
import type { OrderPlanned, OrderSubmitted } from '../orders/order-events.js';
import type { OrderPlan } from '../planner/plan-types.js';

export function planOf(planned: OrderPlanned['data']): OrderPlan {
  return planned.plan as OrderPlan;
}

/** The order as submitted and the newest plan it was given; undefined while it has none. */
export function plannedOrderIn(events: readonly RecordedEvent[]): { submitted: OrderSubmitted['data']; plan: OrderPlan } | undefined {
  let submitted: OrderSubmitted['data'] | undefined;
  let planned: OrderPlanned['data'] | undefined;
  for (const event of events) {
    if (event.type === 'OrderSubmitted') submitted = event.data as OrderSubmitted['data'];
    else if (event.type === 'OrderPlanned') planned = event.data as OrderPlanned['data'];
  }
  return submitted && planned ? { submitted, plan: planOf(planned) } : undefined;
}
