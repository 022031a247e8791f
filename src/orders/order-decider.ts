// The order's rules, all of them: what an order's stream says about it (initialState, evolve) and
// what each command on an order records (decideOrder). Submit checks what needs master data (shape
// rules were checked before): the lane, its transportation modes, its containers, its items, and
// the reference not being taken, unless the order under it is this very one (a client's retry after a
// lost response, which records nothing and learns the stored ids). An amend replaces the order's
// cargo, containers, notes and e-mail fields under the same checks, keeps reference, lane and mode, and
// only applies to the revision its client read; a cancel calls the order off, once. The planner's
// result is recorded once per version of the order, and never for a version that is no longer the
// order's (an amend or cancel landed while it planned). A download only of a planned order. A
// consolidated shipment's parent order is submitted already planned, once, and dissolved (cancelled,
// its other orders' plans withdrawn) when one of its orders leaves it. Nothing else builds order events.
import type { Decider } from '../decider/decider.js';
import { findLane, type MasterData } from '../master-data/master-data.js';
import { addElementError, addError, hasErrors, NON_FIELD_ERRORS, type FieldErrors } from '../validation/field-errors.js';
import type { LaneDocument } from '../master-data/master-data-document.js';
import type {
  OrderAmended,
  OrderCancelled,
  OrderEvent,
  OrderJoinedConsolidation,
  OrderPlanned,
  OrderPlanningFailed,
  OrderPlanWithdrawn,
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

/** The planner's outcome: a plan, or the reason there is none, for the version of the order it planned. */
export interface RecordPlanResult {
  type: 'RecordPlanResult';
  data: ({ plan: RecordedPlan; planned_at: string; consolidated_into?: string } | { reason: string; failed_at: string }) & {
    version: number;
  };
}

/** The client's new version of the order (PUT): a submit payload, for the revision the client read (If-Match). */
export interface AmendOrder {
  type: 'AmendOrder';
  /** `expected_revision` 'any': If-Match: *, whatever the order holds now. */
  data: { order: SubmitOrderPayload; expected_revision: number | 'any'; amended_at: string; masterData: MasterData };
}

/** The client calls the order off; `expected_revision` only when it sent If-Match. */
export interface CancelOrder {
  type: 'CancelOrder';
  data: { reason: string | null; expected_revision?: number; cancelled_at: string };
}

/** The service calls a consolidated shipment off (its parent order) because one of its orders left it. */
export interface DissolveShipment {
  type: 'DissolveShipment';
  data: { reason: string; cancelled_at: string };
}

/** The service withdraws a child's share of a dissolved shipment `shipment`: it is planned again alone. */
export interface WithdrawPlan {
  type: 'WithdrawPlan';
  data: { shipment: string; reason: string; withdrawn_at: string };
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

export type OrderCommand =
  | SubmitOrder
  | RecordPlanResult
  | RecordDownload
  | JoinConsolidation
  | SubmitConsolidatedOrder
  | AmendOrder
  | CancelOrder
  | DissolveShipment
  | WithdrawPlan;

export interface OrderState {
  /** `none`: the stream holds no order yet, so its reference is free. */
  status: 'none' | 'submitted' | 'planned' | 'planning_failed' | 'cancelled';
  order_id: number;
  service_ref: string;
  reference: string;
  company_group: string;
  /** The order as it stands (normalized): as submitted, or as last amended. */
  order: SubmitOrderPayload | undefined;
  /** The consolidation window the order joined, once it has, until it leaves it (amend, cancel). */
  consolidation?: string;
  /** 0 as submitted, one more for each amend and each plan withdrawn: a plan result must be for this one. */
  version: number;
  /**
   * The stream's revision: its events counted from 0 (-1 while it holds none). Order streams hold order
   * events only, so it is the event store's revision of the last event, which retrieve sends as the ETag.
   */
  revision: number;
  lane_id: number;
  downloaded: boolean;
  /** The consolidated shipment (parent service_ref) its current plan is a share of. */
  consolidated_into?: string;
  /** A consolidated shipment's parent: the service_refs of the orders it ships. */
  consolidated_orders?: string[];
}

export type OrderDecision<E extends OrderEvent = OrderEvent> = { ok: true; events: E[] } | { ok: false; errors: FieldErrors };

export const REFERENCE_TAKEN_MESSAGE = 'An order with this reference already exists.';
export const NO_ORDER_MESSAGE = 'No order has been submitted in this stream.';
export const NOT_PLANNED_MESSAGE = 'The order has no plan yet.';
export const TOO_FEW_CHILDREN_MESSAGE = 'A consolidated order ships at least two orders.';
/** The error key of a refusal that is a failed precondition (If-Match), answered 412 rather than 400. */
export const STALE_REVISION = 'If-Match';

export function initialOrderState(): OrderState {
  return {
    status: 'none',
    order_id: 0,
    service_ref: '',
    reference: '',
    company_group: '',
    order: undefined,
    version: 0,
    revision: -1,
    lane_id: 0,
    downloaded: false,
  };
}

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  return { ...evolveFields(state, event), revision: state.revision + 1 };
}

function evolveFields(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderSubmitted': {
      const { order_id, service_ref, company_group, order, lane, consolidated_orders } = event.data;
      const parent = consolidated_orders ? { consolidated_orders } : {};
      return {
        ...initialOrderState(),
        status: 'submitted',
        order_id,
        service_ref,
        company_group,
        reference: order.reference,
        order,
        lane_id: lane.id,
        ...parent,
      };
    }
    case 'OrderJoinedConsolidation':
      return { ...state, consolidation: event.data.consolidation };
    case 'OrderPlanned': {
      const { consolidated_into: _, ...rest } = state;
      return { ...rest, status: 'planned', ...(event.data.consolidated_into ? { consolidated_into: event.data.consolidated_into } : {}) };
    }
    case 'OrderPlanningFailed':
      return { ...state, status: 'planning_failed' };
    case 'PackingInstructionsDownloaded':
      return { ...state, downloaded: true };
    case 'OrderAmended': {
      const { consolidation: _w, consolidated_into: _s, ...rest } = state;
      return { ...rest, status: 'submitted', order: event.data.order, version: event.data.version, lane_id: event.data.lane.id };
    }
    case 'OrderCancelled': {
      const { consolidation: _w, consolidated_into: _s, ...rest } = state;
      return { ...rest, status: 'cancelled' };
    }
    case 'OrderPlanWithdrawn': {
      const { consolidated_into: _, ...rest } = state;
      return { ...rest, status: 'submitted', version: event.data.version };
    }
    default:
      // an event type this version does not know changes nothing the rules look at
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
export function decideOrder(command: AmendOrder, state: OrderState): OrderDecision<OrderAmended>;
export function decideOrder(command: CancelOrder | DissolveShipment, state: OrderState): OrderDecision<OrderCancelled>;
export function decideOrder(command: WithdrawPlan, state: OrderState): OrderDecision<OrderPlanWithdrawn>;
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
    case 'AmendOrder':
      return decideAmendOrder(command, state);
    case 'CancelOrder':
      return decideCancelOrder(command, state);
    case 'DissolveShipment':
      return decideDissolveShipment(command, state);
    case 'WithdrawPlan':
      return decideWithdrawPlan(command, state);
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
  // an amended order (or one whose shipment was dissolved) is planned alone: it joins no window again
  if (state.consolidation !== undefined || !awaitsPlan(state) || state.version !== 0) return { ok: true, events: [] };
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
  const lane = laneSnapshot(errors, masterData, company_group, order);
  if (!lane || hasErrors(errors)) return { ok: false, errors };
  return {
    ok: true,
    events: [
      {
        type: 'OrderSubmitted',
        data: {
          order_id: command.data.order_id,
          service_ref: command.data.service_ref,
          company_group,
          lane,
          order,
          submitted_at: command.data.submitted_at,
        },
      },
    ],
  };
}

