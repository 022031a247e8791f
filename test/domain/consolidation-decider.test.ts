// The consolidation window's rules and an order's joining, given/when/then.
import t from 'tap';
import { consolidationDecider } from '../../src/consolidation/consolidation-decider.js';
import type { ConsolidationClosed, ConsolidationOpened, ConsolidationPlanned } from '../../src/consolidation/consolidation-events.js';
import type { OrderJoinedConsolidation, OrderPlanned } from '../../src/orders/order-events.js';
import { consolidates } from '../../src/orders/consolidation-rule.js';
import { orderDecider } from '../../src/orders/order-decider.js';
import { normalizedAcmeOrder } from '../support/seed.js';
import { spec } from './given.js';
import { emptyPlan } from '../support/plans.js';

const opened: ConsolidationOpened = {
  type: 'ConsolidationOpened',
  data: {
    consolidation: 'consolidation-SO-000001',
    company_group: 'Acme Group',
    lane_id: 103,
    transportation_mode: 'OceanFCL',
    window_seconds: 5,
    opened_at: '2026-11-24T10:00:00.000000',
    closes_at: '2026-11-24T10:00:05.000000',
  },
};
const closed: ConsolidationClosed = {
  type: 'ConsolidationClosed',
  data: {
    consolidation: 'consolidation-SO-000001',
    reason: 'window_elapsed',
    closed_at: '2026-11-24T10:00:05.000100',
    orders: [{ stream: 'order:a', service_ref: 'SO-000001' }],
  },
};
const planned: ConsolidationPlanned = {
  type: 'ConsolidationPlanned',
  data: {
    consolidation: 'consolidation-SO-000001',
    decision: 'alone',
    containers_together: null,
    containers_alone: 1,
    planned_at: '2026-11-24T10:00:06.000000',
    parent: null,
    alone: [],
    together: null,
    pallet_owners: [],
  },
};

t.test('a window opens once, closes once and is planned once', async (t) => {
  const w = spec(t, consolidationDecider);
  w.given().when({ type: 'Open', data: opened.data }).then([opened]);
  w.given(opened).when({ type: 'Open', data: opened.data }).then([]);
  w.given().when({ type: 'Close', data: closed.data }).then([]);
  w.given(opened).when({ type: 'Close', data: closed.data }).then([closed]);
  w.given(opened, closed)
    .when({ type: 'Close', data: { ...closed.data, reason: 'containers_full' } })
    .then([]);
  w.given(opened).when({ type: 'RecordPlan', data: planned.data }).then([]);
  w.given(opened, closed).when({ type: 'RecordPlan', data: planned.data }).then([planned]);
  w.given(opened, closed, planned).when({ type: 'RecordPlan', data: planned.data }).then([]);
});

t.test('an order joins one window, once, and only while it waits for a plan', async (t) => {
  const order = spec(t, orderDecider);
  const submitted = {
    type: 'OrderSubmitted' as const,
    data: {
      order_id: 1,
      service_ref: 'SO-000001',
      company_group: 'Acme Group',
      lane: { id: 103 } as never,
      order: normalizedAcmeOrder(),
      submitted_at: '2026-11-24T10:00:00.000000',
    },
  };
  const joined: OrderJoinedConsolidation = {
    type: 'OrderJoinedConsolidation',
    data: { order_id: 1, service_ref: 'SO-000001', consolidation: 'consolidation-SO-000001', joined_at: '2026-11-24T10:00:00.100000' },
  };
  const join = (consolidation: string) => ({
    type: 'JoinConsolidation' as const,
    data: { consolidation, joined_at: '2026-11-24T10:00:00.100000' },
  });
  order.given(submitted).when(join('consolidation-SO-000001')).then([joined]);
  order.given(submitted, joined).when(join('consolidation-SO-000009')).then([]);
  const planned: OrderPlanned = {
    type: 'OrderPlanned',
    data: {
      order_id: 1,
      service_ref: 'SO-000001',
      reference: 'PO-1',
      company_group: 'Acme Group',
      plan: emptyPlan(),
      planned_at: '2026-11-24T10:00:01.000000',
    },
  };
  order.given(submitted, planned).when(join('consolidation-SO-000001')).then([]);
  order
    .given()
    .when(join('consolidation-SO-000001'))
    .thenMatch({ errors: { non_field_errors: [/No order/] } });
  // a child's plan names its parent
  order
    .given(submitted, joined)
    .when({
      type: 'RecordPlanResult',
      data: { plan: emptyPlan(), planned_at: '2026-11-24T10:00:06.000000', consolidated_into: 'SO-000004', version: 0 },
    })
    .then([
      {
        type: 'OrderPlanned',
        data: {
          order_id: 1,
          service_ref: 'SO-000001',
          reference: 'PO-1',
          company_group: 'Acme Group',
          plan: emptyPlan(),
          planned_at: '2026-11-24T10:00:06.000000',
          consolidated_into: 'SO-000004',
        },
      },
    ]);
});

t.test('only normal orders of a lane with a window are consolidated; parents never are', async (t) => {
  const base = { order_id: 1, service_ref: 'SO-000001', company_group: 'G', submitted_at: '2026-11-24T10:00:00.000000' };
  const lane = (window?: number) => ({ id: 1, ...(window ? { consolidation_window_seconds: window } : {}) }) as never;
  t.ok(consolidates({ ...base, lane: lane(5), order: normalizedAcmeOrder() }));
  t.notOk(consolidates({ ...base, lane: lane(), order: normalizedAcmeOrder() }), 'no window on the lane');
  t.notOk(consolidates({ ...base, lane: lane(5), order: normalizedAcmeOrder({ shipment_type: 'dangerous_goods' }) }));
  t.notOk(consolidates({ ...base, lane: lane(5), order: normalizedAcmeOrder({ shipment_type: 'dedicated_container' }) }));
  t.notOk(consolidates({ ...base, lane: lane(5), order: normalizedAcmeOrder(), consolidated_orders: ['SO-000002'] }), 'a parent');
});
