// The consolidation's window rules, given/when/then: which window an order joins, when a window
// closes (its time ran out, once the log is read back; its orders fill the containers they asked
// for), what its closing leaves to be planned alone, and when its orders are done.
import t, { type Test } from 'tap';
import type { ConsolidationClosed, ConsolidationOpened, ConsolidationPlanned } from '../../src/consolidation/consolidation-events.js';
import {
  awaitsWindowPlan,
  consolidationWorkflow,
  evolve,
  initialState,
  type ConsolidationInput,
  type ConsolidationOutput,
  type SubmittedOrder,
} from '../../src/consolidation/consolidation-workflow.js';
import { windowKey } from '../../src/orders/consolidation-rule.js';
import { orderDecider } from '../../src/orders/order-decider.js';
import type { OrderSubmitted } from '../../src/orders/order-events.js';
import type { SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';
import { consolidationSeed } from '../consolidation/support.js';
import { normalizedAcmeOrder } from '../support/seed.js';
import { eventsFor, masterDataFrom, workflowSpec } from './given.js';

const masterData = masterDataFrom(eventsFor(consolidationSeed(undefined, 5)));

// 20 crates of 1 m³ on lane 103 (cm), asking for one 40ft (12,032 x 2,352 x 2,393 mm inside):
// three of them are 60 m³ of 67.7, over 85 %; two are 40.
const CRATES = 20_000_000_000;
const FORTY_FOOT = 12_032 * 2352 * 2393;

function crates(reference: string, overrides: Partial<SubmitOrderPayload> = {}): SubmitOrderPayload {
  return normalizedAcmeOrder({
    reference,
    consignee_name: 'Harbour Consolidation Ltd',
    order_items: [],
    loose_boxes: [
      {
        name: 'Crate',
        length: '100.000000',
        width: '100.000000',
        height: '100.000000',
        weight: '50.000000',
        count: 20,
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
    order_containers: [{ code: '40ft', count: 1 }],
    ...overrides,
  });
}

/** Order n, submitted n - 1 seconds after 10:00:00, at log position 10n. */
function order(n: number, overrides: Partial<SubmitOrderPayload> = {}): SubmittedOrder {
  const decision = orderDecider.decide(
    {
      type: 'SubmitOrder',
      data: {
        order: crates(`C-${n}`, overrides),
        company_group: 'Acme Group',
        order_id: n,
        service_ref: `SO-00000${n}`,
        submitted_at: `2026-11-24T10:00:0${n - 1}.000000`,
        masterData,
      },
    },
    orderDecider.initialState(),
  );
  if (!decision.ok) throw new Error(`the test order is refused: ${JSON.stringify(decision.errors)}`);
  return { stream: `order-C-${n}`, position: BigInt(10 * n), submitted: (decision.events[0] as OrderSubmitted).data };
}

const A = order(1);
const B = order(2);
const C = order(3);
const W = 'consolidation-SO-000001';
const CLOSES_AT = Date.parse('2026-11-24T10:00:05Z');

const flow = (t: Test) => workflowSpec(t, consolidationWorkflow);
const caughtUp: ConsolidationInput = { type: 'EndCatchUp' };
const tracked = (id = W, closesAt = CLOSES_AT): ConsolidationOutput => ({
  type: 'WindowTracked',
  data: { consolidation: id, key: windowKey(A.submitted), closesAt },
});
const armed = (id = W, at = CLOSES_AT): ConsolidationOutput => ({ type: 'ArmTimer', data: { consolidation: id, at } });
const cleared = (id = W): ConsolidationOutput => ({ type: 'ClearTimer', data: { consolidation: id } });
const taken = (o: SubmittedOrder): ConsolidationOutput => ({ type: 'ReadOrder', data: o });
/** `read`: whether its OrderSubmitted was read here since the checkpoint (else its position is unknown). */
const member = (o: SubmittedOrder, read = true) => ({
  stream: o.stream,
  service_ref: o.submitted.service_ref,
  position: read ? o.position : undefined,
});
const admitted = (o: SubmittedOrder, id = W): ConsolidationOutput => ({
  type: 'OrderAdmitted',
  data: { consolidation: id, member: member(o), cargo: CRATES, room: FORTY_FOOT },
});
const read = (o: SubmittedOrder, consolidation?: string): ConsolidationInput => ({
  type: 'OrderRead',
  data: { ...o, awaitsPlan: true, consolidation },
});
const joined = (o: SubmittedOrder, id = W): ConsolidationInput => ({ type: 'OrderJoined', data: { ...o, consolidation: id } });
const join = (o: SubmittedOrder, id = W): ConsolidationOutput => ({ type: 'JoinWindow', data: { ...o, consolidation: id } });
const done = (o: SubmittedOrder, read = true): ConsolidationOutput => ({
  type: 'OrderDone',
  data: { stream: o.stream, position: read ? o.position : undefined },
});
const closeWindow = (reason: ConsolidationClosed['data']['reason'], ...orders: SubmittedOrder[]): ConsolidationOutput => ({
  type: 'CloseWindow',
  data: { consolidation: W, reason, orders: orders.map((o) => ({ stream: o.stream, service_ref: o.submitted.service_ref })) },
});
const timeOut = (id = W): ConsolidationInput => ({ type: 'TimeOutWindow', data: { consolidation: id } });
const opened = (closesAt: string): ConsolidationOpened => ({
  type: 'ConsolidationOpened',
  data: {
    consolidation: W,
    company_group: 'Acme Group',
    lane_id: 103,
    transportation_mode: 'OceanFCL',
    window_seconds: 5,
    opened_at: '2026-11-24T10:00:00.000000',
    closes_at: closesAt,
  },
});
const closed = (...orders: SubmittedOrder[]): ConsolidationClosed => ({
  type: 'ConsolidationClosed',
  data: {
    consolidation: W,
    reason: 'window_elapsed',
    closed_at: '2026-11-24T10:00:05.000100',
    orders: orders.map((o) => ({ stream: o.stream, service_ref: o.submitted.service_ref })),
  },
});
const planned: ConsolidationPlanned = {
  type: 'ConsolidationPlanned',
  data: {
    consolidation: W,
    decision: 'alone',
    containers_together: 2,
    containers_alone: 2,
    planned_at: '2026-11-24T10:00:06.000000',
    parent: null,
    alone: [],
    together: null,
    pallet_owners: [],
  },
};

const openingOfW: ConsolidationOpened['data'] = {
  consolidation: W,
  company_group: 'Acme Group',
  lane_id: 103,
  transportation_mode: 'OceanFCL',
  window_seconds: 5,
  opened_at: '2026-11-24T10:00:00.000000',
  closes_at: '2026-11-24T10:00:05.000000',
};
/** This replica tracks the window it opens, with the opening it asked for. */
const opensW: ConsolidationOutput = {
  type: 'WindowTracked',
  data: { consolidation: W, key: windowKey(A.submitted), closesAt: CLOSES_AT, opening: openingOfW },
};

/** A window A opened and A and B joined, both read since the checkpoint. */
const windowOfAB: ConsolidationOutput[] = [taken(A), tracked(), admitted(A), taken(B), admitted(B)];

t.test('an order waits for a window only when its lane has one and it awaits its plan', async (t) => {
  flow(t)
    .given()
    .when({ type: 'OrderSubmitted', data: A })
    .then([taken(A)]);
  const dangerous = order(4, { shipment_type: 'dangerous_goods' });
  flow(t)
    .given()
    .when({ type: 'OrderSubmitted', data: dangerous })
    .then([done(dangerous)]);
  const booked = order(5, { order_containers: [{ code: '40ft', count: 1, exact: true }] });
  flow(t)
    .given()
    .when({ type: 'OrderSubmitted', data: booked })
    .then([done(booked)]);
  // read again after it was planned (a replay)
  flow(t)
    .given(taken(A))
    .when({ type: 'OrderRead', data: { ...A, awaitsPlan: false, consolidation: W } })
    .then([done(A)]);
});

t.test('which window an order joins', async (t) => {
  t.test("no open window of its group, lane and mode: it opens one named after itself, closing after the lane's window", async (t) => {
    flow(t)
      .given(taken(A))
      .when(read(A))
      .then([opensW, armed(), { type: 'OpenWindow', data: openingOfW }, join(A)]);
  });
  t.test('its opening not recorded (the append failed, the batch comes again): the next order to join opens it again first', async (t) => {
    // the opening's answer never came: the same order read again, or the next one, asks for it again
    flow(t)
      .given(taken(A), opensW, armed())
      .when(read(A))
      .then([{ type: 'OpenWindow', data: openingOfW }, join(A)]);
    flow(t)
      .given(taken(A), opensW, armed(), admitted(A), taken(B))
      .when(read(B))
      .then([{ type: 'OpenWindow', data: openingOfW }, join(B)]);
    // once the window's stream was seen open (its answer, or its event read back), it is only joined
    const answered: ConsolidationInput = { type: 'OpenAnswered', data: { consolidation: W, window: { status: 'open' } } };
    flow(t)
      .given(taken(A), opensW, armed(), answered, admitted(A), taken(B))
      .when(read(B))
      .then([join(B)]);
    flow(t)
      .given(taken(A), opensW, armed(), opened('2026-11-24T10:00:05.000000'), admitted(A), taken(B))
      .when(read(B))
      .then([join(B)]);
  });
  t.test('an open window of its group, lane and mode: it joins that one', async (t) => {
    flow(t)
      .given(taken(A), tracked(), admitted(A), taken(B))
      .when(read(B))
      .then([join(B)]);
  });
  t.test('the window closed: the next order opens a new one', async (t) => {
    const next = 'consolidation-SO-000002';
    const { decision } = flow(t).given(taken(A), tracked(), admitted(A), closeWindow('window_elapsed', A), taken(B)).when(read(B));
    t.match(decision, [
      { type: 'WindowTracked', data: { consolidation: next } },
      { type: 'ArmTimer' },
      { type: 'OpenWindow', data: { consolidation: next } },
      join(B, next),
    ]);
  });
  t.test('its stream names a window already (a replay): it is taken into it without joining again', async (t) => {
    flow(t)
      .given(...windowOfAB.slice(0, 3), taken(B))
      .when(read(B, W))
      .then([admitted(B)]);
  });
  t.test('another replica put it in its own window meanwhile: that window is followed here too', async (t) => {
    const theirs = 'consolidation-SO-000009';
    flow(t)
      .given(taken(A), tracked(), admitted(A), taken(B))
      .when(joined(B, theirs))
      .then([tracked(theirs, Date.parse('2026-11-24T10:00:06Z')), armed(theirs, Date.parse('2026-11-24T10:00:06Z')), admitted(B, theirs)]);
  });
  t.test("the window's stream was past open already (read again after a crash): no new order joins it", async (t) => {
    const pastOpen: ConsolidationInput = {
      type: 'OpenAnswered',
      data: { consolidation: W, window: { status: 'closed', closed: closed(C).data } },
    };
    flow(t).given(taken(A), tracked()).when(pastOpen).then([cleared()]);
    // an order its closing did not list is planned alone; one it listed, with the window
    flow(t)
      .given(taken(A), tracked(), pastOpen)
      .when(joined(A))
      .then([{ type: 'PlanAlone', data: { consolidation: W, stream: A.stream, position: A.position } }]);
    flow(t).given(taken(C), tracked(), pastOpen).when(joined(C)).thenIgnored('planned_with_its_window');
    const { decision } = flow(t).given(taken(A), tracked(), pastOpen, taken(B)).when(read(B));
    t.match(decision, [{ type: 'WindowTracked', data: { consolidation: 'consolidation-SO-000002' } }], 'the next order opens a new window');
    flow(t)
      .given(taken(A), tracked())
      .when({ type: 'OpenAnswered', data: { consolidation: W, window: { status: 'open' } } })
      .thenIgnored('opened_as_asked');
  });
  t.test('an order in the window already (a batch read again) changes nothing', async (t) => {
    flow(t).given(taken(A), tracked(), admitted(A)).when(joined(A)).thenIgnored('already_in_window');
  });
});

t.test("a window closes early when its orders' cargo takes 85 % of the containers they asked for", async (t) => {
  flow(t)
    .given(taken(A), tracked(), admitted(A), taken(B))
    .when(joined(B))
    .then([admitted(B)]);
  flow(t)
    .given(...windowOfAB, taken(C))
    .when(joined(C))
    .then([admitted(C), cleared(), closeWindow('containers_full', A, B, C)]);
  // closed, but its closing not read back yet: it takes the order (the closing says whether it is in), and closes only once
  flow(t)
    .given(...windowOfAB, closeWindow('window_elapsed', A, B), taken(C))
    .when(joined(C))
    .then([admitted(C)]);
});

t.test('a window closes when its time runs out, once the log is read back to where it stood at the start', async (t) => {
  flow(t)
    .given(caughtUp, taken(A), tracked(), admitted(A))
    .when(timeOut())
    .then([cleared(), closeWindow('window_elapsed', A)]);
  // before that, the orders that joined it in time may lie further on in the log
  flow(t)
    .given(taken(A), tracked(), admitted(A))
    .when(timeOut())
    .then([{ type: 'WindowOverdue', data: { consolidation: W } }]);
  flow(t)
    .given(taken(A), tracked(), admitted(A), { type: 'WindowOverdue', data: { consolidation: W } })
    .when(caughtUp)
    .then([armed()]);
  flow(t)
    .given(taken(A), tracked(), admitted(A), { type: 'WindowOverdue', data: { consolidation: W } }, closeWindow('containers_full', A))
    .when(caughtUp)
    .then([]);
  flow(t).given(caughtUp).when(caughtUp).thenIgnored('caught_up_already');
  flow(t)
    .given(caughtUp, taken(A), tracked(), admitted(A), closeWindow('containers_full', A))
    .when(timeOut())
    .thenIgnored('window_not_open');
  flow(t).given(caughtUp).when(timeOut()).thenIgnored('not_followed');
  // the time its stream stored wins over the one worked out here
  flow(t)
    .given(taken(A), tracked())
    .when(opened('2026-11-24T10:00:04.500000'))
    .then([armed(W, Date.parse('2026-11-24T10:00:04.500Z'))]);
  flow(t).given(taken(A), tracked(), closeWindow('containers_full')).when(opened('2026-11-24T10:00:05.000000')).then([cleared()]);
});

t.test('its closing lists the orders planned with the window; an order it left out is planned alone', async (t) => {
  flow(t)
    .given(...windowOfAB)
    .when(closed(A))
    .then([
      cleared(),
      { type: 'PlanAlone', data: { consolidation: W, stream: B.stream, position: B.position } },
      { type: 'PlanWindow', data: closed(A).data },
    ]);
  flow(t)
    .given(...windowOfAB, closed(A, B))
    .when(joined(C))
    .then([{ type: 'PlanAlone', data: { consolidation: W, stream: C.stream, position: C.position } }]);
  flow(t)
    .given(...windowOfAB, closed(A, B))
    .when(joined(B))
    .thenIgnored('already_in_window');
  flow(t).given().when(closed(A)).thenIgnored('not_followed');
  flow(t)
    .given(taken(A))
    .when({ type: 'OrderPlannedAlone', data: { stream: A.stream, position: A.position } })
    .then([done(A)]);
  t.ok(awaitsWindowPlan([...windowOfAB, closed(A, B)].reduce(evolve, initialState()), W), 'closed: it waits for its plan');
  t.notOk(
    awaitsWindowPlan([...windowOfAB, closed(A, B), planned].reduce(evolve, initialState()), W),
    'planned (by another replica): not again',
  );
});

t.test('a planned window is written out to the orders its closing listed; then they are done', async (t) => {
  // C joined on another replica before this one's checkpoint: its position is not known here
  flow(t)
    .given(...windowOfAB, closed(A, C))
    .when(planned)
    .then([{ type: 'WriteOut', data: { planned: planned.data, members: [member(A), member(C, false)] } }]);
  const written: ConsolidationInput = { type: 'WindowWrittenOut', data: { consolidation: W } };
  flow(t)
    .given(...windowOfAB, closed(A, C), planned)
    .when(written)
    .then([done(A), done(C, false)]);
  flow(t)
    .given(...windowOfAB, closed(A, C), planned, written)
    .when(timeOut())
    .thenIgnored('not_followed');
  const { decision } = flow(t)
    .given(...windowOfAB, closed(A, C), planned, written, taken(C))
    .when(read(C));
  t.match(
    decision,
    [{ type: 'WindowTracked', data: { consolidation: 'consolidation-SO-000003' } }],
    'a later order opens a window of its own',
  );
});

// Issue 59: an amended or cancelled order leaves its window.
t.test('an order that leaves its window (amended, cancelled)', async (t) => {
  const left = (o: SubmittedOrder, position: bigint, id = W): ConsolidationInput => ({
    type: 'OrderLeft',
    data: { consolidation: id, stream: o.stream, position },
  });
  const revise = (position: bigint, id = W): ConsolidationOutput => ({ type: 'ReviseShipment', data: { consolidation: id, position } });
  t.test('from an open window: it goes, its submit is done, and the window is revised after its steps', async (t) => {
    flow(t)
      .given(...windowOfAB)
      .when(left(A, 55n))
      .then([{ type: 'MemberLeft', data: { consolidation: W, stream: A.stream } }, done(A), revise(55n)]);
  });
  t.test('its cargo no longer fills the window: the order that would have filled it with A does not', async (t) => {
    flow(t)
      .given(...windowOfAB, { type: 'MemberLeft', data: { consolidation: W, stream: A.stream } }, taken(C))
      .when(joined(C))
      .then([admitted(C)]);
  });
  t.test('its closing does not list it', async (t) => {
    flow(t)
      .given(...windowOfAB, { type: 'MemberLeft', data: { consolidation: W, stream: A.stream } }, caughtUp)
      .when(timeOut())
      .then([cleared(), closeWindow('window_elapsed', B)]);
  });
  t.test('from a closed or planned window, or one not followed (written out): only the revision, after its steps', async (t) => {
    flow(t)
      .given(...windowOfAB, closed(A, B))
      .when(left(B, 77n))
      .then([revise(77n)]);
    flow(t)
      .given()
      .when(left(B, 77n))
      .then([revise(77n)]);
  });
});
