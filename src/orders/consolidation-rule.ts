// Which orders wait for a consolidation window (master data `consolidation_window_seconds`, spec 2.2):
// `normal` orders of a lane with a window; `dangerous_goods` and `dedicated_container` orders are
// planned alone, and so are a parent order (a consolidated shipment) and an order that gave a
// container count (those containers are booked for it). Orders that may share a window
// have one company group, lane and transportation mode.
import type { CurrentOrder, OrderSubmitted } from './order-events.js';

export function consolidates(submitted: OrderSubmitted['data']): boolean {
  return (
    submitted.order.shipment_type === 'normal' &&
    submitted.lane.consolidation_window_seconds !== undefined &&
    submitted.consolidated_orders === undefined &&
    // containers booked by count are the order's own (spec 2.8: the exact quantity is used)
    !submitted.order.order_containers.some((c) => c.exact)
  );
}

export function windowKey(submitted: OrderSubmitted['data']): string {
  return JSON.stringify([submitted.company_group, submitted.lane.id, submitted.order.transportation_mode]);
}

/**
 * Whether the order waits for its window's plan: one that consolidates, as submitted. An amended order
 * (or one whose shipment was dissolved) left its window and is planned alone, at once.
 */
export function awaitsItsWindow(order: CurrentOrder): boolean {
  return order.version === 0 && consolidates(order);
}
