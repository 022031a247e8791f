// The parent order of a consolidated shipment, put together from its children: an order of its own
// (id, service_ref, reference CONSOLIDATED-<service_ref>) that ships their cargo. The order decider
// records it (SubmitConsolidatedOrder), submitted and planned in one append. Each child's own plan is
// the shared one with only its pallets and its unplaced cargo.
import type { OrderSubmitted } from '../orders/order-events.js';
import type { SubmitConsolidatedOrder } from '../orders/order-decider.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import { compactPlan, type StoredPlan } from '../plan-contract/plan-storage.js';
import { sharedContainers } from '../planner/plan-together.js';

export function parentOrderCommand(
  parent: { order_id: number; service_ref: string; reference: string },
  children: readonly OrderSubmitted['data'][],
  together: OrderPlan,
  plannedAt: string,
): SubmitConsolidatedOrder {
  const first = children[0]!;
  const refs = children.map((c) => c.service_ref);
  const unique = (values: string[]): string[] => [...new Set(values)];
  return {
    type: 'SubmitConsolidatedOrder',
    data: {
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
      consolidated_orders: refs,
      plan: compactPlan(together),
      planned_at: plannedAt,
    },
  };
}

/** The lane as the orders were submitted with it, with every SKU any of them names. */
export function mergedLane(orders: readonly OrderSubmitted['data'][]): OrderSubmitted['data']['lane'] {
  const items = new Map(orders.flatMap((o) => o.lane.items.map((i) => [i.sku, i] as const)));
  return { ...orders[0]!.lane, items: [...items.values()] };
}

/**
 * A child's plan in a consolidated shipment: the shared containers as planned together, with the
 * pallets `owners` gives the child (the owner of each of the plan's pallets, in order) and its own
 * unplaced cargo; its units as counted when it was planned alone.
 */
export function childPlan(together: OrderPlan, owners: readonly string[], child: string, alone: StoredPlan | undefined): OrderPlan {
  const own = together.pallets.filter((_, k) => owners[k] === child);
  return {
    ...together,
    pallets: own,
    unplaced: together.unplaced.filter((u) => u.order === child),
    metrics: { ...together.metrics, pallet_count: own.length, units: alone?.metrics.units ?? together.metrics.units },
  };
}
