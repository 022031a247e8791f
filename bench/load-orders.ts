// Writes orders straight into an event store in the state a long-running service holds them: an id
// from the order-ids stream, then in each order's stream OrderSubmitted and OrderPlanned (with one
// real plan, made once by the load planner and shared: the orders are alike). Much faster than HTTP,
// and the service builds its read models from them like from any log.
import { exactly, NO_STREAM, type EventStore } from '../src/eventstore/event-store.js';
import { orderStream, serviceRefFor, type OrderIdAllocated, type OrderPlanned, type OrderSubmitted } from '../src/orders/order-events.js';
import { plannerInput } from '../src/planning/planner-input.js';
import { LoadPlanner } from '../src/planning/load-planner.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { utcTimestamp } from '../src/orders/clock.js';
import type { OrderPlan } from '../src/plan-contract/plan-types.js';

export async function loadOrders(store: EventStore, count: number, companyGroup: string, lane: LaneDocument): Promise<void> {
  const chunk = 1000;
  let plan: OrderPlan | undefined;
  for (let start = 1; start <= count; start += chunk) {
    const ids = Array.from({ length: Math.min(chunk, count - start + 1) }, (_, i) => start + i);
    const allocated: OrderIdAllocated[] = ids.map((order_id) => ({ type: 'OrderIdAllocated', data: { order_id, service_ref: serviceRefFor(order_id) } }));
    await store.append('order-ids', allocated, start === 1 ? NO_STREAM : exactly(BigInt(start - 2)));
    const submitted = ids.map((order_id): OrderSubmitted => {
      const reference = `LOAD-${order_id}`;
      return {
        type: 'OrderSubmitted',
        data: {
          order_id,
          service_ref: serviceRefFor(order_id),
          company_group: companyGroup,
          lane: { ...lane, items: lane.items.slice(0, 2) },
          order: {
            supplier_name: lane.supplier, consignee_name: lane.consignee, reference, transportation_mode: order_id % 3 ? 'OceanFCL' : 'TruckFTL',
            shipment_type: 'normal',
            order_items: lane.items.slice(0, 2).map((item, i) => ({ item: item.sku, quantity: `${(order_id % 50) + i + 1}.000000`, purchase_order: `PO-${order_id}`, line_item_number: String(i + 1), notes: '' })),
            pre_builts: [], loose_boxes: [], order_containers: [{ code: '40ft', count: 5 }], customer_notes: null, send_email: false, extra_recipients: [], extra_cc_recipients: [],
          },
          submitted_at: utcTimestamp(),
        },
      };
    });
    plan ??= await planOnce(submitted[0]!.data);
    const shared = plan;
    await Promise.all(submitted.map((event) => {
      const { order_id, service_ref, order } = event.data;
      const planned: OrderPlanned = { type: 'OrderPlanned', data: { order_id, service_ref, reference: order.reference, company_group: companyGroup, plan: shared, planned_at: utcTimestamp() } };
      return store.append(orderStream(companyGroup, order.reference), [event, planned], NO_STREAM);
    }));
  }
}

async function planOnce(submitted: OrderSubmitted['data']): Promise<OrderPlan> {
  const planner = new LoadPlanner({ threads: 1 });
  try {
    return await planner.plan(plannerInput(submitted));
  } finally {
    await planner.close();
  }
}
