// The submit payload as a client may send it (spec 2.3-2.8): the schema ajv validates against and
// the request body schema of the OpenAPI document, one and the same object. What it accepts is
// wider than SubmitOrderPayload: aliases, decimals as numbers, optional fields that get defaults.
// Cross-field rules JSON Schema cannot state plainly (a name and its alias, at least one cargo list,
// a container code once) are in the descriptions and checked in validate-submit-order.ts.
import Type, { type Static, type TSchema } from 'typebox';
import type { DecimalRule } from '../validation/decimal.js';
import { CONTAINER_CODES, DEFAULT_CONTAINER_COUNT, SHIPMENT_TYPES, TRANSPORTATION_MODES } from './submit-order-payload.js';
import { DecimalInput } from '../validation/decimal-schema.js';
import { NO_AMPERSAND_OR_COMMA, NOT_BLANK } from '../validation/patterns.js';

/** Spec 8: the length, width and height of pre-built pallets and loose boxes. */
export const DIMENSION_RULE: DecimalRule = { maxDigits: 12, exclusiveMinimum: '0' };
/** Spec 8: the weight of pre-built pallets and loose boxes. */
export const WEIGHT_RULE: DecimalRule = { maxDigits: 15, exclusiveMinimum: '0' };
/** The weight a loose box may carry above it (our extension): a weight, and 0 means nothing on it. */
export const LOAD_ON_TOP_RULE: DecimalRule = { maxDigits: 15, minimum: '0' };
/**
 * Spec 2.4 gives only the minimum. Stored with six decimals like every decimal; the 15-digit cap
 * (nine before the point) is ours, so a quantity fits the load planner's integer arithmetic.
 */
export const QUANTITY_RULE: DecimalRule = { maxDigits: 15, minimum: '0.01', maximum: '20000' };

export const REFERENCE_MAX_LENGTH = 64;
export const NAME_MAX_LENGTH = 64;
export const ORDER_LINE_MAX_LENGTH = 64;

// Upper limits of an order (docs/decisions.md, "Limits"). Each bounds the work one request can cause: the
// validation and its error body, the stored event, and above all the planner, whose one thread
// per order must finish within the time limit. 20,000 units is about three times the 6,000-unit
// order the planner loads in under half a second, so the time limit is never what refuses an order.
export const MAX_UNITS_PER_SUBMITTED_ORDER = 20_000;
export const MAX_CARGO_ROWS = 1_000;
export const MAX_PREBUILT_ITEMS = 200;
export const MAX_CARGO_COUNT = MAX_UNITS_PER_SUBMITTED_ORDER;
export const MAX_CONTAINER_COUNT = 100;
export const MAX_RECIPIENTS = 50;
export const PARTY_NAME_MAX_LENGTH = 200;
export const SKU_MAX_LENGTH = 200;
export const NOTES_MAX_LENGTH = 1_000;
export const CUSTOMER_NOTES_MAX_LENGTH = 2_000;
export const EMAIL_MAX_LENGTH = 254;
/** Whole numbers that are only recorded (units on a pallet, packages), never planned one by one. */
export const MAX_RECORDED_INTEGER = 1_000_000_000;

/** The lists whose length is checked before anything else, with their limits. */
export const LIST_LIMITS: Readonly<Record<string, number>> = {
  order_items: MAX_CARGO_ROWS,
  shipment_skus: MAX_CARGO_ROWS,
  pre_builts: MAX_CARGO_ROWS,
  pallets: MAX_CARGO_ROWS,
  loose_boxes: MAX_CARGO_ROWS,
  boxes: MAX_CARGO_ROWS,
  order_containers: 8,
  extra_recipients: MAX_RECIPIENTS,
  extra_cc_recipients: MAX_RECIPIENTS,
};

/** The input-only names of spec 2.1 and the canonical field each stands for. */
export const ALIASES = { shipment_skus: 'order_items', pallets: 'pre_builts', boxes: 'loose_boxes' } as const;

const strict = { additionalProperties: false } as const;

function orderLine(description: string) {
  return Type.String({
    maxLength: ORDER_LINE_MAX_LENGTH,
    pattern: NO_AMPERSAND_OR_COMMA.pattern,
    default: '',
    description: `${description} At most ${ORDER_LINE_MAX_LENGTH} characters; must not contain "&" or ",".`,
  });
}

