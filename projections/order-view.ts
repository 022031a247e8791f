// The order read model behind retrieve and list: one document per order, built from its events.
import type { RecordedEvent } from '../src/eventstore/event-store.js';
import { isOrderEvent, type RecordedOrderEvent } from '../src/orders/read-order-stream.js';
import type { OrderView } from '../src/orders/order-view.js';

export interface OrderDocument {
  view: OrderView;
  /** Scope: only keys of this group may see the order. */
  company_group: string;
  /** The order's event stream, for its history. */
  stream: string;
}

/** Which order document an event belongs to. */
export function orderIdOf(event: RecordedEvent): number | undefined {
  const id = (event.data as { order_id?: unknown } | null)?.order_id;
  return typeof id === 'number' ? id : undefined;
}

export function projectOrderView(document: OrderDocument | undefined, event: RecordedEvent): OrderDocument | undefined {
  if (!isOrderEvent(event)) return document;
  const next = projectFields(document, event);
  // every event of the order moves its revision (the ETag), whatever else it changes
  return next && { ...next, view: { ...next.view, revision: Number(event.revision) } };
}

function projectFields(document: OrderDocument | undefined, orderEvent: RecordedOrderEvent): OrderDocument | undefined {
  const event = orderEvent;
  switch (orderEvent.type) {
    case 'OrderSubmitted': {
      const { order, lane, order_id, service_ref, company_group, submitted_at, consolidated_orders } = orderEvent.data;
      return {
        company_group,
        stream: event.stream,
        view: {
          id: order_id,
          service_ref,
          reference: order.reference,
          customer_notes: order.customer_notes,
          shipment_type: order.shipment_type,
          lane: lane.id,
          transport_name: order.transportation_mode,
          packing_instructions_downloaded: false,
          status: 'submitted',
          planning_failure_reason: null,
          order_items: order.order_items,
          pre_builts: order.pre_builts,
          loose_boxes: order.loose_boxes,
          created_at: submitted_at,
          updated_at: submitted_at,
          consolidated_into: null,
          consolidated_orders: consolidated_orders ?? [],
          cancellation_reason: null,
          revision: 0,
        },
      };
    }
    case 'OrderAmended':
    case 'OrderCancelled':
    case 'OrderPlanWithdrawn':
      return document && projectChange(document, orderEvent);
    case 'OrderPlanned':
      if (!document) return document;
      return {
        ...document,
        view: {
          ...document.view,
          status: 'planned',
          planning_failure_reason: null,
          updated_at: orderEvent.data.planned_at,
          consolidated_into: orderEvent.data.consolidated_into ?? document.view.consolidated_into ?? null,
        },
      };
    case 'OrderPlanningFailed':
      if (!document) return document;
      return {
        ...document,
        view: {
          ...document.view,
          status: 'planning_failed',
          planning_failure_reason: orderEvent.data.reason,
          updated_at: orderEvent.data.failed_at,
        },
      };
    case 'PackingInstructionsDownloaded':
      if (!document) return document;
      return {
        ...document,
        view: { ...document.view, packing_instructions_downloaded: true, updated_at: orderEvent.data.downloaded_at },
      };
    default:
      // joining a window changes no field but the revision
      return document;
  }
}

// What an amend, a cancel and a withdrawn plan change (issue 59): a new version of the order waits for its
// plan again; a cancelled one is done. Each leaves any consolidated shipment it was in.
function projectChange(
  document: OrderDocument,
  orderEvent: RecordedOrderEvent<'OrderAmended' | 'OrderCancelled' | 'OrderPlanWithdrawn'>,
): OrderDocument {
  switch (orderEvent.type) {
    case 'OrderAmended': {
      const { order, lane, amended_at } = orderEvent.data;
      return {
        ...document,
        view: {
          ...document.view,
          customer_notes: order.customer_notes,
          shipment_type: order.shipment_type,
          lane: lane.id,
          status: 'submitted',
          planning_failure_reason: null,
          order_items: order.order_items,
          pre_builts: order.pre_builts,
          loose_boxes: order.loose_boxes,
          updated_at: amended_at,
          consolidated_into: null,
        },
      };
    }
    case 'OrderCancelled':
      return {
        ...document,
        view: {
          ...document.view,
          status: 'cancelled',
          cancellation_reason: orderEvent.data.reason,
          updated_at: orderEvent.data.cancelled_at,
          // it left any shipment it was in, and the list shows it again
          consolidated_into: null,
        },
      };
    case 'OrderPlanWithdrawn':
      return {
        ...document,
        view: { ...document.view, status: 'submitted', updated_at: orderEvent.data.withdrawn_at, consolidated_into: null },
      };
  }
}
