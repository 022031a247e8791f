// The order's rules, all of them: what an order's stream says about it (initialState, evolve) and
// what each command on an order records (decideOrder). Submit checks what needs master data (shape
// rules were checked before): the lane, its transportation modes, its containers, its items, and
// the reference not being taken, unless the order under it is this very one (a client's retry after a
// lost response, which records nothing and learns the stored ids). The planner's result is recorded once; a download only of a
// planned order. A consolidated shipment's parent order is submitted already planned, once. Nothing
// else builds order events.
import type { Decider } from '../decider/decider.js';
import { findLane, type MasterData } from '../master-data/master-data.js';
import { addElementError, addError, hasErrors, NON_FIELD_ERRORS, type FieldErrors } from '../validation/field-errors.js';
import type {
  OrderEvent,
  OrderJoinedConsolidation,
  OrderPlanned,
  OrderPlanningFailed,
  OrderSubmitted,
  PackingInstructionsDownloaded,
  RecordedPlan,
} from './order-events.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';

export interface SubmitOrder {
  type: 'SubmitOrder';
  data: {
    order: SubmitOrderPayload;
    company_group: string;
    order_id: number;
    service_ref: string;
    submitted_at: string;
    /** The master data the order is checked against and whose lane it keeps. */
    masterData: MasterData;
  };
}

/** The planner's outcome: a plan, or the reason there is none. */
export interface RecordPlanResult {
  type: 'RecordPlanResult';
  data: { plan: RecordedPlan; planned_at: string; consolidated_into?: string } | { reason: string; failed_at: string };
}

/**
 * The parent order of a consolidated shipment (src/consolidation): an order of its own that ships its
 * children's cargo in the containers planned for them together. Its payload and plan are put
 * together by the consolidation; it is submitted and planned in one append, so no planner ever sees
 * it waiting.
 */
export interface SubmitConsolidatedOrder {
  type: 'SubmitConsolidatedOrder';
  data: Omit<OrderSubmitted['data'], 'submitted_at' | 'consolidated_orders'> & {
    /** The service_refs of the orders it ships. */
    consolidated_orders: string[];
    plan: RecordedPlan;
    /** When the shipment was planned: also when the parent counts as submitted. */
    planned_at: string;
  };
}

export interface JoinConsolidation {
  type: 'JoinConsolidation';
  data: { consolidation: string; joined_at: string };
}

export interface RecordDownload {
  type: 'RecordDownload';
  data: { downloaded_at: string };
}

export type OrderCommand = SubmitOrder | RecordPlanResult | RecordDownload | JoinConsolidation | SubmitConsolidatedOrder;

export interface OrderState {
  /** `none`: the stream holds no order yet, so its reference is free. */
  status: 'none' | 'submitted' | 'planned' | 'planning_failed';
  order_id: number;
  service_ref: string;
  reference: string;
  company_group: string;
  /** The order as submitted (normalized), so that a retry can be told from a second order. */
  order: SubmitOrderPayload | undefined;
  /** The consolidation window the order joined, once it has. */
  consolidation?: string;
}

export type OrderDecision<E extends OrderEvent = OrderEvent> = { ok: true; events: E[] } | { ok: false; errors: FieldErrors };

export const REFERENCE_TAKEN_MESSAGE = 'An order with this reference already exists.';
export const NO_ORDER_MESSAGE = 'No order has been submitted in this stream.';
export const NOT_PLANNED_MESSAGE = 'The order has no plan yet.';
export const TOO_FEW_CHILDREN_MESSAGE = 'A consolidated order ships at least two orders.';

export function initialOrderState(): OrderState {
  return { status: 'none', order_id: 0, service_ref: '', reference: '', company_group: '', order: undefined };
}

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderSubmitted': {
      const { order_id, service_ref, company_group, order } = event.data;
      return { status: 'submitted', order_id, service_ref, company_group, reference: order.reference, order };
    }
    case 'OrderJoinedConsolidation':
      return { ...state, consolidation: event.data.consolidation };
    case 'OrderPlanned':
      return { ...state, status: 'planned' };
    case 'OrderPlanningFailed':
      return { ...state, status: 'planning_failed' };
    default:
      // Downloads change nothing the rules look at; event types this version does not know neither.
      return state;
  }
}

/** Whether the planner still has to run for this order: submitted, and no result recorded. */
export function awaitsPlan(state: OrderState): boolean {
  return state.status === 'submitted';
}

