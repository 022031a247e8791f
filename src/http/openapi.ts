// The OpenAPI 3.1 document served at GET /api/v1/openapi.json, generated from the same typebox
// schemas the service validates requests with and types its responses by. OpenAPI 3.1 schemas are
// JSON Schema 2020-12, which is what typebox emits, so they are used as they are.
import { MasterDataAppliedSchema, MasterDataDocumentSchema } from '../master-data/master-data-schema.js';
import {
  ErrorDetailSchema, OrderHistorySchema, OrderListSchema, OrderLookupErrorSchema, OrderViewSchema, PalletContentsSchema,
  SubmitOrderCreatedSchema, ValidationErrorSchema,
} from '../orders/order-view-schema.js';
import { MAX_PAGE_SIZE } from '../orders/routes.js';
import { SubmitOrderRequest } from '../orders/submit-order-schema.js';
import { LoadPlanSchema } from '../load-plan/load-plan-schema.js';

const SCHEMAS = {
  SubmitOrderRequest,
  SubmitOrderCreated: SubmitOrderCreatedSchema,
  Order: OrderViewSchema,
  OrderList: OrderListSchema,
  OrderHistory: OrderHistorySchema,
  PalletContents: PalletContentsSchema,
  LoadPlan: LoadPlanSchema,
  OrderLookupError: OrderLookupErrorSchema,
  ValidationError: ValidationErrorSchema,
  ErrorDetail: ErrorDetailSchema,
  MasterDataDocument: MasterDataDocumentSchema,
  MasterDataApplied: MasterDataAppliedSchema,
};
type SchemaName = keyof typeof SCHEMAS;

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const respond = (description: string, name: SchemaName) => ({ description, ...json(ref(name)) });

const unauthorized = respond('Missing or invalid API key (Authorization: Api-Key <key>).', 'ErrorDetail');
const orderQuery = {
  name: 'order',
  in: 'query',
  required: true,
  description: "The caller's reference or the order's service_ref. When several orders share a reference, the newest match is used.",
  schema: { type: 'string', minLength: 1 },
};
const orderLookupFailed = respond(
  'No order given, unknown order, optimization results not ready yet (try again after a couple of minutes; contact support if not ready within 10 minutes), planning failed, or (pallet contents) no service-built pallets.',
  'OrderLookupError',
);
const orderIdParameter = { name: 'id', in: 'path', required: true, description: 'The order id (id of create or list).', schema: { type: 'integer', minimum: 1 } };
const orderNotVisible = {
  '403': respond("The order exists but is outside the API key's scope.", 'ErrorDetail'),
  '404': respond('No order has this id.', 'ErrorDetail'),
};
/** Operational endpoints: public, outside /api/v1, for load balancers and monitoring. */
const operational = (operationId: string, summary: string, responses: object) => ({ get: { operationId, summary, tags: ['operations'], security: [], responses } });

function readiness(status: string) {
  return {
    type: 'object',
    required: ['status', 'checks'],
    properties: {
      status: { const: status },
      checks: { type: 'object', additionalProperties: { type: 'string' }, description: 'Each check: "ok" or what failed.' },
    },
  };
}

