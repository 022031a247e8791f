// The bootstrap document of ../shared/spec/master-data.md as a typebox schema: what ajv checks for
// both the seed file and PUT /api/v1/admin/master-data/, and the request body of that operation in
// the OpenAPI document. A field it does not know is refused at every level, as submit refuses one: a
// misspelt road_profile or max_load_on_top must never leave a truck or a carton unprotected
// (docs/decisions.md). Rules across elements (unique names, ids, keys, pairs; max_height > height; a
// road profile for every chassis its lane's containers ride on) are checked in validate-master-data.ts.
import Type, { type Static } from 'typebox';
import { CONTAINER_CODES } from '../plan-contract/container-codes.js';
import { MASTER_DATA_EVENT_TYPES } from './master-data.js';
import { RoadProfileSpecSchema } from './road-profile-schema.js';
import { API_KEY_CHARACTERS, HTTP_URL, WEBHOOK_SECRET } from '../validation/patterns.js';
import { TRANSPORTATION_MODES } from '../plan-contract/transportation-modes.js';

const exact = { additionalProperties: false } as const;

export const API_KEY_MIN_LENGTH = 16;

const positive = (description: string) => Type.Number({ exclusiveMinimum: 0, description });
const nonEmpty = (description: string) => Type.String({ minLength: 1, description });

export const PalletTypeDocumentSchema = Type.Object(
  {
    code: nonEmpty('Pallet type code; unique within the lane. Pallet contents report it as pallet_code.'),
    length: positive('Length of the empty pallet, lane length unit.'),
    width: positive('Width of the empty pallet, lane length unit.'),
    height: positive('Height of the empty pallet, lane length unit.'),
    weight: positive('Weight of the empty pallet, lane weight unit.'),
    max_height: positive('Total height limit of the loaded pallet, pallet included; greater than height.'),
    max_weight: positive('Total weight limit of the loaded pallet, pallet included; greater than weight.'),
  },
  { ...exact, title: 'PalletTypeDocument' },
);

export const ItemDocumentSchema = Type.Object(
  {
    sku: nonEmpty('SKU code; unique within the lane.'),
    length: positive('Length of one unit as packed, lane length unit.'),
    width: positive('Width of one unit as packed, lane length unit.'),
    height: positive('Height of one unit as packed, lane length unit.'),
    weight: positive('Weight of one unit, lane weight unit.'),
    upright: Type.Optional(
      Type.Boolean({ default: false, description: 'true: may only be turned about its vertical axis (this side up).' }),
    ),
    max_load_on_top: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1_000_000,
        description:
          'The most weight one unit may carry above it, lane weight unit: everything that rests on it, directly or through other units, whatever face it stands on (docs/decisions.md, "Load bearing"). Absent: no limit.',
      }),
    ),
    stackable: Type.Optional(Type.Boolean({ default: true, description: 'false: nothing may stand on a unit.' })),
  },
  { ...exact, title: 'ItemDocument' },
);

