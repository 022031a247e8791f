// The parent order of a consolidated shipment: an order of its own (id, service_ref, reference
// CONSOLIDATED-<service_ref>) that ships its children's cargo, submitted and planned in one append,
// so no planner ever sees it waiting. Its payload is the children's, put together.
import type { NewEvent } from '../eventstore/event-store.js';
import type { OrderPlanned, OrderSubmitted } from '../orders/order-events.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import { compactPlan } from '../plan-contract/plan-storage.js';
import { sharedContainers } from '../planner/plan-together.js';

export function parentOrderEvents(
  parent: { order_id: number; service_ref: string; reference: string },
  children: readonly OrderSubmitted['data'][],
  together: OrderPlan,
  plannedAt: string,
): NewEvent[] {
  const first = children[0]!;
  const refs = children.map((c) => c.service_ref);
  const unique = (values: string[]): string[] => [...new Set(values)];
  const submitted: OrderSubmitted['data'] = {
    order_id: parent.order_id,
    service_ref: parent.service_ref,
    company_group: first.company_group,
    lane: mergedLane(children),
    order: {
      ...first.order,
      reference: parent.reference,
      shipment_type: 'normal',
      order_items: children.flatMap((c) => c.order.order_items),
      pre_builts: children.flatMap((c) => c.order.pre_builts),
      loose_boxes: children.flatMap((c) => c.order.loose_boxes),
      order_containers: sharedContainers(children.map((c) => c.order.order_containers)),
      customer_notes: `Consolidated shipment of ${refs.join(', ')}.`,
      send_email: children.some((c) => c.order.send_email),
      extra_recipients: unique(children.flatMap((c) => c.order.extra_recipients)),
      extra_cc_recipients: unique(children.flatMap((c) => c.order.extra_cc_recipients)),
    },
    submitted_at: plannedAt,
    consolidated_orders: refs,
  };
  const planned: OrderPlanned['data'] = {
    order_id: parent.order_id, service_ref: parent.service_ref, reference: parent.reference, company_group: first.company_group,
    plan: compactPlan(together), planned_at: plannedAt,
  };
  return [{ type: 'OrderSubmitted', data: submitted }, { type: 'OrderPlanned', data: planned }];
}

/** The lane as the orders were submitted with it, with every SKU any of them names. */
export function mergedLane(orders: readonly OrderSubmitted['data'][]): OrderSubmitted['data']['lane'] {
  const items = new Map(orders.flatMap((o) => o.lane.items.map((i) => [i.sku, i] as const)));
  return { ...orders[0]!.lane, items: [...items.values()] };
}