function positiveIntegerOrNull(description: string) {
  return Type.Unsafe<number | null>({
    type: ['integer', 'null'],
    minimum: 1,
    maximum: MAX_RECORDED_INTEGER,
    default: null,
    description: `${description} A whole number from 1 to ${MAX_RECORDED_INTEGER}; null or absent when not set.`,
  });
}

const dimension = (what: string) =>
  DecimalInput(DIMENSION_RULE, {
    description: `${what} in the lane's length unit. Greater than 0, at most 12 digits of which 6 decimals.`,
    examples: ['120.5', 120.5],
  });
const weight = (what: string) =>
  DecimalInput(WEIGHT_RULE, {
    description: `${what} in the lane's weight unit. Greater than 0, at most 15 digits of which 6 decimals.`,
    examples: ['350', 350.25],
  });
const stackable = (what: string) => Type.Boolean({ default: false, description: what });

export const OrderItemInput = Type.Object(
  {
    item: Type.String({
      minLength: 1,
      maxLength: SKU_MAX_LENGTH,
      description: `Item (SKU) code, at most ${SKU_MAX_LENGTH} characters; must be in the item master of the lane.`,
    }),
    quantity: DecimalInput(QUANTITY_RULE, {
      description: `Quantity of the SKU, at least 0.01 and at most ${QUANTITY_RULE.maximum}; decimals allowed for weight/volume quantities, at most 6 decimals. Planned as whole units (rounded up).`,
      examples: ['12', 12.5],
    }),
    purchase_order: Type.Optional(orderLine('Purchase order number.')),
    line_item_number: Type.Optional(orderLine('Line item number.')),
    notes: Type.Optional(
      Type.String({ maxLength: NOTES_MAX_LENGTH, default: '', description: `Free text, at most ${NOTES_MAX_LENGTH} characters.` }),
    ),
  },
  { ...strict, title: 'OrderItemInput', description: 'Raw units without packaging, palletized by the service (spec 2.4).' },
);

export const PreBuiltItemInput = Type.Object(
  {
    purchase_order: Type.Optional(orderLine('Purchase order number.')),
    line_item_number: Type.Optional(orderLine('Line item reference.')),
    quantity: Type.Integer({
      minimum: 1,
      maximum: MAX_RECORDED_INTEGER,
      description: `Units of this SKU on one pallet, 1 to ${MAX_RECORDED_INTEGER}.`,
    }),
    packages: Type.Optional(positiveIntegerOrNull('Number of packages.')),
  },
  { ...strict, title: 'PreBuiltItemInput', description: 'An item on a pre-built pallet (spec 2.7).' },
);

export const PreBuiltInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'Name of the pallet, 1 to 64 characters.' }),
    length: dimension('Outer length'),
    width: dimension('Outer width'),
    height: dimension('Outer height'),
    weight: weight('Total pallet weight'),
    count: Type.Integer({
      minimum: 1,
      maximum: MAX_CARGO_COUNT,
      description: `Number of identical pallets this row describes, 1 to ${MAX_CARGO_COUNT}.`,
    }),
    prebuiltitem_set: Type.Optional(
      Type.Array(PreBuiltItemInput, {
        maxItems: MAX_PREBUILT_ITEMS,
        default: [],
        description: `Items on the pallet; may be empty; at most ${MAX_PREBUILT_ITEMS}.`,
      }),
    ),
    double_stacked_bottom: Type.Optional(stackable('The pallet can be stacked below another.')),
    double_stacked_top: Type.Optional(stackable('The pallet can be stacked above another.')),
    rotation_x: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Allows turning in the floor plane (length and width may swap); false locks the submitted footprint.',
      }),
    ),
  },
  {
    ...strict,
    title: 'PreBuiltInput',
    description: 'A ready-made pallet, loaded as provided (spec 2.5). shipment_type is not accepted here: it belongs at the top level.',
  },
);

const ROTATIONS = ['rotation_x', 'rotation_y', 'rotation_z'] as const;
const rotation = (description: string) =>
  Type.Boolean({ default: true, description: `${description} Send rotation_x, rotation_y and rotation_z together.` });