export const LaneDocumentSchema = Type.Object(
  {
    id: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Lane ID shown in the lane field of orders; unique across all groups.',
    }),
    supplier: nonEmpty('Must equal supplier_name of submitted orders exactly, case-sensitive.'),
    consignee: nonEmpty(
      'Must equal consignee_name of submitted orders exactly, case-sensitive. (supplier, consignee) is unique within the group.',
    ),
    transportation_modes: Type.Array(nonEmpty('A transportation mode name.'), {
      minItems: 1,
      uniqueItems: true,
      description: 'Modes this lane accepts.',
    }),
    units: Type.Object(
      {
        length: Type.Enum(['mm', 'cm', 'in'], { description: 'Unit of every length of the lane and its orders.' }),
        weight: Type.Enum(['kg', 'lb'], { description: 'Unit of every weight of the lane and its orders.' }),
      },
      { ...exact, title: 'LaneUnits' },
    ),
    pallet_types: Type.Array(PalletTypeDocumentSchema, { minItems: 1, description: 'Pallet types to build on; the first is the default.' }),
    // `type: string` beside the enum lets ajv check uniqueItems with a hash instead of comparing every pair.
    container_codes: Type.Array(Type.Enum(CONTAINER_CODES, { type: 'string' }), {
      minItems: 1,
      uniqueItems: true,
      description: 'Container codes enabled on this lane, each once.',
    }),
    items: Type.Array(ItemDocumentSchema, { description: 'Item master data, one entry per SKU.' }),
    consolidation_window_seconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 604_800,
        description:
          'When set, normal orders of this lane and the same transportation mode submitted within this many seconds of the first one are planned together and may share containers. Absent: every order is planned alone.',
      }),
    ),
    road_profile: Type.Optional(RoadProfileSpecSchema),
    road_profile_modes: Type.Optional(
      Type.Array(Type.Enum(TRANSPORTATION_MODES, { type: 'string' }), {
        minItems: 1,
        uniqueItems: true,
        default: ['TruckFTL'],
        description:
          'The orders held to road_profile, by transportation mode. Default ["TruckFTL"]; add "OceanFCL" to plan an ocean container for the truck that takes it to the port.',
      }),
    ),
  },
  { ...exact, title: 'LaneDocument' },
);

export const WebhookDocumentSchema = Type.Object(
  {
    url: Type.String({ format: 'uri', pattern: HTTP_URL.pattern, description: 'Absolute http(s) URL receiving the events as HTTP POST.' }),
    secret: Type.String({
      pattern: WEBHOOK_SECRET.pattern,
      description: 'Signing secret: "whsec_" + standard base64 of at least 16 bytes.',
    }),
  },
  { ...exact, title: 'WebhookDocument' },
);

export const CompanyGroupDocumentSchema = Type.Object(
  {
    name: nonEmpty("Unique name of the customer's company group."),
    api_keys: Type.Array(
      Type.Object(
        {
          name: nonEmpty('A label for the key.'),
          key: Type.String({
            minLength: API_KEY_MIN_LENGTH,
            pattern: API_KEY_CHARACTERS.pattern,
            description: `The plaintext key sent as "Api-Key <key>": at least ${API_KEY_MIN_LENGTH} printable ASCII characters without spaces; unique across the document. Only its hash is stored.`,
          }),
        },
        { ...exact, title: 'ApiKeyDocument' },
      ),
    ),
    notification_emails: Type.Optional(
      Type.Array(Type.String({ format: 'email' }), {
        default: [],
        description: "Addresses receiving every packing-instructions e-mail of the group's orders.",
      }),
    ),
    webhooks: Type.Optional(Type.Array(WebhookDocumentSchema, { default: [], description: "Endpoints receiving the group's events." })),
    lanes: Type.Array(LaneDocumentSchema),
  },
  { ...exact, title: 'CompanyGroupDocument' },
);

export const MasterDataDocumentSchema = Type.Object(
  { company_groups: Type.Array(CompanyGroupDocumentSchema) },
  {
    ...exact,
    title: 'MasterDataDocument',
    description:
      'The bootstrap document (master-data.md). Applied whole or not at all; applying the same document twice changes nothing. A field it does not know is refused, at every level.',
  },
);

export type MasterDataDocumentInput = Static<typeof MasterDataDocumentSchema>;

/** 200 body of PUT /api/v1/admin/master-data/: how many events of each kind the document recorded. */
export const MasterDataAppliedSchema = Type.Object(
  {
    // Always true; a boolean rather than `const: true`, from which openapi-generator's Java client makes an
    // enum of a String that does not compile.
    applied: Type.Boolean({ description: 'Always true: the document was applied whole (a refusal is a 400 and applies nothing).' }),
    changes: Type.Object(Object.fromEntries(MASTER_DATA_EVENT_TYPES.map((type) => [type, Type.Integer({ minimum: 0 })])), {
      additionalProperties: false,
      description: 'Number of changes recorded, by kind; all 0 when the document changed nothing.',
    }),
  },
  { additionalProperties: false, title: 'MasterDataApplied' },
);
