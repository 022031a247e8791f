// Writes orders into an event store in the state a long-running service holds them: an id from the
// order-ids stream, then in each order's stream OrderSubmitted and OrderPlanned (with one real plan,
// made once by the load planner and shared: the orders are alike). Much faster than HTTP, and the
// service builds its read models from them like from any log. `loadOrders` appends through the port
// (any adapter, durable appends); `writeOrders` writes the SQLite log's file itself through the store's
// own batch writer (revisions checked, hash chain, event ids as the store makes them), thousands of
// orders a transaction and no fsync until the end: a million orders in minutes.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { exactly, NO_STREAM, type EventStore, type ExpectedRevision } from '../src/eventstore/event-store.js';
import { prepareAppendBatch } from '../src/eventstore/sqlite/sqlite-append-batch.js';
import type { QueuedAppend } from '../src/eventstore/prepare-append.js';
import { EVENTS_FILE, openEventsDatabase } from '../src/eventstore/sqlite/sqlite-schema.js';
import { timeOrderedId } from '../src/eventstore/time-ordered-id.js';
import { nowMicros } from '../src/eventstore/recorded-at.js';
import { orderStream, serviceRefFor, type OrderIdAllocated, type OrderPlanned, type OrderSubmitted } from '../src/orders/order-events.js';
import { plannerInput } from '../src/planning/planner-input.js';
import { LoadPlanner } from '../src/planning/load-planner.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { utcTimestamp } from '../src/orders/clock.js';
import type { OrderPlan } from '../src/plan-contract/plan-types.js';

interface Append {
  stream: string;
  events: (OrderIdAllocated | OrderSubmitted | OrderPlanned)[];
  expected: ExpectedRevision;
}

/** The appends of orders start .. start + count - 1: their ids, then each order's stream. */
async function orderAppends(
  start: number,
  count: number,
  companyGroup: string,
  lane: LaneDocument,
  planOf: (submitted: OrderSubmitted['data']) => Promise<OrderPlan>,
): Promise<Append[]> {
  const ids = Array.from({ length: count }, (_, i) => start + i);
  const allocated: OrderIdAllocated[] = ids.map((order_id) => ({
    type: 'OrderIdAllocated',
    data: { order_id, service_ref: serviceRefFor(order_id) },
  }));
  const appends: Append[] = [{ stream: 'order-ids', events: allocated, expected: start === 1 ? NO_STREAM : exactly(BigInt(start - 2)) }];
  for (const order_id of ids) {
    const reference = `LOAD-${order_id}`;
    const submitted: OrderSubmitted = {
      type: 'OrderSubmitted',
      data: {
        order_id,
        service_ref: serviceRefFor(order_id),
        company_group: companyGroup,
        lane: { ...lane, items: lane.items.slice(0, 2) },
        order: {
          supplier_name: lane.supplier,
          consignee_name: lane.consignee,
          reference,
          transportation_mode: order_id % 3 ? 'OceanFCL' : 'TruckFTL',
          shipment_type: 'normal',
          order_items: lane.items.slice(0, 2).map((item, i) => ({
            item: item.sku,
            quantity: `${(order_id % 50) + i + 1}.000000`,
            purchase_order: `PO-${order_id}`,
            line_item_number: String(i + 1),
            notes: '',
          })),
          pre_builts: [],
          loose_boxes: [],
          order_containers: [{ code: '40ft', count: 5 }],
          customer_notes: null,
          send_email: false,
          extra_recipients: [],
          extra_cc_recipients: [],
        },
        submitted_at: utcTimestamp(),
      },
    };
    const plan = await planOf(submitted.data);
    const planned: OrderPlanned = {
      type: 'OrderPlanned',
      data: { order_id, service_ref: submitted.data.service_ref, reference, company_group: companyGroup, plan, planned_at: utcTimestamp() },
    };
    appends.push({ stream: orderStream(companyGroup, reference), events: [submitted, planned], expected: NO_STREAM });
  }
  return appends;
}

/** One real plan, made by the load planner for the first order and shared by all. */
function sharedPlan(): (submitted: OrderSubmitted['data']) => Promise<OrderPlan> {
  let plan: Promise<OrderPlan> | undefined;
  return (submitted) => (plan ??= planOnce(submitted));
}

export async function loadOrders(store: EventStore, count: number, companyGroup: string, lane: LaneDocument): Promise<void> {
  const chunk = 1000;
  const planOf = sharedPlan();
  for (let start = 1; start <= count; start += chunk) {
    const [ids, ...orders] = await orderAppends(start, Math.min(chunk, count - start + 1), companyGroup, lane, planOf);
    await store.append(ids!.stream, ids!.events, ids!.expected);
    await Promise.all(orders.map((order) => store.append(order.stream, order.events, order.expected)));
  }
}

/**
 * Writes `count` orders into `<dataDir>/events.db` (a new or an empty log; no service may have it open)
 * and fsyncs it once at the end. Returns the events written.
 */
export async function writeOrders(dataDir: string, count: number, companyGroup: string, lane: LaneDocument): Promise<number> {
  const db = openEventsDatabase(dataDir, false);
  try {
    db.pragma('synchronous = OFF');
    const writeBatch = prepareAppendBatch(db);
    const planOf = sharedPlan();
    const chunk = 5000;
    let events = 0;
    for (let start = 1; start <= count; start += chunk) {
      const appends = await orderAppends(start, Math.min(chunk, count - start + 1), companyGroup, lane, planOf);
      const batch = appends.map(
        (append): QueuedAppend => ({
          stream: append.stream,
          expected: append.expected,
          events: append.events.map((event) => ({ id: timeOrderedId(), type: event.type, data: JSON.stringify(event.data) })),
        }),
      );
      for (const outcome of writeBatch(batch, nowMicros())) {
        if (!outcome.ok) throw outcome.error;
        events += outcome.rows.length;
      }
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    return events;
  } finally {
    db.close();
    const fd = openSync(join(dataDir, EVENTS_FILE), 'r+');
    fsyncSync(fd);
    closeSync(fd);
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
