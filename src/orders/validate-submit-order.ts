// Shape validation of the submit payload: every rule of spec 2.3-2.8 and 8 that needs no master data
// (lane, items and enabled containers are the domain's, in order-decider.ts). All problems are
// reported at once, under the names the client sent; a valid payload comes back normalized:
// aliases resolved, defaults filled in, decimals as canonical six-decimal strings.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { NON_FIELD_ERRORS, type FieldErrors } from '../validation/field-errors.js';
import { reportAjvErrors, type Translated } from '../validation/ajv-errors.js';
import { validatorFor } from '../validation/ajv.js';
import { FieldErrorCollector } from '../validation/error-collector.js';
import { parseDecimal, type DecimalRule } from '../validation/decimal.js';
import {
  ALIASES,
  DIMENSION_RULE,
  LIST_LIMITS,
  MAX_UNITS_PER_SUBMITTED_ORDER,
  QUANTITY_RULE,
  SubmitOrderRequest,
  WEIGHT_RULE,
  LOAD_ON_TOP_RULE,
} from './submit-order-schema.js';
import {
  DEFAULT_CONTAINER_COUNT,
  type Decimal,
  type LooseBox,
  type OrderItem,
  type PreBuilt,
  type SubmitOrderPayload,
} from './submit-order-payload.js';

export type SubmitOrderValidation = { ok: true; value: SubmitOrderPayload } | { ok: false; errors: FieldErrors };

type Input = SubmitOrderRequest;

/** Where ajv reports the rules of SUBMIT_RULES_ACROSS_FIELDS (an older document said them with anyOf and allOf). */
const ACROSS_FIELDS = /^#\/(dependentSchemas|if|then|anyOf|allOf)(\/|$)/;

export function validateSubmitOrder(body: unknown): SubmitOrderValidation {
  return validateSubmitOrderAgainst(SubmitOrderRequest, body);
}

/** validateSubmitOrder with another form of the request schema (test/validation/submit-rules-equivalence.test.ts). */
export function validateSubmitOrderAgainst(schema: object, body: unknown): SubmitOrderValidation {
  const collector = new FieldErrorCollector(body);
  // A list past its limit is refused before any element is looked at: checking 170,000 elements
  // only to refuse the list would cost seconds and a long error body.
  if (isObject(body)) checkListLengths(body, collector);
  if (!collector.empty) return { ok: false, errors: collector.errors };
  const validate = validatorFor(schema);
  // The schema's rules across fields (some cargo, a field or its alias) are worded by checkAcrossFields:
  // ajv would name every branch of them that failed.
  if (!validate(body))
    reportAjvErrors(
      inDeclaredOrder((validate.errors ?? []).filter((error) => !ACROSS_FIELDS.test(error.schemaPath))),
      body,
      collector,
      wordSpecialCases,
    );
  if (isObject(body)) checkAcrossFields(body, collector);
  if (!collector.empty) return { ok: false, errors: collector.errors };
  const order = normalize(body as Input);
  const units = plannedUnits(order);
  if (units > MAX_UNITS_PER_SUBMITTED_ORDER) {
    collector.add(
      [NON_FIELD_ERRORS],
      `The order asks to plan ${units} units (order_items quantities rounded up, plus pre_builts and loose_boxes counts); at most ${MAX_UNITS_PER_SUBMITTED_ORDER} are planned per order: split it into several orders.`,
    );
    return { ok: false, errors: collector.errors };
  }
  return { ok: true, value: order };
}

/** The top-level fields as the schema lists them, each alias after its field. */
const FIELD_RANK = new Map(
  Object.keys(SubmitOrderRequest.properties)
    .flatMap((field) => [field, ...Object.entries(ALIASES).flatMap(([alias, canonical]) => (canonical === field ? [alias] : []))])
    .map((field, rank) => [field, rank]),
);

/**
 * ajv reports the aliases (patternProperties) after every declared field; the errors of the fields are put
 * back in FIELD_RANK's order, in the places the field errors had, so that the body lists them as it did when
 * the aliases were properties, and the first MAX_REPORTED_ERRORS messages are the same ones.
 */
function inDeclaredOrder(errors: ErrorObject[]): ErrorObject[] {
  const rank = (error: ErrorObject) => FIELD_RANK.get(error.instancePath.split('/')[1] ?? '');
  const places = errors.flatMap((error, index) => (rank(error) === undefined ? [] : [index]));
  const sorted = places.map((index) => errors[index]!).sort((a, b) => rank(a)! - rank(b)!);
  const ordered = [...errors];
  places.forEach((place, n) => {
    ordered[place] = sorted[n]!;
  });
  return ordered;
}

function checkListLengths(body: Record<string, unknown>, collector: FieldErrorCollector): void {
  for (const [field, limit] of Object.entries(LIST_LIMITS)) {
    const value = body[field];
    if (Array.isArray(value) && value.length > limit)
      collector.add([field], `Ensure this list has no more than ${limit} elements (it has ${value.length}).`);
  }
}

/** What the planner places one by one: each SKU unit (a part of one is a whole one), each pallet, each box. */
function plannedUnits(order: SubmitOrderPayload): number {
  let units = 0;
  for (const item of order.order_items) units += Math.ceil(Number(item.quantity));
  for (const row of [...order.pre_builts, ...order.loose_boxes]) units += row.count;
  return units;
}

/** shipment_type inside a cargo element is a known mistake; say where it belongs. */
function wordSpecialCases(error: ErrorObject, path: readonly (string | number)[], generic: Translated): Translated | undefined {
  if (
    error.keyword === 'additionalProperties' &&
    path.length > 0 &&
    (error.params as { additionalProperty: string }).additionalProperty === 'shipment_type'
  ) {
    return { ...generic, message: `shipment_type belongs at the top level of the order, not inside ${String(path[0])} elements.` };
  }
  return undefined;
}