export function decideOrder(command: SubmitOrder, state: OrderState): OrderDecision<OrderSubmitted>;
export function decideOrder(command: RecordPlanResult, state: OrderState): OrderDecision<OrderPlanned | OrderPlanningFailed>;
export function decideOrder(command: RecordDownload, state: OrderState): OrderDecision<PackingInstructionsDownloaded>;
export function decideOrder(command: JoinConsolidation, state: OrderState): OrderDecision<OrderJoinedConsolidation>;
export function decideOrder(command: SubmitConsolidatedOrder, state: OrderState): OrderDecision<OrderSubmitted | OrderPlanned>;
export function decideOrder(command: OrderCommand, state: OrderState): OrderDecision;
export function decideOrder(command: OrderCommand, state: OrderState): OrderDecision {
  switch (command.type) {
    case 'SubmitOrder':
      return decideSubmitOrder(command, state);
    case 'RecordPlanResult':
      return decideRecordPlanResult(command, state);
    case 'RecordDownload':
      return decideRecordDownload(command, state);
    case 'JoinConsolidation':
      return decideJoinConsolidation(command, state);
    case 'SubmitConsolidatedOrder':
      return decideSubmitConsolidatedOrder(command, state);
  }
}

/** The order's rules as one value, for the command handler and the specifications. */
export const orderDecider: Decider<OrderCommand, OrderState, OrderEvent, FieldErrors> = {
  initialState: initialOrderState,
  evolve: evolveOrder,
  decide: decideOrder,
};

// The parent is written once: asked again (a replay after a crash, a second instance) with the same
// ids it records nothing. Its reference names its own service_ref, so only a client's order that took
// that very reference can be in the way: then it is refused, and the consolidation says so, rather
// than children pointing to a parent that is someone else's order.
export function decideSubmitConsolidatedOrder(
  command: SubmitConsolidatedOrder,
  state: OrderState,
): OrderDecision<OrderSubmitted | OrderPlanned> {
  const { plan, planned_at, ...submitted } = command.data;
  if (state.status !== 'none') {
    if (state.order_id === submitted.order_id && state.service_ref === submitted.service_ref) return { ok: true, events: [] };
    return { ok: false, errors: { reference: [REFERENCE_TAKEN_MESSAGE] } };
  }
  if (submitted.consolidated_orders.length < 2) return { ok: false, errors: { [NON_FIELD_ERRORS]: [TOO_FEW_CHILDREN_MESSAGE] } };
  const { order_id, service_ref, company_group, lane, order, consolidated_orders } = submitted;
  return {
    ok: true,
    events: [
      {
        type: 'OrderSubmitted',
        data: { order_id, service_ref, company_group, lane, order, submitted_at: planned_at, consolidated_orders },
      },
      { type: 'OrderPlanned', data: { order_id, service_ref, reference: order.reference, company_group, plan, planned_at } },
    ],
  };
}

// An order joins one window, once: asked again (a replay, a second instance) it stays where it is,
// and one already planned joins none.
export function decideJoinConsolidation(command: JoinConsolidation, state: OrderState): OrderDecision<OrderJoinedConsolidation> {
  if (state.status === 'none') return { ok: false, errors: { [NON_FIELD_ERRORS]: [NO_ORDER_MESSAGE] } };
  if (state.consolidation !== undefined || !awaitsPlan(state)) return { ok: true, events: [] };
  return {
    ok: true,
    events: [
      {
        type: 'OrderJoinedConsolidation',
        data: {
          order_id: state.order_id,
          service_ref: state.service_ref,
          consolidation: command.data.consolidation,
          joined_at: command.data.joined_at,
        },
      },
    ],
  };
}

