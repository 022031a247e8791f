// The one reader of an order's stream: stored events come back from the store untyped (any type, any
// data), and this is the only place that says which of them are order events. Everything that reads
// an order's events (its state, the plan, the e-mail, the projections, the reactors) narrows here
// instead of casting: an event of a type this version does not know is left out, as evolveOrder
// would ignore it.
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { CurrentOrder, OrderEvent, OrderSubmitted } from './order-events.js';

/** An order event as stored: its type and data together, with its place in the stream and the log. */
export type RecordedOrderEvent<Type extends OrderEvent['type'] = OrderEvent['type']> = {
  [T in Type]: RecordedEvent<T, Extract<OrderEvent, { type: T }>['data']>;
}[Type];

// Every type of OrderEvent and only those: the compiler refuses this table when the union changes.
const ORDER_EVENT_TYPES: Record<OrderEvent['type'], true> = {
  OrderSubmitted: true,
  OrderJoinedConsolidation: true,
  OrderPlanned: true,
  OrderPlanningFailed: true,
  PackingInstructionsDownloaded: true,
  OrderAmended: true,
  OrderCancelled: true,
  OrderPlanWithdrawn: true,
};

/** Whether a stored event is an order event (of `type`, when given). */
export function isOrderEvent<Type extends OrderEvent['type']>(event: RecordedEvent, type?: Type): event is RecordedOrderEvent<Type> {
  return type === undefined ? Object.hasOwn(ORDER_EVENT_TYPES, event.type) : event.type === type;
}

/** The order events among stored events, in their order. */
export function orderEventsIn(events: readonly RecordedEvent[]): RecordedOrderEvent[] {
  return events.filter((event): event is RecordedOrderEvent => isOrderEvent(event));
}

/** The order's events in revision order; none when the stream does not exist. */
export async function readOrderStream(store: EventStore, stream: string): Promise<RecordedOrderEvent[]> {
  return orderEventsIn(await store.readStream(stream));
}

/** The order as submitted: the stream's OrderSubmitted, undefined when there is none. */
export function submittedIn(events: readonly RecordedOrderEvent[]): OrderSubmitted['data'] | undefined {
  return events.find((event): event is RecordedOrderEvent<'OrderSubmitted'> => event.type === 'OrderSubmitted')?.data;
}

/**
 * The order as it stands after these events: its submit with the newest amend's order and lane, and
 * its version (each amend and each plan withdrawn from a dissolved shipment is one more). What the
 * planner plans and the instructions print; undefined without an OrderSubmitted.
 */
export function currentOrderIn(events: readonly RecordedOrderEvent[]): CurrentOrder | undefined {
  let current: CurrentOrder | undefined;
  for (const event of events) {
    if (event.type === 'OrderSubmitted') current = { ...event.data, version: 0 };
    else if (current && event.type === 'OrderAmended')
      current = { ...current, order: event.data.order, lane: event.data.lane, version: event.data.version };
    else if (current && event.type === 'OrderPlanWithdrawn') current = { ...current, version: event.data.version };
  }
  return current;
}

/**
 * The plan of the order as it stands: its newest OrderPlanned, unless an amend, a cancel or a withdrawn
 * plan came after it (that plan is void); and the newest planning failure in the same way.
 */
export function currentPlanIn(events: readonly RecordedOrderEvent[]): {
  planned?: RecordedOrderEvent<'OrderPlanned'>;
  failed?: RecordedOrderEvent<'OrderPlanningFailed'>;
} {
  let result: { planned?: RecordedOrderEvent<'OrderPlanned'>; failed?: RecordedOrderEvent<'OrderPlanningFailed'> } = {};
  for (const event of events) {
    if (event.type === 'OrderPlanned') result = { planned: event };
    else if (event.type === 'OrderPlanningFailed') result = { failed: event };
    else if (event.type === 'OrderAmended' || event.type === 'OrderCancelled' || event.type === 'OrderPlanWithdrawn') result = {};
  }
  return result;
}
