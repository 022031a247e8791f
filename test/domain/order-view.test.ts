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
      cancellation_reason: null,
      revision: 0,
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

// Issue 59: an amend, a cancel, a withdrawn plan; every event moves the revision (retrieve's ETag).
const at = (event: Parameters<typeof recorded>[0], revision: number) => ({
  ...recorded(event, 'order:Acme%20Group:PO-3'),
  revision: BigInt(revision),
});
const amendedOrder = {
  ...submitted.data.order,
  order_items: [],
  loose_boxes: [],
  customer_notes: 'now boxes',
  shipment_type: 'normal' as const,
};

t.test(
  'given a planned order, when OrderAmended, then the view shows the new cargo and notes, submitted again, at the new revision',
  async (t) => {
    const planned = projectOrderView(
      projectOrderView(undefined, at(submitted, 0)),
      at(
        {
          type: 'OrderPlanned',
          data: {
            order_id: 3,
            service_ref: 'SO-000003',
            reference: 'PO-3',
            company_group: 'Acme Group',
            plan: {},
            planned_at: '2026-11-20T09:15:03.000000',
          },
        },
        1,
      ),
    );
    const amended = projectOrderView(
      planned,
      at(
        {
          type: 'OrderAmended',
          data: {
            order_id: 3,
            service_ref: 'SO-000003',
            company_group: 'Acme Group',
            version: 1,
            lane: submitted.data.lane,
            order: amendedOrder,
            amended_at: '2026-11-20T10:00:00.000000',
          },
        },
        2,
      ),
    );
    t.match(amended?.view, {
      status: 'submitted',
      order_items: [],
      customer_notes: 'now boxes',
      shipment_type: 'normal',
      updated_at: '2026-11-20T10:00:00.000000',
      revision: 2,
      reference: 'PO-3',
    });
    t.equal(Object.keys(amended!.view).at(-1), 'revision', 'the revision is the last field (revisionOfViewJson reads it from the end)');
  },
);

t.test(
  'given an order, when OrderCancelled, then it reads cancelled with the reason; joining a window moves only the revision',
  async (t) => {
    const joined = projectOrderView(
      projectOrderView(undefined, at(submitted, 0)),
      at({ type: 'OrderJoinedConsolidation', data: { order_id: 3, service_ref: 'SO-000003', consolidation: 'c', joined_at: 'x' } }, 1),
    );
    t.equal(joined?.view.revision, 1);
    t.equal(joined?.view.status, 'submitted');
    const cancelled = projectOrderView(
      joined,
      at(
        {
          type: 'OrderCancelled',
          data: {
            order_id: 3,
            service_ref: 'SO-000003',
            reference: 'PO-3',
            company_group: 'Acme Group',
            reason: 'called off',
            cancelled_at: '2026-11-20T11:00:00.000000',
            status_before: 'submitted',
            packing_instructions_downloaded: false,
          },
        },
        2,
      ),
    );
    t.match(cancelled?.view, {
      status: 'cancelled',
      cancellation_reason: 'called off',
      updated_at: '2026-11-20T11:00:00.000000',
      revision: 2,
      consolidated_into: null,
    });
  },
);

t.test('given a child of a shipment, when its plan is withdrawn, then it is submitted again and no longer a child', async (t) => {
  const child = projectOrderView(
    projectOrderView(undefined, at(submitted, 0)),
    at(
      {
        type: 'OrderPlanned',
        data: {
          order_id: 3,
          service_ref: 'SO-000003',
          reference: 'PO-3',
          company_group: 'Acme Group',
          plan: {},
          planned_at: 'x',
          consolidated_into: 'SO-000009',
        },
      },
      1,
    ),
  );
  t.equal(child?.view.consolidated_into, 'SO-000009');
  const withdrawn = projectOrderView(
    child,
    at(
      {
        type: 'OrderPlanWithdrawn',
        data: {
          order_id: 3,
          service_ref: 'SO-000003',
          company_group: 'Acme Group',
          version: 1,
          shipment: 'SO-000009',
          reason: 'r',
          withdrawn_at: '2026-11-20T12:00:00.000000',
        },
      },
      2,
    ),
  );
  t.match(withdrawn?.view, { status: 'submitted', consolidated_into: null, revision: 2 });
});
