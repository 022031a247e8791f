import t, { type Test } from 'tap';
import type { OrderCommand, SubmitConsolidatedOrder, SubmitOrder } from '../../src/orders/order-decider.js';
import type { OrderEvent, OrderPlanned, OrderSubmitted } from '../../src/orders/order-events.js';
import type { SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';
import { normalizedAcmeOrder, testSeed } from '../support/seed.js';
import { orderDecider } from '../../src/orders/order-decider.js';
import { eventsFor, masterDataFrom, spec } from './given.js';
import { emptyPlan } from '../support/plans.js';

const masterData = masterDataFrom(eventsFor(testSeed()));
const payload = normalizedAcmeOrder;
const order = (t: Test) => spec(t, orderDecider);

function submit(orderPayload: SubmitOrderPayload, companyGroup = 'Acme Group', data: Partial<SubmitOrder['data']> = {}): OrderCommand {
  return {
    type: 'SubmitOrder',
    data: {
      order: orderPayload,
      company_group: companyGroup,
      order_id: 7,
      service_ref: 'SO-000007',
      submitted_at: '2026-11-20T09:15:02.123456',
      masterData,
      ...data,
    },
  };
}

function submitted(): OrderSubmitted {
  const decision = orderDecider.decide(submit(payload()), orderDecider.initialState());
  if (!decision.ok) throw new Error('the test order is refused');
  return decision.events[0] as OrderSubmitted;
}

const planned: OrderPlanned = {
  type: 'OrderPlanned',
  data: {
    order_id: 7,
    service_ref: 'SO-000007',
    reference: 'PO-1',
    company_group: 'Acme Group',
    plan: emptyPlan(),
    planned_at: '2026-11-20T09:15:03.000000',
  },
};
const failed: OrderEvent = {
  type: 'OrderPlanningFailed',
  data: { order_id: 7, service_ref: 'SO-000007', reason: 'no container fits', failed_at: '2026-11-20T09:15:03.000000' },
};
const planResult: OrderCommand = {
  type: 'RecordPlanResult',
  data: { plan: emptyPlan(1), planned_at: '2026-11-20T09:16:00.000000', version: 0 },
};
const planFailure: OrderCommand = {
  type: 'RecordPlanResult',
  data: { reason: 'the planner stopped', failed_at: '2026-11-20T09:16:00.000000', version: 0 },
};
const download: OrderCommand = { type: 'RecordDownload', data: { downloaded_at: '2026-11-20T10:00:00.000000' } };

t.test('submit', async (t) => {
  t.test(
    'given no order, when a valid order is submitted, then OrderSubmitted carries the order and a snapshot of the lane with only its items',
    async (t) => {
      const { decision } = order(t).given().when(submit(payload()));
      if (!decision.ok) return t.fail('refused');
      const [event] = decision.events as OrderSubmitted[];
      t.match(event?.data, {
        order_id: 7,
        service_ref: 'SO-000007',
        company_group: 'Acme Group',
        submitted_at: '2026-11-20T09:15:02.123456',
      });
      t.equal(event?.data.lane.id, 101);
      t.same(
        event?.data.lane.items.map((item) => item.sku),
        ['SKU-1001'],
      );
      t.same(event?.data.lane.pallet_types[0]?.code, 'EUR');
      t.same(event?.data.order, payload());
    },
  );

  t.test('given no order, when an order with only loose boxes is submitted, then no item master is needed', async (t) => {
    order(t)
      .given()
      .when(
        submit(
          payload({
            order_items: [],
            loose_boxes: [
              {
                name: 'Carton',
                length: '40.000000',
                width: '30.000000',
                height: '20.000000',
                weight: '5.000000',
                count: 3,
                purchase_order: '',
                line_item_number: '',
                product_quantity: null,
                product_packages: null,
                double_stacked_bottom: false,
                double_stacked_top: false,
                rotation_x: true,
                rotation_y: true,
                rotation_z: true,
              },
            ],
          }),
        ),
      )
      .thenMatch({ events: [{ type: 'OrderSubmitted', data: { lane: { items: [] } } }] });
  });

  t.test('given an order with this reference, when another order is submitted under it, then the reference is refused', async (t) => {
    order(t)
      .given(submitted())
      .when(submit(payload({ customer_notes: 'a second order' })))
      .then({ errors: { reference: ['An order with this reference already exists.'] } });
  });

  t.test('given an order with this reference, when the same order is submitted again (a retry), then nothing is recorded', async (t) => {
    order(t)
      .given(submitted())
      .when(submit(payload(), 'Acme Group', { order_id: 8, service_ref: 'SO-000008' }))
      .then([]);
  });

  t.test('given an order stored before counts were marked exact, when it is retried with the mark, then it is still a retry', async (t) => {
    const before = submitted();
    before.data.order.order_containers = [{ code: '40ft', count: 2 }];
    order(t)
      .given(before)
      .when(submit(payload({ order_containers: [{ code: '40ft', count: 2, exact: true }] })))
      .then([]);
    order(t)
      .given(before)
      .when(submit(payload({ order_containers: [{ code: '40ft', count: 3, exact: true }] })))
      .then({ errors: { reference: ['An order with this reference already exists.'] } });
  });

  t.test('given an order, when it is retried after its lane was removed from master data, then it is still a retry', async (t) => {
    const noLanes = { ...masterData, lanes: new Map() };
    order(t)
      .given(submitted())
      .when(submit(payload(), 'Acme Group', { masterData: noLanes }))
      .then([]);
  });

  t.test(
    'given an order that was planned and downloaded, when another order is submitted under its reference, then it is still refused',
    async (t) => {
      order(t)
        .given(submitted(), planned, { type: 'PackingInstructionsDownloaded', data: { order_id: 7, downloaded_at: '' } })
        .when(submit(payload({ send_email: false })))
        .then({ errors: { reference: ['An order with this reference already exists.'] } });
    },
  );

  t.test('given no lane with that supplier, when submitted, then only supplier_name is named', async (t) => {
    const { decision } = order(t)
      .given()
      .when(submit(payload({ supplier_name: 'acme supplier ltd' })));
    t.match(decision, { ok: false, errors: { supplier_name: [/case-sensitive/] } });
    t.notOk(!decision.ok && 'consignee_name' in decision.errors);
  });

  t.test('given no lane with that consignee, when submitted, then consignee_name is named', async (t) => {
    order(t)
      .given()
      .when(submit(payload({ consignee_name: 'Nobody' })))
      .thenMatch({ errors: { consignee_name: [/Nobody/] } });
  });

  t.test(
    'given supplier and consignee known only on different lanes, when submitted, then the pair is refused under non_field_errors',
    async (t) => {
      const seed = testSeed();
      const acme = seed.company_groups[0]!;
      acme.lanes.push({ ...acme.lanes[1]!, id: 103, supplier: 'Wayne Supplies', consignee: 'Initech Receiving' });
      order(t)
        .given()
        .when(submit(payload({ supplier_name: 'Wayne Supplies' }), 'Acme Group', { masterData: masterDataFrom(eventsFor(seed)) }))
        .then({
          errors: {
            non_field_errors: ['No lane of your company group connects supplier "Wayne Supplies" to consignee "Globex Consignee GmbH".'],
          },
        });
    },
  );

  t.test("given another group's lane, when this group submits on it, then the lane is not found", async (t) => {
    order(t)
      .given()
      .when(submit(payload({ supplier_name: 'Other Supplier', consignee_name: 'Other Consignee' })))
      .thenMatch({ errors: { supplier_name: [/Other Supplier/], consignee_name: [/Other Consignee/] } });
  });

  t.test('given a lane that only accepts TruckFTL, when an OceanFCL order comes, then transportation_mode is named', async (t) => {
    order(t)
      .given()
      .when(
        submit(
          payload({
            consignee_name: 'Initech Receiving',
            order_items: [],
            loose_boxes: [],
            pre_builts: [],
            order_containers: [{ code: '20ft', count: 5 }],
          }),
        ),
      )
      .thenMatch({ errors: { transportation_mode: [/does not accept OceanFCL/] } });
  });

  t.test('given containers not enabled on the lane, when submitted, then each is named by index', async (t) => {
    order(t)
      .given()
      .when(
        submit(
          payload({
            order_containers: [
              { code: '40ft', count: 1 },
              { code: '45ft-HC', count: 2 },
            ],
          }),
        ),
      )
      .then({
        errors: { order_containers: [{}, { code: ['Container code 45ft-HC is not enabled on lane 101; enabled: 20ft, 40ft, 40ft-HC.'] }] },
      });
  });

  t.test('given SKUs outside the item master, when submitted, then each is named by index', async (t) => {
    order(t)
      .given()
      .when(
        submit(
          payload({
            order_items: [
              { item: 'SKU-1001', quantity: '1.000000', purchase_order: '', line_item_number: '', notes: '' },
              { item: 'SKU-9999', quantity: '1.000000', purchase_order: '', line_item_number: '', notes: '' },
            ],
          }),
        ),
      )
      .then({ errors: { order_items: [{}, { item: ['SKU SKU-9999 is not in the item master of lane 101.'] }] } });
  });
});

t.test('record the plan result', async (t) => {
  t.test(
    'given a submitted order, when the planner returns a plan, then OrderPlanned names the order, its reference and group',
    async (t) => {
      order(t)
        .given(submitted())
        .when(planResult)
        .then([
          {
            type: 'OrderPlanned',
            data: {
              order_id: 7,
              service_ref: 'SO-000007',
              reference: 'PO-1',
              company_group: 'Acme Group',
              plan: emptyPlan(1),
              planned_at: '2026-11-20T09:16:00.000000',
            },
          },
        ]);
    },
  );

  t.test('given a submitted order, when the planner fails, then OrderPlanningFailed carries the reason', async (t) => {
    order(t)
      .given(submitted())
      .when(planFailure)
      .then([
        {
          type: 'OrderPlanningFailed',
          data: {
            order_id: 7,
            service_ref: 'SO-000007',
            reason: 'the planner stopped',
            failed_at: '2026-11-20T09:16:00.000000',
          },
        },
      ]);
  });

  t.test('given a planned order, when another result comes (a second instance, a replay), then nothing is recorded', async (t) => {
    order(t).given(submitted(), planned).when(planResult).then([]);
    order(t).given(submitted(), planned).when(planFailure).then([]);
  });

  t.test('given an order whose planning failed, when another result comes, then nothing is recorded', async (t) => {
    order(t).given(submitted(), failed).when(planResult).then([]);
  });

  t.test('given no order, when a plan result comes, then it is refused', async (t) => {
    order(t)
      .given()
      .when(planResult)
      .then({ errors: { non_field_errors: ['No order has been submitted in this stream.'] } });
  });
});

t.test('record a download', async (t) => {
  t.test('given a planned order, when its packing instructions are downloaded, then the download is recorded', async (t) => {
    order(t)
      .given(submitted(), planned)
      .when(download)
      .then([{ type: 'PackingInstructionsDownloaded', data: { order_id: 7, downloaded_at: '2026-11-20T10:00:00.000000' } }]);
  });

  t.test('given a planned order downloaded before, when it is downloaded again, then that download is recorded too', async (t) => {
    order(t)
      .given(submitted(), planned, {
        type: 'PackingInstructionsDownloaded',
        data: { order_id: 7, downloaded_at: '2026-11-20T09:30:00.000000' },
      })
      .when(download)
      .thenMatch({ events: [{ type: 'PackingInstructionsDownloaded' }] });
  });

  t.test('given an order without a plan, when a download is recorded, then it is refused', async (t) => {
    order(t)
      .given(submitted())
      .when(download)
      .then({ errors: { order: ['The order has no plan yet.'] } });
    order(t)
      .given(submitted(), failed)
      .when(download)
      .then({ errors: { order: ['The order has no plan yet.'] } });
  });

  t.test('given no order, when a download is recorded, then it is refused', async (t) => {
    order(t)
      .given()
      .when(download)
      .then({ errors: { order: ['No order has been submitted in this stream.'] } });
  });
});

const parentSubmitted: OrderSubmitted = {
  type: 'OrderSubmitted',
  data: {
    order_id: 9,
    service_ref: 'SO-000009',
    company_group: 'Acme Group',
    lane: submitted().data.lane,
    order: payload({ reference: 'CONSOLIDATED-SO-000009', customer_notes: 'Consolidated shipment of SO-000007, SO-000008.' }),
    submitted_at: '2026-11-20T10:00:00.000001',
    consolidated_orders: ['SO-000007', 'SO-000008'],
  },
};
const parentPlanned: OrderPlanned = {
  type: 'OrderPlanned',
  data: {
    order_id: 9,
    service_ref: 'SO-000009',
    reference: 'CONSOLIDATED-SO-000009',
    company_group: 'Acme Group',
    plan: emptyPlan(2),
    planned_at: '2026-11-20T10:00:00.000001',
  },
};

t.test('submit a consolidated order (the parent of a consolidated shipment)', async (t) => {
  const parentOrder = (): SubmitOrderPayload =>
    payload({ reference: 'CONSOLIDATED-SO-000009', customer_notes: 'Consolidated shipment of SO-000007, SO-000008.' });
  const lane = submitted().data.lane;
  const parent = (data: Partial<SubmitConsolidatedOrder['data']> = {}): OrderCommand => ({
    type: 'SubmitConsolidatedOrder',
    data: {
      order_id: 9,
      service_ref: 'SO-000009',
      company_group: 'Acme Group',
      lane,
      order: parentOrder(),
      consolidated_orders: ['SO-000007', 'SO-000008'],
      plan: emptyPlan(2),
      planned_at: '2026-11-20T10:00:00.000001',
      ...data,
    },
  });
  t.test(
    'given no order, when the parent is submitted, then it is recorded submitted and planned at once, at the time it was planned',
    async (t) => {
      order(t).given().when(parent()).then([parentSubmitted, parentPlanned]);
    },
  );

  t.test(
    'given the parent recorded, when it is submitted again with the same ids (a replay after a crash), then nothing is recorded',
    async (t) => {
      order(t).given(parentSubmitted, parentPlanned).when(parent()).then([]);
      order(t)
        .given(parentSubmitted, parentPlanned)
        .when(parent({ planned_at: '2026-11-20T11:00:00.000001', plan: emptyPlan(3) }))
        .then([]);
    },
  );

  t.test('given a client order under the parent reference, when the parent is submitted, then the reference is refused', async (t) => {
    order(t)
      .given(submitted())
      .when(parent())
      .then({ errors: { reference: ['An order with this reference already exists.'] } });
    order(t)
      .given(parentSubmitted, parentPlanned)
      .when(parent({ order_id: 10, service_ref: 'SO-000010' }))
      .then({ errors: { reference: ['An order with this reference already exists.'] } });
  });

  t.test('given no order, when a parent names fewer than two orders, then it is refused', async (t) => {
    order(t)
      .given()
      .when(parent({ consolidated_orders: ['SO-000007'] }))
      .then({ errors: { non_field_errors: ['A consolidated order ships at least two orders.'] } });
  });

  t.test(
    'given the parent recorded, when the planner reports on it or it is downloaded, then it behaves as any planned order',
    async (t) => {
      order(t).given(parentSubmitted, parentPlanned).when(planResult).then([]);
      order(t)
        .given(parentSubmitted, parentPlanned)
        .when(download)
        .then([{ type: 'PackingInstructionsDownloaded', data: { order_id: 9, downloaded_at: '2026-11-20T10:00:00.000000' } }]);
    },
  );
});

t.test('given an event type this version does not know, when the order is folded, then the event changes nothing', async (t) => {
  const unknown = { type: 'OrderStatusNoted', data: {} } as unknown as OrderEvent;
  order(t)
    .given(submitted(), unknown)
    .when(planResult)
    .thenMatch({ events: [{ type: 'OrderPlanned' }] });
});

// Amend and cancel (issue 59). Revisions count the stream's events from 0: submitted() alone is revision 0.
const amend = (order: SubmitOrderPayload, expected_revision: number): OrderCommand => ({
  type: 'AmendOrder',
  data: { order, expected_revision, amended_at: '2026-11-20T11:00:00.000000', masterData },
});
const cancel = (data: { reason?: string | null; expected_revision?: number } = {}): OrderCommand => ({
  type: 'CancelOrder',
  data: {
    reason: data.reason ?? null,
    cancelled_at: '2026-11-20T12:00:00.000000',
    ...(data.expected_revision === undefined ? {} : { expected_revision: data.expected_revision }),
  },
});
const moreCargo = () =>
  payload({ order_items: [{ item: 'SKU-1001', quantity: '40.000000', purchase_order: '', line_item_number: '', notes: '' }] });
function amended(version = 1): OrderEvent {
  const decision = orderDecider.decide(amend(moreCargo(), 0), [submitted()].reduce(orderDecider.evolve, orderDecider.initialState()));
  if (!decision.ok) throw new Error('the test amend is refused');
  const event = decision.events[0] as Extract<OrderEvent, { type: 'OrderAmended' }>;
  return { ...event, data: { ...event.data, version } };
}
const plannedV1: OrderEvent = { ...planned, data: { ...planned.data, version: 1 } };

t.test('amend', async (t) => {
  t.test(
    'given a planned order, when it is amended at its revision, then OrderAmended carries version 1, the new cargo and the lane',
    async (t) => {
      order(t)
        .given(submitted(), planned)
        .when(amend(moreCargo(), 1))
        .thenMatch({
          events: [
            {
              type: 'OrderAmended',
              data: {
                order_id: 7,
                service_ref: 'SO-000007',
                company_group: 'Acme Group',
                version: 1,
                order: moreCargo(),
                lane: { id: 101 },
              },
            },
          ],
        });
    },
  );
  t.test('given an order amended once, when amended again, then the version is 2', async (t) => {
    order(t)
      .given(submitted(), planned, amended(), plannedV1)
      .when(amend(payload(), 3))
      .thenMatch({ events: [{ type: 'OrderAmended', data: { version: 2, order: payload() } }] });
  });
  t.test('given an order at revision 1, when the amend names revision 0 (stale If-Match), then it is refused under If-Match', async (t) => {
    order(t)
      .given(submitted(), planned)
      .when(amend(moreCargo(), 0))
      .thenMatch({ errors: { 'If-Match': [/changed since revision 0: it is at revision 1 now/] } });
  });
  t.test('given an order, when the amend changes reference, supplier or mode, then each is refused under its field', async (t) => {
    order(t)
      .given(submitted())
      .when(amend(payload({ reference: 'PO-2', transportation_mode: 'TruckFTL', supplier_name: 'Other' }), 0))
      .thenMatch({
        errors: {
          reference: [/keeps the order's reference "PO-1"/],
          transportation_mode: [/OceanFCL/],
          supplier_name: [/Acme Supplier Ltd/],
        },
      });
  });
  t.test("given an order, when the amend names a SKU outside the item master, then the submit's own error is given", async (t) => {
    const unknownSku = payload({
      order_items: [{ item: 'SKU-9', quantity: '1.000000', purchase_order: '', line_item_number: '', notes: '' }],
    });
    order(t)
      .given(submitted())
      .when(amend(unknownSku, 0))
      .then({ errors: { order_items: [{ item: ['SKU SKU-9 is not in the item master of lane 101.'] }] } });
  });
  t.test('given an order, when it is amended with the content it has, then nothing is recorded', async (t) => {
    order(t).given(submitted(), planned).when(amend(payload(), 1)).then([]);
  });
  t.test('given a cancelled order, when it is amended, then it is refused (400), whatever the revision', async (t) => {
    const { decision } = order(t).given(submitted(), planned).when(cancel());
    if (!decision.ok) return t.fail('cancel refused');
    order(t)
      .given(submitted(), planned, ...decision.events)
      .when(amend(moreCargo(), 0))
      .thenMatch({ errors: { non_field_errors: [/was cancelled; a cancelled order cannot be amended/] } });
  });
  t.test('given no order, when an amend comes, then it is refused', async (t) => {
    order(t)
      .given()
      .when(amend(moreCargo(), 0))
      .thenMatch({ errors: { non_field_errors: [/No order/] } });
  });
  t.test('given an order in a window, when amended, then the event names the window it leaves and it joins none again', async (t) => {
    const joined: OrderEvent = {
      type: 'OrderJoinedConsolidation',
      data: { order_id: 7, service_ref: 'SO-000007', consolidation: 'consolidation-SO-000007', joined_at: '2026-11-20T09:15:02.200000' },
    };
    const { decision } = order(t).given(submitted(), joined).when(amend(moreCargo(), 1));
    t.match(decision, { ok: true, events: [{ type: 'OrderAmended', data: { left_window: 'consolidation-SO-000007' } }] });
    order(t)
      .given(submitted(), amended())
      .when({ type: 'JoinConsolidation', data: { consolidation: 'consolidation-SO-000009', joined_at: '2026-11-20T11:00:01.000000' } })
      .then([]);
  });
});

t.test('plan results and versions', async (t) => {
  t.test(
    'given an amended order, when the result for the version as submitted comes (planned before the amend), then nothing is recorded',
    async (t) => {
      order(t).given(submitted(), amended()).when(planResult).then([]);
      order(t).given(submitted(), planned, amended()).when(planFailure).then([]);
    },
  );
  t.test('given an amended order, when the result for its version comes, then OrderPlanned names that version', async (t) => {
    order(t)
      .given(submitted(), planned, amended())
      .when({ type: 'RecordPlanResult', data: { plan: emptyPlan(1), planned_at: '2026-11-20T11:00:02.000000', version: 1 } })
      .thenMatch({ events: [{ type: 'OrderPlanned', data: { version: 1 } }] });
  });
  t.test('given a cancelled order, when any result comes, then nothing is recorded', async (t) => {
    const { decision } = order(t).given(submitted()).when(cancel());
    if (!decision.ok) return t.fail('cancel refused');
    order(t)
      .given(submitted(), ...decision.events)
      .when(planResult)
      .then([]);
  });
});

t.test('cancel', async (t) => {
  t.test('given a planned and downloaded order, when it is cancelled with a reason, then OrderCancelled says where it stood', async (t) => {
    order(t)
      .given(submitted(), planned, {
        type: 'PackingInstructionsDownloaded',
        data: { order_id: 7, downloaded_at: '2026-11-20T10:00:00.000000' },
      })
      .when(cancel({ reason: 'called off by the consignee' }))
      .then([
        {
          type: 'OrderCancelled',
          data: {
            order_id: 7,
            service_ref: 'SO-000007',
            reference: 'PO-1',
            company_group: 'Acme Group',
            reason: 'called off by the consignee',
            cancelled_at: '2026-11-20T12:00:00.000000',
            status_before: 'planned',
            packing_instructions_downloaded: true,
          },
        },
      ]);
  });
  t.test('given a cancelled order, when it is cancelled again (with any If-Match), then nothing is recorded', async (t) => {
    const { decision } = order(t).given(submitted()).when(cancel());
    if (!decision.ok) return t.fail('cancel refused');
    order(t)
      .given(submitted(), ...decision.events)
      .when(cancel({ reason: 'again', expected_revision: 0 }))
      .then([]);
  });
  t.test('given an order at revision 1, when the cancel sends If-Match of revision 0, then it is refused under If-Match', async (t) => {
    order(t)
      .given(submitted(), planned)
      .when(cancel({ expected_revision: 0 }))
      .thenMatch({ errors: { 'If-Match': [/revision 1/] } });
    order(t)
      .given(submitted(), planned)
      .when(cancel({ expected_revision: 1 }))
      .thenMatch({ events: [{ type: 'OrderCancelled' }] });
  });
  t.test("given a consolidated shipment's parent, when a client cancels or amends it, then it is refused, naming its orders", async (t) => {
    order(t)
      .given(parentSubmitted, parentPlanned)
      .when(cancel())
      .thenMatch({ errors: { non_field_errors: [/SO-000007, SO-000008/] } });
    order(t)
      .given(parentSubmitted, parentPlanned)
      .when(amend(payload(), 1))
      .thenMatch({ errors: { non_field_errors: [/consolidated shipment/] } });
  });
});

t.test('a consolidated shipment dissolved', async (t) => {
  const child: OrderEvent = { ...planned, data: { ...planned.data, consolidated_into: 'SO-000009' } };
  const withdraw: OrderCommand = {
    type: 'WithdrawPlan',
    data: { shipment: 'SO-000009', reason: 'SO-000008 left it', withdrawn_at: '2026-11-20T12:00:01.000000' },
  };
  t.test('given a child planned into the shipment, when its plan is withdrawn, then it is a new version to plan again', async (t) => {
    order(t)
      .given(submitted(), child)
      .when(withdraw)
      .then([
        {
          type: 'OrderPlanWithdrawn',
          data: {
            order_id: 7,
            service_ref: 'SO-000007',
            company_group: 'Acme Group',
            version: 1,
            shipment: 'SO-000009',
            reason: 'SO-000008 left it',
            withdrawn_at: '2026-11-20T12:00:01.000000',
          },
        },
      ]);
  });
  t.test('given a child planned alone, or withdrawn already, when the withdrawal comes, then nothing is recorded', async (t) => {
    order(t).given(submitted(), planned).when(withdraw).then([]);
    order(t)
      .given(submitted(), child, {
        type: 'OrderPlanWithdrawn',
        data: {
          order_id: 7,
          service_ref: 'SO-000007',
          company_group: 'Acme Group',
          version: 1,
          shipment: 'SO-000009',
          reason: 'r',
          withdrawn_at: 'x',
        },
      })
      .when(withdraw)
      .then([]);
  });
  t.test('given a child that cancels after the shipment went out, then the cancel names the shipment it leaves', async (t) => {
    order(t)
      .given(submitted(), child)
      .when(cancel())
      .thenMatch({ events: [{ type: 'OrderCancelled', data: { left_shipment: 'SO-000009' } }] });
  });
  t.test('given the parent, when it is dissolved, then it is cancelled once with the reason', async (t) => {
    const dissolve: OrderCommand = {
      type: 'DissolveShipment',
      data: { reason: 'SO-000001 left it', cancelled_at: '2026-11-20T12:00:01.000000' },
    };
    const { decision } = order(t).given(parentSubmitted, parentPlanned).when(dissolve);
    t.match(decision, {
      ok: true,
      events: [{ type: 'OrderCancelled', data: { service_ref: 'SO-000009', reason: 'SO-000001 left it', status_before: 'planned' } }],
    });
    if (!decision.ok) return;
    order(t)
      .given(parentSubmitted, parentPlanned, ...decision.events)
      .when(dissolve)
      .then([]);
    order(t)
      .given(submitted(), planned)
      .when(dissolve)
      .thenMatch({ errors: { non_field_errors: [/Only a consolidated shipment/] } });
  });
});
