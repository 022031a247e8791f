// Response bodies of the order API as typebox schemas, for the OpenAPI document. The compile-time
// checks at the bottom keep them equal to the TypeScript types the handlers return, so the
// published document cannot drift from what the service sends.
import Type, { type Static, type TSchema } from 'typebox';
import { ORDER_STATUSES, type OrderView } from './order-view.js';
import {
  CONTAINER_CODES,
  SHIPMENT_TYPES,
  type LooseBox,
  type OrderContainer,
  type OrderItem,
  type PreBuilt,
  type PreBuiltItem,
} from './submit-order-payload.js';

const exact = { additionalProperties: false } as const;

/** A stored decimal: canonical, six decimals (spec 2.4-2.6 "normalized on save"). */
const StoredDecimal = (description: string) =>
  Type.String({
    pattern: '^-?(0|[1-9][0-9]*)\\.[0-9]{6}$',
    description: `${description} Decimal string with exactly six decimals.`,
    examples: ['120.500000'],
  });
const IntegerOrNull = (description: string) => Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, description });

export const OrderItemSchema = Type.Object(
  {
    item: Type.String({ description: 'Item (SKU) code.' }),
    quantity: StoredDecimal('Quantity.'),
    purchase_order: Type.String({ description: 'Empty string when not set.' }),
    line_item_number: Type.String({ description: 'Empty string when not set.' }),
    notes: Type.String({ description: 'Empty string when not set.' }),
  },
  { ...exact, title: 'OrderItem' },
);

export const PreBuiltItemSchema = Type.Object(
  {
    purchase_order: Type.String(),
    line_item_number: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    packages: IntegerOrNull('null when not set.'),
  },
  { ...exact, title: 'PreBuiltItem' },
);

const cargoShape = {
  name: Type.String(),
  length: StoredDecimal('Length.'),
  width: StoredDecimal('Width.'),
  height: StoredDecimal('Height.'),
  weight: StoredDecimal('Weight.'),
  count: Type.Integer({ minimum: 1 }),
};

export const PreBuiltSchema = Type.Object(
  {
    ...cargoShape,
    prebuiltitem_set: Type.Array(PreBuiltItemSchema),
    double_stacked_bottom: Type.Boolean(),
    double_stacked_top: Type.Boolean(),
    rotation_x: Type.Boolean(),
  },
  { ...exact, title: 'PreBuilt' },
);

export const LooseBoxSchema = Type.Object(
  {
    ...cargoShape,
    purchase_order: Type.String(),
    line_item_number: Type.String(),
    product_quantity: IntegerOrNull('null when not set.'),
    product_packages: IntegerOrNull('null when not set.'),
    double_stacked_bottom: Type.Boolean(),
    double_stacked_top: Type.Boolean(),
    rotation_x: Type.Boolean(),
    rotation_y: Type.Boolean(),
    rotation_z: Type.Boolean(),
    max_load_on_top: Type.Optional(StoredDecimal('The most weight one box may carry above it, as submitted; absent: no limit.')),
    stackable: Type.Optional(Type.Boolean({ description: 'As submitted; absent: true.' })),
  },
  { ...exact, title: 'LooseBox' },
);

export const OrderContainerSchema = Type.Object(
  { code: Type.Enum(CONTAINER_CODES), count: Type.Integer({ minimum: 1 }), exact: Type.Optional(Type.Literal(true)) },
  { ...exact, title: 'OrderContainer' },
);

const Timestamp = (description: string) =>
  Type.String({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}$',
    description: `${description} UTC, ISO 8601 without zone designator, microsecond precision.`,
    examples: ['2026-11-20T09:15:02.123456'],
  });

export const OrderViewSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Numeric order ID; used in the retrieve path.' }),
    service_ref: Type.String({
      description: 'Identifier assigned by the service; data.order_id in webhook events; usable as the order lookup value.',
    }),
    reference: Type.String({ description: "The caller's reference from creation." }),
    customer_notes: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    shipment_type: Type.Enum(SHIPMENT_TYPES),
    lane: Type.Integer({ description: 'Lane ID.' }),
    transport_name: Type.String({ description: 'Transportation mode name, such as OceanFCL.' }),
    packing_instructions_downloaded: Type.Boolean({
      description: 'Whether the packing instructions file was downloaded through this API.',
    }),
    status: Type.Enum(ORDER_STATUSES, {
      description:
        'submitted until the load planner has run (again after an amend); then planned (pallet contents, load plan and packing instructions are ready) or planning_failed; cancelled once cancelled, for good.',
    }),
    planning_failure_reason: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: 'Why planning failed; null unless status is planning_failed.',
    }),
    order_items: Type.Array(OrderItemSchema, { description: 'Submitted SKUs, normalized.' }),
    pre_builts: Type.Array(PreBuiltSchema, { description: 'Submitted pre-built pallets, normalized.' }),
    loose_boxes: Type.Array(LooseBoxSchema, { description: 'Submitted loose boxes, normalized.' }),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
    consolidated_into: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: "A child of a consolidated shipment: the parent order's service_ref (the list omits children). null otherwise.",
    }),
    consolidated_orders: Type.Array(Type.String(), {
      description: 'A consolidated shipment (parent order): the service_refs of the orders it ships together. Empty otherwise.',
    }),
    cancellation_reason: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: 'The reason given when the order was cancelled; null unless status is cancelled, or when no reason was given.',
    }),
    revision: Type.Integer({
      minimum: 0,
      description:
        "The revision of the order (its recorded events counted from 0): the same as retrieve's ETag, and what an amend's If-Match names.",
    }),
  },
  { ...exact, title: 'Order', description: 'An order as retrieve and list return it (spec 2.1). Input-only aliases never appear here.' },
);

