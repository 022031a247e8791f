// The packing instructions straight from an order's stream: the order as it stands and the plan
// it was last given. An order without a plan has no instructions yet, and says why.
import type { RecordedEvent } from '../eventstore/event-store.js';
import { currentOrderIn, currentPlanIn, orderEventsIn } from '../orders/read-order-stream.js';
import type { OrderPlan } from './order-plan.js';
import { renderPackingInstructions } from './render-packing-instructions.js';
import { expandPlan } from '../plan-contract/plan-storage.js';

/** The order has no load plan (yet, or planning failed): there is nothing to print. */
export class OrderNotPlannedError extends Error {
  constructor(
    readonly serviceRef: string | undefined,
    readonly planningFailure?: string,
  ) {
    super(
      `order ${serviceRef ?? '(not submitted)'} has no load plan yet` +
        (planningFailure ? `: planning failed: ${planningFailure}` : ': planning has not finished'),
    );
    this.name = 'OrderNotPlannedError';
  }
}

// The events come from a worker's message, untyped: they are narrowed to order events here.
export async function renderFromOrderStream(
  events: readonly RecordedEvent[],
  options: { generatedAt?: Date; viewerUrl?: string } = {},
): Promise<Buffer> {
  const inOrder = orderEventsIn(events).sort((a, b) => (a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0));
  // the order as it stands (as last amended) and the plan of that version: a plan before an amend is void
  const submitted = currentOrderIn(inOrder);
  if (!submitted) throw new Error('these events hold no OrderSubmitted: not an order stream');
  const { planned, failed } = currentPlanIn(inOrder);
  if (!planned) throw new OrderNotPlannedError(submitted.service_ref, failed?.data.reason);
  const plan = expandPlan(planned.data.plan);
  assertPlanShape(plan, submitted.service_ref);
  return renderPackingInstructions({ submitted, plan, ...options });
}

// The plan is stored whole as the planner wrote it; a stored shape this code cannot read should
// fail with its name, not halfway through drawing.
function assertPlanShape(plan: unknown, serviceRef: string): asserts plan is OrderPlan {
  const p = plan as Partial<Record<keyof OrderPlan, unknown>> | null;
  if (!p || !Array.isArray(p.pallets) || !Array.isArray(p.containers) || !Array.isArray(p.unplaced)) {
    throw new Error(`order ${serviceRef}: the stored plan has no pallets, containers and unplaced lists`);
  }
}