export function buildOpenApiDocument(): object {
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Shipment orders API',
      version: '1.0.0',
      description:
        'Submit full-container-load and full-truck-load shipment orders, read them back, and retrieve the pallets the service built. ' +
        'Every operation except this document requires an API key: Authorization: Api-Key <key>.',
    },
    security: [{ ApiKey: [] }],
    paths: {
      '/api/v1/orders/submit-order/': {
        post: {
          operationId: 'submitOrder',
          summary: 'Submit an order',
          description:
            'Validates the order (all problems are reported at once), checks it against the lane master data and records it. ' +
            'A blank reference is refused; unknown fields are refused at every level; decimals are stored as strings with six decimals.',
          requestBody: { required: true, ...json(ref('SubmitOrderRequest')) },
          responses: {
            '201': respond('The order was recorded and will be processed shortly.', 'SubmitOrderCreated'),
            '400': respond('The body is not JSON, or the order is invalid: errors by field.', 'ValidationError'),
            '401': unauthorized,
            '413': respond('The request body is larger than 1 MiB.', 'ErrorDetail'),
          },
        },
      },
      '/api/v1/orders/detailed-orders/': {
        get: {
          operationId: 'listOrders',
          summary: 'List orders',
          description: 'Orders of the API key\'s company group, newest first. Orders outside its scope and consolidated child orders are omitted.',
          parameters: [
            { name: 'page', in: 'query', description: 'Page number.', schema: { type: 'integer', minimum: 1, default: 1 } },
            {
              name: 'page_size',
              in: 'query',
              description: `Results per page; values above ${MAX_PAGE_SIZE} are capped to ${MAX_PAGE_SIZE}.`,
              schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 },
            },
            { name: 'paginate', in: 'query', description: 'false returns a bare JSON array of orders instead of the envelope.', schema: { type: 'string', enum: ['true', 'false'], default: 'true' } },
            { name: 'search', in: 'query', description: "Filters by the order's service_ref, related shipment references, or transportation mode name.", schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'The envelope, or with paginate=false an array of the same order objects.',
              ...json({ oneOf: [ref('OrderList'), { type: 'array', items: ref('Order') }] }),
            },
            '400': respond('A query parameter is invalid.', 'ValidationError'),
            '401': unauthorized,
            '404': respond('The page is past the last page.', 'ErrorDetail'),
          },
        },
      },
      '/api/v1/orders/detailed-orders/{id}/': {
        get: {
          operationId: 'retrieveOrder',
          summary: 'Retrieve an order',
          parameters: [orderIdParameter],
          responses: { '200': respond('The order.', 'Order'), '401': unauthorized, ...orderNotVisible },
        },
      },
      '/api/v1/orders/detailed-orders/{id}/history/': {
        get: {
          operationId: 'orderHistory',
          summary: "An order's recorded events, for auditors",
          parameters: [orderIdParameter],
          responses: { '200': respond('The events of the order, oldest first.', 'OrderHistory'), '401': unauthorized, ...orderNotVisible },
        },
      },
      '/api/v1/orders/pallet-contents/': {
        get: {
          operationId: 'palletContents',
          summary: 'Retrieve the pallets built by the optimizer',
          description: 'Only for orders with order_items, after optimization (event packing_instructions.ready).',
          parameters: [orderQuery],
          responses: {
            '200': respond('One entry per service-built pallet, in optimizer order.', 'PalletContents'),
            '400': orderLookupFailed,
            '401': unauthorized,
          },
        },
      },
      '/api/v1/orders/load-plan/': {
        get: {
          operationId: 'loadPlan',
          summary: 'Retrieve the load plan',
          description:
            'Every container with its placements in loading order, centre of gravity and whether it is within the limits, every service-built pallet with its units, ' +
            'and what could not be loaded. Same order lookup as pallet contents; also for orders of only pre-built pallets and loose boxes. ' +
            'viewer_url opens the plan in 3D in a browser without an API key.',
          parameters: [orderQuery],
          responses: {
            '200': respond('The load plan, in millimetres and kilograms.', 'LoadPlan'),
            '400': orderLookupFailed,
            '401': unauthorized,
          },
        },
      },
      '/api/v1/orders/download-packing-instructions/': {
        get: {
          operationId: 'downloadPackingInstructions',
          summary: 'Download the packing instructions',
          description:
            'Same order lookup as pallet contents. A GET whose file was received sets packing_instructions_downloaded of the order; HEAD answers the headers and records nothing.',
          parameters: [orderQuery],
          responses: {
            '200': { description: 'The packing instructions as a PDF file.', content: { 'application/pdf': {} } },
            '400': orderLookupFailed,
            '401': unauthorized,
          },
        },
      },
      '/api/v1/admin/master-data/': {
        put: {
          operationId: 'applyMasterData',
          summary: 'Apply the master-data document',
          description:
            'Adds and updates company groups, API keys, lanes and items. Applied whole or not at all; the same document twice changes nothing. ' +
            'Authorised by the admin key (ORDERS_ADMIN_KEY), not by a company group key.',
          requestBody: { required: true, ...json(ref('MasterDataDocument')) },
          responses: {
            '200': respond('The document was applied.', 'MasterDataApplied'),
            '400': respond('The document is invalid or conflicts with stored master data: errors by field.', 'ValidationError'),
            '401': respond('Missing or wrong admin key, or no admin key configured.', 'ErrorDetail'),
            '413': respond('The request body is larger than 1 MiB.', 'ErrorDetail'),
          },
        },
      },
      '/plans/{service_ref}': {
        get: {
          operationId: 'viewLoadPlan',
          summary: 'The load plan in 3D, in a browser',
          description:
            'The page viewer_url of the load plan points to. No API key: the token is signed over the service_ref and its expiry (30 days by default). ' +
            'The page loads only its script and style sheet from this service, under a strict Content-Security-Policy.',
          tags: ['viewer'],
          security: [],
          parameters: [
            { name: 'service_ref', in: 'path', required: true, schema: { type: 'string' }, examples: { order: { value: 'SO-000042' } } },
            { name: 'token', in: 'query', required: true, description: 'From viewer_url.', schema: { type: 'string', pattern: '^[0-9]+\\.[A-Za-z0-9_-]{43}$' } },
          ],
          responses: {
            '200': { description: 'The viewer page.', content: { 'text/html': {} } },
            '403': { description: 'The token is missing, altered, for another order or expired; the page shows nothing of the order.', content: { 'text/html': {} } },
            '404': { description: 'The order has no load plan (yet, or its planning failed).', content: { 'text/html': {} } },
          },
        },
      },
      '/api/v1/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This OpenAPI document',
          security: [],
          responses: { '200': { description: 'The OpenAPI 3.1 document.', ...json({ type: 'object' }) } },
        },
      },
      '/healthz': operational('health', 'The process answers', {
        '200': { description: 'Alive.', ...json({ type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] }) },
      }),
      '/readyz': operational('readiness', 'The backends answer and the read models are caught up', {
        '200': { description: 'Ready for traffic.', ...json(readiness('ready')) },
        '503': { description: 'Not ready; checks names each failing check.', ...json(readiness('not ready')) },
      }),
      '/metrics': operational('metrics', 'Prometheus metrics', {
        '200': { description: 'Prometheus text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } },
      }),
    },
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Api-Key <key>' },
      },
    },
  };
  // A plain JSON copy: callers may serialize or change it without touching the live schemas.
  return JSON.parse(JSON.stringify(document)) as object;
}