export const OrderListSchema = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'Total number of matching orders.' }),
    next: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uri', description: 'URL of the next page, or null.' }),
    previous: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uri', description: 'URL of the previous page, or null.' }),
    results: Type.Array(OrderViewSchema, { description: 'Orders of this page, newest first.' }),
  },
  { ...exact, title: 'OrderList' },
);

export const SubmitOrderCreatedSchema = Type.Object(
  {
    message: Type.String({ examples: ['Order has been created and will be processed shortly'] }),
    order_id: Type.Integer({ minimum: 1, description: 'The numeric order id (the id of retrieve).' }),
    service_ref: Type.String({ description: 'The identifier assigned by the service.' }),
  },
  { ...exact, title: 'SubmitOrderCreated' },
);

export const ErrorDetailSchema = Type.Object(
  { detail: Type.String() },
  {
    ...exact,
    title: 'ErrorDetail',
    description: 'Authentication, permission, not-found and size errors.',
    examples: [{ detail: 'Invalid API key.' }],
  },
);

/** Field errors are recursive; the document describes their convention rather than every field. */
export const ValidationErrorSchema = Type.Object(
  {},
  {
    title: 'ValidationError',
    additionalProperties: true,
    description:
      'Each bad field maps to a list of messages. Errors inside lists of objects are nested by index, with {} for the elements that are fine; ' +
      'errors inside lists of strings are nested in an object keyed by index; errors about an object as a whole, or across fields, are under non_field_errors. ' +
      'Fields are named as the client sent them (an alias such as shipment_skus keeps its name).',
    examples: [{ order_items: [{}, { quantity: ['Ensure this value is greater than or equal to 0.01.'] }], non_field_errors: ['...'] }],
  },
);

/** 400 of the order lookups (pallet contents, packing instructions): spec 7. */
export const OrderLookupErrorSchema = Type.Object(
  { order: Type.Array(Type.String()) },
  {
    ...exact,
    title: 'OrderLookupError',
    examples: [{ order: ['Optimization results are not ready yet; try again in a couple of minutes.'] }],
  },
);

export const PalletContentSchema = Type.Object(
  {
    sku: Type.String({ description: 'Product / SKU code.' }),
    purchase_order: Type.String({ description: 'Empty string when not set.' }),
    line_item_number: Type.String({ description: 'Empty string when not set.' }),
    quantity: Type.Integer({ minimum: 1, description: 'Total quantity of that SKU / PO / line on this pallet.' }),
  },
  { ...exact, title: 'PalletContent' },
);

export const PalletSchema = Type.Object(
  {
    pallet_index: Type.String({ description: 'Optimizer label of the pallet.', examples: ['AP1'] }),
    pallet_code: Type.String({ description: 'Lane pallet type code.', examples: ['EUR'] }),
    contents: Type.Array(PalletContentSchema, { description: 'Grouped by SKU / purchase order / line item, quantities summed.' }),
  },
  { ...exact, title: 'Pallet' },
);

export const PalletContentsSchema = Type.Array(PalletSchema, {
  title: 'PalletContents',
  description: 'One entry per service-built pallet, in optimizer order.',
});

/** GET /api/v1/orders/detailed-orders/{id}/history/: the order's events as recorded, oldest first. */
export const OrderHistorySchema = Type.Array(
  Type.Object(
    {
      event_id: Type.String({ description: 'Unique id of the event.' }),
      type: Type.String({ description: 'Event type, such as OrderSubmitted.', examples: ['OrderSubmitted'] }),
      timestamp: Type.String({ format: 'date-time', description: 'When the event was recorded, ISO 8601 in UTC.' }),
      position: Type.String({
        pattern: '^[0-9]+$',
        description: 'Position in the whole log; a decimal string because it may exceed 2^53.',
      }),
      revision: Type.Integer({ minimum: 0, description: '0-based position of the event in the order stream.' }),
      data: Type.Object({}, { additionalProperties: true, description: 'The event data as recorded.' }),
    },
    { ...exact, title: 'OrderHistoryEvent' },
  ),
  { title: 'OrderHistory', description: "The order's events, oldest first." },
);

export type PalletContent = Static<typeof PalletContentSchema>;
export type Pallet = Static<typeof PalletSchema>;

// Compile-time: each schema infers exactly the type the code uses (an edit to one without the other
// fails the build here).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Exactly<S extends TSchema, T> = Same<Static<S>, T> extends true ? Same<keyof Static<S>, keyof T> : false;
const schemasMatchTypes: [
  Exactly<typeof OrderViewSchema, OrderView>,
  Exactly<typeof OrderItemSchema, OrderItem>,
  Exactly<typeof PreBuiltItemSchema, PreBuiltItem>,
  Exactly<typeof PreBuiltSchema, PreBuilt>,
  Exactly<typeof LooseBoxSchema, LooseBox>,
  Exactly<typeof OrderContainerSchema, OrderContainer>,
] = [true, true, true, true, true, true];
void schemasMatchTypes;
