// Orders as the log holds them, reduced to what notifications read, and master data for their groups.
import { NO_STREAM, exactly, type EventStore, type RecordedEvent } from '../../../src/eventstore/event-store.js';
import type { CompanyGroup, MasterData } from '../../../src/master-data/master-data.js';
import { orderStream, serviceRefFor, type OrderPlanned, type OrderSubmitted } from '../../../src/orders/order-events.js';
import { emptyPlan } from '../../support/plans.js';

export const GROUP = 'Acme Group';
/** whsec_ + base64 of 24 bytes, as master data validation requires. */
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export function masterDataWith(...groups: Partial<CompanyGroup>[]): MasterData {
  return {
    groups: new Map(
      groups.map((group) => {
        const full: CompanyGroup = { name: GROUP, notification_emails: [], webhooks: [], ...group };
        return [full.name, full];
      }),
    ),
    keys: new Map(),
    lanes: new Map(),
  };
}

export interface OrderOptions {
  orderId: number;
  group?: string;
  reference?: string;
  sendEmail?: boolean;
  extraRecipients?: string[];
  extraCcRecipients?: string[];
}

/** Appends an order's OrderSubmitted and OrderPlanned to its stream; returns the OrderPlanned as stored. */
export async function appendPlannedOrder(
  store: EventStore,
  options: OrderOptions,
): Promise<RecordedEvent<'OrderPlanned', OrderPlanned['data']>> {
  const group = options.group ?? GROUP;
  const reference = options.reference ?? `PO-${options.orderId}`;
  const serviceRef = serviceRefFor(options.orderId);
  const stream = orderStream(group, reference);
  const submitted: OrderSubmitted = {
    type: 'OrderSubmitted',
    data: {
      order_id: options.orderId,
      service_ref: serviceRef,
      company_group: group,
      lane: {
        id: 101,
        supplier: 'Acme Supplier Ltd',
        consignee: 'Globex Consignee GmbH',
        transportation_modes: ['TruckFTL'],
        units: { length: 'cm', weight: 'kg' },
        pallet_types: [],
        container_codes: ['40ft'],
        items: [],
      },
      order: {
        supplier_name: 'Acme Supplier Ltd',
        consignee_name: 'Globex Consignee GmbH',
        reference,
        transportation_mode: 'TruckFTL',
        shipment_type: 'normal',
        order_items: [],
        pre_builts: [],
        loose_boxes: [],
        order_containers: [{ code: '40ft', count: 1 }],
        customer_notes: null,
        send_email: options.sendEmail ?? true,
        extra_recipients: options.extraRecipients ?? [],
        extra_cc_recipients: options.extraCcRecipients ?? [],
      },
      submitted_at: '2026-11-20T09:15:02.123456',
    },
  };
  const planned: OrderPlanned = {
    type: 'OrderPlanned',
    data: {
      order_id: options.orderId,
      service_ref: serviceRef,
      reference,
      company_group: group,
      plan: emptyPlan(),
      planned_at: '2026-11-20T09:15:03.654321',
    },
  };
  await store.append(stream, [submitted], NO_STREAM);
  const result = await store.append(stream, [planned], exactly(0n));
  const stored = (await store.readStream(stream)).find((event) => event.position === result.position);
  if (!stored) throw new Error('OrderPlanned not found after append');
  return stored as RecordedEvent<'OrderPlanned', OrderPlanned['data']>;
}