export const LooseBoxInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'Box identifier, 1 to 64 characters.' }),
    length: dimension('Outer length'),
    width: dimension('Outer width'),
    height: dimension('Outer height'),
    weight: weight('Carton weight'),
    count: Type.Integer({ minimum: 1, maximum: MAX_CARGO_COUNT, description: `Number of identical cartons, 1 to ${MAX_CARGO_COUNT}.` }),
    purchase_order: Type.Optional(orderLine('Related purchase order.')),
    line_item_number: Type.Optional(orderLine('Line item number.')),
    product_quantity: Type.Optional(positiveIntegerOrNull('Total quantity of items in a box.')),
    product_packages: Type.Optional(positiveIntegerOrNull('Total count of packages for the line.')),
    double_stacked_bottom: Type.Optional(stackable('The box can be stacked below another.')),
    double_stacked_top: Type.Optional(stackable('The box can be stacked above another.')),
    rotation_x: Type.Optional(rotation('Allows turning about the vertical axis (floor spin).')),
    rotation_y: Type.Optional(rotation('Allows tilting about the width axis.')),
    rotation_z: Type.Optional(rotation('Allows tilting about the length axis.')),
    max_load_on_top: Type.Optional(
      DecimalInput(LOAD_ON_TOP_RULE, {
        description:
          "Our extension: the most weight one box may carry above it, in the lane's weight unit (0: nothing). The planner never double-stacks a heavier box on it. Absent: no limit.",
        examples: ['120', 45.5],
      }),
    ),
    stackable: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Our extension: false means nothing may stand on the box; it may not be double_stacked_bottom then.',
      }),
    ),
  },
  {
    ...strict,
    // "Send all three together" (spec 2.6), said in JSON Schema: any one of them requires the other two.
    dependentRequired: Object.fromEntries(ROTATIONS.map((name) => [name, ROTATIONS.filter((other) => other !== name)])),
    title: 'LooseBoxInput',
    description:
      'A standalone carton (spec 2.6). All rotations false = no rotation; only rotation_x true = floor spin; only rotation_y true = limited tilt; all true or all omitted = any orientation. shipment_type is not accepted here: it belongs at the top level.',
  },
);

export const OrderContainerInput = Type.Object(
  {
    code: Type.Enum(CONTAINER_CODES, { description: 'Container code; must also be enabled on the lane.' }),
    count: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_CONTAINER_COUNT,
        // No `default`: an omitted count is not the same as 5 (up to 5, used as needed, against exactly 5),
        // and the Java and Python clients openapi-generator makes send a field's default when it is not set.
        description: `Exact number of containers of this type, 1 to ${MAX_CONTAINER_COUNT}: they are booked, loaded first, and the plan has exactly this many (one the cargo does not need is listed empty). Omitted: up to ${DEFAULT_CONTAINER_COUNT}, used as needed.`,
      }),
    ),
  },
  { ...strict, title: 'OrderContainerInput', description: 'A container type to plan with (spec 2.8).' },
);

const emails = (description: string) =>
  Type.Array(Type.String({ format: 'email', maxLength: EMAIL_MAX_LENGTH }), {
    maxItems: MAX_RECIPIENTS,
    default: [],
    description: `${description} At most ${MAX_RECIPIENTS}.`,
  });
// No `default: []`: an omitted list is not the same as an empty one beside its alias (both sent is refused),
// and the Java client openapi-generator makes sends every list with a default, so all six.
const cargo = <T extends TSchema>(element: T, description: string) =>
  Type.Array(element, { maxItems: MAX_CARGO_ROWS, description: `${description} At most ${MAX_CARGO_ROWS} rows.` });
const aliasOf = (canonical: string) =>
  `Input-only alias of ${canonical}, never shown in responses. Send one or the other, not both; errors are reported under the name sent.`;

/**
 * The two rules across fields, said in the schema too (validate-submit-order.ts words them), so that a
 * client validating against this document sends what is accepted: never a field together with its alias,
 * and some non-empty cargo list. In keywords that code generators leave alone (dependentSchemas, if/then):
 * said with anyOf and allOf of one-property fragments, as before, they made generators build the submit
 * model as a union of those fragments, with no typed supplier_name (docs/openapi.md).
 */
