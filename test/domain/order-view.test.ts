import t from 'tap';
import { projectOrderView } from '../../projections/order-view.js';
import type { OrderSubmitted } from '../../src/orders/order-events.js';
import { recorded } from './given.js';

const submitted: OrderSubmitted = {
  type: 'OrderSubmitted',
  data: {
    order_id: 3,
    service_ref: 'SO-000003',
    company_group: 'Acme Group',
    lane: {
      id: 101,
      supplier: 'S',
      consignee: 'C',
      transportation_modes: ['OceanFCL'],
      units: { length: 'cm', weight: 'kg' },
      pallet_types: [],
      container_codes: ['40ft'],
      items: [],
    },
    order: {
      supplier_name: 'S',
      consignee_name: 'C',
      reference: 'PO-3',
      transportation_mode: 'TruckFTL',
      shipment_type: 'dangerous_goods',
      order_items: [{ item: 'SKU-1', quantity: '2.500000', purchase_order: 'P', line_item_number: 'L', notes: '' }],
      pre_builts: [],
      loose_boxes: [],
      order_containers: [{ code: '40ft', count: 5 }],
      customer_notes: 'fragile',
      send_email: false,
      extra_recipients: [],
      extra_cc_recipients: [],
    },
    submitted_at: '2026-11-20T09:15:02.123456',
  },
};

t.test('given nothing, when OrderSubmitted, then the view shows every field of spec 2.1', async (t) => {
  const document = projectOrderView(undefined, recorded(submitted, 'order:Acme%20Group:PO-3'));
  t.same(document, {
    company_group: 'Acme Group',
    stream: 'order:Acme%20Group:PO-3',
    view: {
      id: 3,
      service_ref: 'SO-000003',
      reference: 'PO-3',
      customer_notes: 'fragile',
      shipment_type: 'dangerous_goods',
      lane: 101,
      transport_name: 'TruckFTL',
      packing_instructions_downloaded: false,
      status: 'submitted',
      planning_failure_reason: null,
      order_items: [{ item: 'SKU-1', quantity: '2.500000', purchase_order: 'P', line_item_number: 'L', notes: '' }],
      pre_builts: [],
      loose_boxes: [],
      created_at: '2026-11-20T09:15:02.123456',
      updated_at: '2026-11-20T09:15:02.123456',
      consolidated_into: null,
      consolidated_orders: [],
    },
  });
});

t.test('given a submitted order, when PackingInstructionsDownloaded, then the flag reads true and updated_at moves', async (t) => {
  const before = projectOrderView(undefined, recorded(submitted));
  const after = projectOrderView(
    before,
    recorded({ type: 'PackingInstructionsDownloaded', data: { order_id: 3, downloaded_at: '2026-11-21T10:00:00.000001' } }),
  );
  t.equal(after?.view.packing_instructions_downloaded, true);
  t.equal(after?.view.updated_at, '2026-11-21T10:00:00.000001');
  t.equal(after?.view.created_at, '2026-11-20T09:15:02.123456');
  t.equal(before?.view.packing_instructions_downloaded, false, 'the earlier document is not mutated');
});

t.test('given a submitted order, when OrderPlanned, then the status reads planned and updated_at moves', async (t) => {
  const before = projectOrderView(undefined, recorded(submitted));
  const after = projectOrderView(
    before,
    recorded({
      type: 'OrderPlanned',
      data: {
        order_id: 3,
        service_ref: 'SO-000003',
        reference: 'PO-3',
        company_group: 'Acme Group',
        plan: {},
        planned_at: '2026-11-20T09:15:03.000001',
      },
    }),
  );
  t.equal(after?.view.status, 'planned');
  t.equal(after?.view.planning_failure_reason, null);
  t.equal(after?.view.updated_at, '2026-11-20T09:15:03.000001');
  t.equal(before?.view.status, 'submitted', 'the earlier document is not mutated');
});

t.test('given a submitted order, when OrderPlanningFailed, then the status reads planning_failed with the reason', async (t) => {
  const before = projectOrderView(undefined, recorded(submitted));
  const after = projectOrderView(
    before,
    recorded({
      type: 'OrderPlanningFailed',
      data: { order_id: 3, service_ref: 'SO-000003', reason: 'the planner ran out of time', failed_at: '2026-11-20T09:15:13.000001' },
    }),
  );
  t.equal(after?.view.status, 'planning_failed');
  t.equal(after?.view.planning_failure_reason, 'the planner ran out of time');
  t.equal(after?.view.updated_at, '2026-11-20T09:15:13.000001');
});

t.test('given nothing, when a plan is recorded for an unknown order, then there is still no document', async (t) => {
  t.equal(
    projectOrderView(
      undefined,
      recorded({ type: 'OrderPlanningFailed', data: { order_id: 9, service_ref: 'SO-000009', reason: 'x', failed_at: 'x' } }),
    ),
    undefined,
  );
});

t.test('given nothing, when a download is recorded for an unknown order, then there is still no document', async (t) => {
  t.equal(
    projectOrderView(undefined, recorded({ type: 'PackingInstructionsDownloaded', data: { order_id: 9, downloaded_at: 'x' } })),
    undefined,
  );
});

t.test('given a document, when an unrelated event comes, then the document is unchanged', async (t) => {
  const before = projectOrderView(undefined, recorded(submitted));
  t.equal(projectOrderView(before, recorded({ type: 'OrderIdAllocated', data: { order_id: 3, service_ref: 'SO-000003' } })), before);
});
