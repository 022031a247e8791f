// How a closed window is planned, and the decision it records (ConsolidationPlanned): a window of
// one order plans it alone; otherwise its orders are planned together and each alone, and they ship
// together, under a parent order, only when that takes fewer containers and leaves no more cargo
// behind. The plans themselves come from the planner (the reactor's I/O); the rules are here.
import type { AllocatedOrderId } from '../orders/order-id-allocator.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import { compactPlan } from '../plan-contract/plan-storage.js';
import type { TogetherPlans } from '../planner/plan-together.js';
import { parentReference, type ConsolidationPlanned } from './consolidation-events.js';

/** A window planned together needs at least two orders; fewer are planned alone. */
export function plansTogether(orders: number): boolean {
  return orders >= 2;
}

/** The containers of these plans, all told. */
export function containersOf(plans: readonly OrderPlan[]): number {
  return plans.reduce((s, p) => s + p.containers.length, 0);
}

/** The units, pre-builts and loose boxes a plan could not place. */
function leftBehind(plan: OrderPlan): number {
  return plan.unplaced.reduce((s, u) => s + u.count, 0);
}

/** Together only when it ships in fewer containers than the orders alone and leaves no more behind. */
export function savesContainers(plans: Pick<TogetherPlans, 'alone' | 'together'>): boolean {
  return (
    plans.together.containers.length < containersOf(plans.alone) &&
    leftBehind(plans.together) <= plans.alone.reduce((s, p) => s + leftBehind(p), 0)
  );
}

type PlannedOrders = NonNullable<ConsolidationPlanned['data']['orders']>;

/** The decision of a window whose orders were planned each alone only (fewer than two). */
export function plannedAlone(
  consolidation: string,
  alone: readonly OrderPlan[],
  plannedAt: string,
  orders: PlannedOrders,
): ConsolidationPlanned['data'] {
  return {
    consolidation,
    decision: 'alone',
    containers_together: null,
    containers_alone: containersOf(alone),
    planned_at: plannedAt,
    parent: null,
    alone: alone.map(compactPlan),
    together: null,
    pallet_owners: [],
    orders,
  };
}

/**
 * The decision of a window planned together: `parent` is the parent order's id when together saves
 * containers (savesContainers), and undefined when the orders ship alone. `orders`: those planned,
 * in the closed list's order.
 */
export function plannedJointly(
  consolidation: string,
  orders: PlannedOrders,
  plans: TogetherPlans,
  parent: AllocatedOrderId | undefined,
  plannedAt: string,
): ConsolidationPlanned['data'] {
  const serviceRefs = orders.map((o) => o.service_ref);
  return {
    consolidation,
    decision: parent ? 'together' : 'alone',
    containers_together: plans.together.containers.length,
    containers_alone: containersOf(plans.alone),
    planned_at: plannedAt,
    parent: parent ? { ...parent, reference: parentReference(parent.service_ref) } : null,
    alone: plans.alone.map(compactPlan),
    together: parent ? compactPlan(plans.together) : null,
    pallet_owners: parent ? plans.palletsOf.flatMap((pallets, i) => pallets.map(() => serviceRefs[i]!)) : [],
    orders,
  };
}