export const SUBMIT_RULES_ACROSS_FIELDS = {
  // An alias present: its field is not.
  // (`properties` names the field for linters, which look for every required name among them.)
  dependentSchemas: Object.fromEntries(
    Object.entries(ALIASES).map(([alias, canonical]) => [alias, { not: { properties: { [canonical]: {} }, required: [canonical] } }]),
  ),
  // No cargo field is a non-empty list (each is absent, empty or not a list at all): refused.
  if: {
    properties: Object.fromEntries(
      Object.entries(ALIASES)
        .flat()
        .map((field) => [field, { not: { type: 'array', minItems: 1 } }]),
    ),
  },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then (its value is a schema, never a function).
  then: { not: {} },
};

/**
 * The input-only aliases (spec 2.1), accepted with the schema of their field. They are patternProperties
 * (each pattern matches its one name) rather than properties: JSON Schema means the same by either, and
 * code generators then offer one field per kind of cargo, not two of which a client must leave one out;
 * the Java client openapi-generator makes sends every list it has, empty or not (docs/openapi.md).
 */
const ALIAS_SCHEMAS = {
  shipment_skus: cargo(OrderItemInput, aliasOf('order_items')),
  pallets: cargo(PreBuiltInput, aliasOf('pre_builts')),
  boxes: cargo(LooseBoxInput, aliasOf('loose_boxes')),
} satisfies Record<keyof typeof ALIASES, TSchema>;

export const SubmitOrderRequest = Type.Object(
  {
    supplier_name: Type.String({
      minLength: 1,
      maxLength: PARTY_NAME_MAX_LENGTH,
      description: `Must match the configured supplier name exactly, case-sensitive; at most ${PARTY_NAME_MAX_LENGTH} characters.`,
    }),
    consignee_name: Type.String({
      minLength: 1,
      maxLength: PARTY_NAME_MAX_LENGTH,
      description: `Must match the configured consignee name exactly, case-sensitive; at most ${PARTY_NAME_MAX_LENGTH} characters.`,
    }),
    reference: Type.String({
      minLength: 1,
      maxLength: REFERENCE_MAX_LENGTH,
      pattern: NOT_BLANK.pattern,
      description: 'Your order reference, 1 to 64 characters, not blank; unique per company group.',
    }),
    transportation_mode: Type.Enum(TRANSPORTATION_MODES, { description: 'Determines the required fields and the optimization.' }),
    shipment_type: Type.Optional(
      Type.Enum(SHIPMENT_TYPES, {
        default: 'normal',
        description: 'normal may be consolidated with other shipments; dangerous_goods must not be. Top level only.',
      }),
    ),
    order_items: Type.Optional(cargo(OrderItemInput, 'Raw SKUs for the service to palletize.')),
    pre_builts: Type.Optional(cargo(PreBuiltInput, 'Ready-made pallets.')),
    loose_boxes: Type.Optional(cargo(LooseBoxInput, 'Standalone cartons.')),
    order_containers: Type.Array(OrderContainerInput, {
      minItems: 1,
      maxItems: LIST_LIMITS.order_containers!,
      description: 'The container types to plan with: a non-empty list (never a single object), each code at most once.',
    }),
    customer_notes: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: CUSTOMER_NOTES_MAX_LENGTH,
        default: null,
        description: `Customer-related free text, at most ${CUSTOMER_NOTES_MAX_LENGTH} characters.`,
      }),
    ),
    send_email: Type.Optional(Type.Boolean({ default: true, description: 'Whether to e-mail the packing instructions.' })),
    extra_recipients: Type.Optional(emails('E-mail addresses of additional To recipients of the packing instructions.')),
    extra_cc_recipients: Type.Optional(emails('E-mail addresses of Cc recipients of the packing instructions.')),
  },
  {
    ...strict,
    patternProperties: Object.fromEntries(Object.entries(ALIAS_SCHEMAS).map(([alias, schema]) => [`^${alias}$`, schema])),
    ...SUBMIT_RULES_ACROSS_FIELDS,
    title: 'SubmitOrderRequest',
    description: `A shipment order (spec 2.3). At least one of order_items, pre_builts and loose_boxes (or their aliases) must be a non-empty list. Unknown fields are refused at every level, so that a misspelt field cannot silently drop data. The units to plan (order_items quantities rounded up, plus pre_builts and loose_boxes counts) are at most ${MAX_UNITS_PER_SUBMITTED_ORDER} in all.`,
  },
);

export type SubmitOrderRequest = Static<typeof SubmitOrderRequest> & {
  [alias in keyof typeof ALIAS_SCHEMAS]?: Static<(typeof ALIAS_SCHEMAS)[alias]>;
};