export function decideSubmitOrder(command: SubmitOrder, state: OrderState): OrderDecision<OrderSubmitted> {
  const { order, company_group, masterData } = command.data;
  const errors: FieldErrors = {};
  if (state.status !== 'none') {
    // The same order again is the client retrying, whatever became of master data since: nothing
    // to record, and the caller answers with the ids in the state.
    if (isRetryOf(state, order)) return { ok: true, events: [] };
    addError(errors, 'reference', REFERENCE_TAKEN_MESSAGE);
  }

  const lane = findLane(masterData, company_group, order.supplier_name, order.consignee_name);
  if (!lane) {
    explainMissingLane(errors, masterData, company_group, order);
    return { ok: false, errors };
  }
  const settings = lane.settings;

  if (!settings.transportation_modes.includes(order.transportation_mode)) {
    addError(
      errors,
      'transportation_mode',
      `Lane ${settings.id} does not accept ${order.transportation_mode}; it accepts ${settings.transportation_modes.join(', ')}.`,
    );
  }
  order.order_containers.forEach((container, i) => {
    if (!settings.container_codes.includes(container.code)) {
      addElementError(
        errors,
        'order_containers',
        order.order_containers.length,
        i,
        'code',
        `Container code ${container.code} is not enabled on lane ${settings.id}; enabled: ${settings.container_codes.join(', ')}.`,
      );
    }
  });
  order.order_items.forEach((item, i) => {
    if (!lane.items.has(item.item)) {
      addElementError(
        errors,
        'order_items',
        order.order_items.length,
        i,
        'item',
        `SKU ${item.item} is not in the item master of lane ${settings.id}.`,
      );
    }
  });
  if (hasErrors(errors)) return { ok: false, errors };

  const skus = new Set(order.order_items.map((item) => item.item));
  const items = [...lane.items.values()].filter((item) => skus.has(item.sku));
  return {
    ok: true,
    events: [
      {
        type: 'OrderSubmitted',
        data: {
          order_id: command.data.order_id,
          service_ref: command.data.service_ref,
          company_group,
          lane: { ...settings, items },
          order,
          submitted_at: command.data.submitted_at,
        },
      },
    ],
  };
}

/** Whether a submit found its stream already holding this very order (same normalized payload). */
export function isRetryOf(state: OrderState, order: SubmitOrderPayload): boolean {
  return state.order !== undefined && canonicalJson(withoutExact(state.order)) === canonicalJson(withoutExact(order));
}

// Orders stored before a given container count was marked `exact` lack the mark: a client's retry
// of one sent across that change is still the same order.
function withoutExact(order: SubmitOrderPayload): SubmitOrderPayload {
  return { ...order, order_containers: order.order_containers.map(({ code, count }) => ({ code, count })) };
}

// Key order is not part of an order's meaning: a stored payload read back from another store may list its keys differently.
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

// One result per order: a second one (another instance planned it too, or a replay) records nothing.
export function decideRecordPlanResult(command: RecordPlanResult, state: OrderState): OrderDecision<OrderPlanned | OrderPlanningFailed> {
  if (state.status === 'none') return { ok: false, errors: { [NON_FIELD_ERRORS]: [NO_ORDER_MESSAGE] } };
  if (!awaitsPlan(state)) return { ok: true, events: [] };
  const { order_id, service_ref } = state;
  if ('reason' in command.data) {
    return {
      ok: true,
      events: [
        { type: 'OrderPlanningFailed', data: { order_id, service_ref, reason: command.data.reason, failed_at: command.data.failed_at } },
      ],
    };
  }
  const { plan, planned_at, consolidated_into } = command.data;
  return {
    ok: true,
    events: [
      {
        type: 'OrderPlanned',
        data: {
          order_id,
          service_ref,
          reference: state.reference,
          company_group: state.company_group,
          plan,
          planned_at,
          ...(consolidated_into ? { consolidated_into } : {}),
        },
      },
    ],
  };
}

// Every download is recorded (auditors count them), but only of an order whose plan exists.
export function decideRecordDownload(command: RecordDownload, state: OrderState): OrderDecision<PackingInstructionsDownloaded> {
  if (state.status !== 'planned')
    return { ok: false, errors: { order: [state.status === 'none' ? NO_ORDER_MESSAGE : NOT_PLANNED_MESSAGE] } };
  return {
    ok: true,
    events: [{ type: 'PackingInstructionsDownloaded', data: { order_id: state.order_id, downloaded_at: command.data.downloaded_at } }],
  };
}

// Say which half of the pair is unknown, so an integrator knows what to fix.
function explainMissingLane(errors: FieldErrors, masterData: MasterData, companyGroup: string, order: SubmitOrderPayload): void {
  const lanes = [...masterData.lanes.values()].filter((lane) => lane.company_group === companyGroup);
  const supplierKnown = lanes.some((lane) => lane.settings.supplier === order.supplier_name);
  const consigneeKnown = lanes.some((lane) => lane.settings.consignee === order.consignee_name);
  if (!supplierKnown)
    addError(
      errors,
      'supplier_name',
      `No lane of your company group has the supplier "${order.supplier_name}" (names match exactly, case-sensitive).`,
    );
  if (!consigneeKnown)
    addError(
      errors,
      'consignee_name',
      `No lane of your company group has the consignee "${order.consignee_name}" (names match exactly, case-sensitive).`,
    );
  if (supplierKnown && consigneeKnown) {
    addError(
      errors,
      NON_FIELD_ERRORS,
      `No lane of your company group connects supplier "${order.supplier_name}" to consignee "${order.consignee_name}".`,
    );
  }
}