/**
 * What a submit and an amend check against master data: the lane of the names sent, its modes, its
 * containers and its item master. The lane as the order keeps it (only the items it names), or
 * undefined with the errors added.
 */
function laneSnapshot(
  errors: FieldErrors,
  masterData: MasterData,
  companyGroup: string,
  order: SubmitOrderPayload,
): LaneDocument | undefined {
  const lane = findLane(masterData, companyGroup, order.supplier_name, order.consignee_name);
  if (!lane) {
    explainMissingLane(errors, masterData, companyGroup, order);
    return undefined;
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
  const skus = new Set(order.order_items.map((item) => item.item));
  return { ...settings, items: [...lane.items.values()].filter((item) => skus.has(item.sku)) };
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
  // planned for a version the order no longer is (amended or cancelled while the planner ran): void
  if (!awaitsPlan(state) || command.data.version !== state.version) return { ok: true, events: [] };
  const { order_id, service_ref } = state;
  const version = state.version > 0 ? { version: state.version } : {};
  if ('reason' in command.data) {
    return {
      ok: true,
      events: [
        {
          type: 'OrderPlanningFailed',
          data: { order_id, service_ref, reason: command.data.reason, failed_at: command.data.failed_at, ...version },
        },
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
          ...version,
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

// An amend is refused for an order that is no more (cancelled) or is the service's own (a shipment's
// parent) before its revision is looked at, since no revision would make it pass; then its revision
// must be the client's; then it must keep what names the order (reference, lane, mode) and pass the
// submit's checks against master data. The same content again records nothing.
export function decideAmendOrder(command: AmendOrder, state: OrderState): OrderDecision<OrderAmended> {
  const { order, expected_revision, amended_at, masterData } = command.data;
  const refused = refusedChange(state, 'amended');
  if (refused) return refused;
  const stale = expected_revision === 'any' ? undefined : staleRevision(state, expected_revision);
  if (stale) return stale;
  const stored = state.order!;
  const errors: FieldErrors = {};
  if (order.reference !== state.reference)
    addError(
      errors,
      'reference',
      `An amend keeps the order's reference "${state.reference}"; to change it, cancel this order and submit a new one.`,
    );
  for (const field of ['supplier_name', 'consignee_name', 'transportation_mode'] as const) {
    if (order[field] !== stored[field])
      addError(
        errors,
        field,
        `An amend keeps the order's ${LANE_FIELDS[field]} "${stored[field]}"; to change it, cancel this order and submit a new one.`,
      );
  }
  if (hasErrors(errors)) return { ok: false, errors };
  const lane = laneSnapshot(errors, masterData, state.company_group, order);
  if (lane && lane.id !== state.lane_id)
    addError(
      errors,
      NON_FIELD_ERRORS,
      `The supplier and consignee now make lane ${lane.id}, not the order's lane ${state.lane_id}; an amend keeps the lane.`,
    );
  if (!lane || hasErrors(errors)) return { ok: false, errors };
  if (isRetryOf(state, order)) return { ok: true, events: [] };
  const left = leaving(state);
  const { order_id, service_ref, company_group } = state;
  return {
    ok: true,
    events: [
      {
        type: 'OrderAmended',
        data: { order_id, service_ref, company_group, version: state.version + 1, lane, order, amended_at, ...left },
      },
    ],
  };
}

const LANE_FIELDS = { supplier_name: 'supplier', consignee_name: 'consignee', transportation_mode: 'transportation mode' } as const;

// A cancel is recorded once: asked again it records nothing and the caller answers as the first time,
// whatever If-Match says (the change it asks for has happened).
export function decideCancelOrder(command: CancelOrder, state: OrderState): OrderDecision<OrderCancelled> {
  if (state.status === 'cancelled') return { ok: true, events: [] };
  const refused = refusedChange(state, 'cancelled');
  if (refused) return refused;
  const stale = command.data.expected_revision === undefined ? undefined : staleRevision(state, command.data.expected_revision);
  if (stale) return stale;
  return { ok: true, events: [cancelled(state, command.data.reason, command.data.cancelled_at)] };
}

// A shipment's parent is called off by the service alone, once.
export function decideDissolveShipment(command: DissolveShipment, state: OrderState): OrderDecision<OrderCancelled> {
  if (state.status === 'none') return { ok: false, errors: { [NON_FIELD_ERRORS]: [NO_ORDER_MESSAGE] } };
  if (state.status === 'cancelled') return { ok: true, events: [] };
  if (!state.consolidated_orders) return { ok: false, errors: { [NON_FIELD_ERRORS]: ['Only a consolidated shipment is dissolved.'] } };
  return { ok: true, events: [cancelled(state, command.data.reason, command.data.cancelled_at)] };
}

// Only the share of that very shipment is withdrawn, once: a child planned since (alone) keeps its plan.
export function decideWithdrawPlan(command: WithdrawPlan, state: OrderState): OrderDecision<OrderPlanWithdrawn> {
  if (state.status !== 'planned' || state.consolidated_into !== command.data.shipment) return { ok: true, events: [] };
  const { shipment, reason, withdrawn_at } = command.data;
  return {
    ok: true,
    events: [
      {
        type: 'OrderPlanWithdrawn',
        data: {
          order_id: state.order_id,
          service_ref: state.service_ref,
          company_group: state.company_group,
          version: state.version + 1,
          shipment,
          reason,
          withdrawn_at,
        },
      },
    ],
  };
}

function refusedChange(state: OrderState, change: 'amended' | 'cancelled'): OrderDecision<never> | undefined {
  if (state.status === 'none') return { ok: false, errors: { [NON_FIELD_ERRORS]: [NO_ORDER_MESSAGE] } };
  if (state.status === 'cancelled')
    return {
      ok: false,
      errors: {
        [NON_FIELD_ERRORS]: [
          `Order ${state.service_ref} was cancelled; a cancelled order cannot be ${change}. Submit a new order under another reference.`,
        ],
      },
    };
  if (state.consolidated_orders)
    return {
      ok: false,
      errors: {
        [NON_FIELD_ERRORS]: [
          `Order ${state.service_ref} is a consolidated shipment the service made; it is not ${change} itself: amend or cancel the orders it ships (${state.consolidated_orders.join(', ')}).`,
        ],
      },
    };
  return undefined;
}

function staleRevision(state: OrderState, expected: number): OrderDecision<never> | undefined {
  if (expected === state.revision) return undefined;
  return {
    ok: false,
    errors: {
      [STALE_REVISION]: [
        `The order has changed since revision ${expected}: it is at revision ${state.revision} now. Retrieve it again (ETag "${state.revision}"), check it, and send If-Match: "${state.revision}".`,
      ],
    },
  };
}

/** The window or shipment an order leaves when it is amended or cancelled. */
function leaving(state: OrderState): { left_window?: string; left_shipment?: string } {
  return {
    ...(state.consolidation !== undefined ? { left_window: state.consolidation } : {}),
    ...(state.consolidated_into !== undefined ? { left_shipment: state.consolidated_into } : {}),
  };
}

function cancelled(state: OrderState, reason: string | null, cancelled_at: string): OrderCancelled {
  const { order_id, service_ref, reference, company_group } = state;
  return {
    type: 'OrderCancelled',
    data: {
      order_id,
      service_ref,
      reference,
      company_group,
      reason,
      cancelled_at,
      status_before: state.status as OrderCancelled['data']['status_before'],
      packing_instructions_downloaded: state.downloaded,
      ...leaving(state),
    },
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
