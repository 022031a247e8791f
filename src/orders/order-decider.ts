// SubmitOrder: the business rules that need master data. Shape rules (types, limits, aliases)
// were checked before; here: the lane, its transportation modes, its containers, its items, and
// the reference not being taken.
import { addElementError, addError, hasErrors, NON_FIELD_ERRORS, type FieldErrors } from '../validation/field-errors.js';
import { findLane, type MasterData } from '../master-data/master-data.js';
import type { OrderSubmitted } from './order-events.js';
import type { SubmitOrderPayload } from './submit-order-payload.js';

export interface SubmitOrder {
  order: SubmitOrderPayload;
  company_group: string;
  order_id: number;
  service_ref: string;
  submitted_at: string;
}

export interface SubmitOrderState {
  masterData: MasterData;
  /** Whether the order stream of this group and reference already holds an order. */
  referenceTaken: boolean;
}

export const REFERENCE_TAKEN_MESSAGE = 'An order with this reference already exists.';

export type SubmitOrderDecision = { ok: true; events: [OrderSubmitted] } | { ok: false; errors: FieldErrors };

export function decideSubmitOrder(command: SubmitOrder, state: SubmitOrderState): SubmitOrderDecision {
  const { order, company_group } = command;
  const errors: FieldErrors = {};
  if (state.referenceTaken) addError(errors, 'reference', REFERENCE_TAKEN_MESSAGE);

  const lane = findLane(state.masterData, company_group, order.supplier_name, order.consignee_name);
  if (!lane) {
    explainMissingLane(errors, state.masterData, company_group, order);
    return { ok: false, errors };
  }
  const settings = lane.settings;

  if (!settings.transportation_modes.includes(order.transportation_mode)) {
    addError(errors, 'transportation_mode', `Lane ${settings.id} does not accept ${order.transportation_mode}; it accepts ${settings.transportation_modes.join(', ')}.`);
  }
  order.order_containers.forEach((container, i) => {
    if (!settings.container_codes.includes(container.code)) {
      addElementError(errors, 'order_containers', order.order_containers.length, i, 'code',
        `Container code ${container.code} is not enabled on lane ${settings.id}; enabled: ${settings.container_codes.join(', ')}.`);
    }
  });
  order.order_items.forEach((item, i) => {
    if (!lane.items.has(item.item)) {
      addElementError(errors, 'order_items', order.order_items.length, i, 'item', `SKU ${item.item} is not in the item master of lane ${settings.id}.`);
    }
  });
  if (hasErrors(errors)) return { ok: false, errors };

  const skus = new Set(order.order_items.map((item) => item.item));
  const items = [...lane.items.values()].filter((item) => skus.has(item.sku));
  return {
    ok: true,
    events: [{
      type: 'OrderSubmitted',
      data: {
        order_id: command.order_id,
        service_ref: command.service_ref,
        company_group,
        lane: { ...settings, items },
        order,
        submitted_at: command.submitted_at,
      },
    }],
  };
}

// Say which half of the pair is unknown, so an integrator knows what to fix.
function explainMissingLane(errors: FieldErrors, masterData: MasterData, companyGroup: string, order: SubmitOrderPayload): void {
  const lanes = [...masterData.lanes.values()].filter((lane) => lane.company_group === companyGroup);
  const supplierKnown = lanes.some((lane) => lane.settings.supplier === order.supplier_name);
  const consigneeKnown = lanes.some((lane) => lane.settings.consignee === order.consignee_name);
  if (!supplierKnown) addError(errors, 'supplier_name', `No lane of your company group has the supplier "${order.supplier_name}" (names match exactly, case-sensitive).`);
  if (!consigneeKnown) addError(errors, 'consignee_name', `No lane of your company group has the consignee "${order.consignee_name}" (names match exactly, case-sensitive).`);
  if (supplierKnown && consigneeKnown) {
    addError(errors, NON_FIELD_ERRORS, `No lane of your company group connects supplier "${order.supplier_name}" to consignee "${order.consignee_name}".`);
  }
}