function checkAcrossFields(body: Record<string, unknown>, collector: FieldErrorCollector): void {
  for (const [alias, canonical] of Object.entries(ALIASES)) {
    if (body[alias] !== undefined && body[canonical] !== undefined) {
      collector.add([alias], `Send either ${canonical} or its alias ${alias}, not both.`);
    }
  }

  // Rule 2.3.1. A cargo field of the wrong type already has its own error; do not pile on.
  const cargoValues = Object.entries(ALIASES).flatMap(([alias, canonical]) => [body[canonical], body[alias]]);
  const malformed = cargoValues.some((value) => value !== undefined && !Array.isArray(value));
  if (!malformed && !cargoValues.some((value) => Array.isArray(value) && value.length > 0)) {
    collector.add(
      [NON_FIELD_ERRORS],
      'Send at least one non-empty list of cargo: order_items (or shipment_skus), pre_builts (or pallets) or loose_boxes (or boxes).',
    );
  }

  // Our extension: a box nothing may stand on cannot be the bottom of a double stack.
  for (const [list, rows] of [
    ['loose_boxes', body.loose_boxes],
    ['boxes', body.boxes],
  ] as const) {
    if (!Array.isArray(rows)) continue;
    rows.forEach((row, index) => {
      if (isObject(row) && row.stackable === false && row.double_stacked_bottom === true)
        collector.add([list, index, 'stackable'], 'A box that may carry nothing (stackable false) cannot be double_stacked_bottom.');
    });
  }

  // Rule 2.8.2: each container type once, with its count. The error goes on the repeated element.
  const containers = body.order_containers;
  if (Array.isArray(containers)) {
    const seen = new Set<string>();
    containers.forEach((container, index) => {
      const code = isObject(container) ? container.code : undefined;
      if (typeof code !== 'string') return;
      if (seen.has(code)) {
        collector.add(
          ['order_containers', index, 'code'],
          `Container code "${code}" is listed more than once; list each code once, with its count.`,
        );
      }
      seen.add(code);
    });
  }
}

function normalize(input: Input): SubmitOrderPayload {
  // At most one of a name and its alias is present here (checked above).
  const orderItems = input.order_items ?? input.shipment_skus ?? [];
  const preBuilts = input.pre_builts ?? input.pallets ?? [];
  const looseBoxes = input.loose_boxes ?? input.boxes ?? [];
  return {
    supplier_name: input.supplier_name,
    consignee_name: input.consignee_name,
    reference: input.reference,
    transportation_mode: input.transportation_mode,
    shipment_type: input.shipment_type ?? 'normal',
    order_items: orderItems.map(
      (item): OrderItem => ({
        item: item.item,
        quantity: decimal(item.quantity, QUANTITY_RULE),
        purchase_order: item.purchase_order ?? '',
        line_item_number: item.line_item_number ?? '',
        notes: item.notes ?? '',
      }),
    ),
    pre_builts: preBuilts.map(
      (pallet): PreBuilt => ({
        name: pallet.name,
        ...dimensions(pallet),
        count: pallet.count,
        prebuiltitem_set: (pallet.prebuiltitem_set ?? []).map((item) => ({
          purchase_order: item.purchase_order ?? '',
          line_item_number: item.line_item_number ?? '',
          quantity: item.quantity,
          packages: item.packages ?? null,
        })),
        double_stacked_bottom: pallet.double_stacked_bottom ?? false,
        double_stacked_top: pallet.double_stacked_top ?? false,
        rotation_x: pallet.rotation_x ?? true,
      }),
    ),
    loose_boxes: looseBoxes.map(
      (box): LooseBox => ({
        name: box.name,
        ...dimensions(box),
        count: box.count,
        purchase_order: box.purchase_order ?? '',
        line_item_number: box.line_item_number ?? '',
        product_quantity: box.product_quantity ?? null,
        product_packages: box.product_packages ?? null,
        double_stacked_bottom: box.double_stacked_bottom ?? false,
        double_stacked_top: box.double_stacked_top ?? false,
        rotation_x: box.rotation_x ?? true,
        rotation_y: box.rotation_y ?? true,
        rotation_z: box.rotation_z ?? true,
        ...(box.max_load_on_top !== undefined ? { max_load_on_top: decimal(box.max_load_on_top, LOAD_ON_TOP_RULE) } : {}),
        ...(box.stackable !== undefined ? { stackable: box.stackable } : {}),
      }),
    ),
    order_containers: input.order_containers.map((container) =>
      container.count === undefined
        ? { code: container.code, count: DEFAULT_CONTAINER_COUNT }
        : { code: container.code, count: container.count, exact: true as const },
    ),
    customer_notes: input.customer_notes ?? null,
    send_email: input.send_email ?? true,
    extra_recipients: [...(input.extra_recipients ?? [])],
    extra_cc_recipients: [...(input.extra_cc_recipients ?? [])],
  };
}

function dimensions(cargo: { length: string | number; width: string | number; height: string | number; weight: string | number }) {
  return {
    length: decimal(cargo.length, DIMENSION_RULE),
    width: decimal(cargo.width, DIMENSION_RULE),
    height: decimal(cargo.height, DIMENSION_RULE),
    weight: decimal(cargo.weight, WEIGHT_RULE),
  };
}

/** Only called after the schema's x-decimal keyword accepted the value with the same rule. */
function decimal(value: string | number, rule: DecimalRule): Decimal {
  const parsed = parseDecimal(value, rule);
  if (!parsed.ok) throw new Error(`decimal accepted by the schema but not by the parser: ${JSON.stringify(value)}`);
  return parsed.value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
