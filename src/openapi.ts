// The OpenAPI 3.1 document served at GET /api/v1/openapi.json: the path items each feature exports
// beside its routes, joined. Their schemas are the typebox schemas the service validates requests
// with and types its responses by; OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what
// typebox emits, so they are used as they are.
import type { ApiDescription } from './api-docs/openapi-parts.js';
import { json, nameTitledSchemas, TAGS } from './api-docs/openapi-parts.js';
import { healthApi } from './http/health-routes.js';
import { masterDataApi } from './master-data/routes.js';
import { orderApi } from './orders/api/routes.js';
import { packingInstructionsApi } from './packing-instructions/routes.js';
import { loadPlanApi } from './load-plan/routes.js';
import { viewerApi } from './viewer/viewer-routes.js';
import { webhookApi } from './notifications/webhook-api.js';
import { auditApi } from './audit/audit-routes.js';
import { historyExportApi } from './orders/api/history-export.js';
import { orderChangesApi } from './orders/api/order-changes.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';
/** The AsyncAPI document of the Kafka messages (src/notifications/asyncapi-document.ts), served beside this one. */
export const ASYNCAPI_PATH = '/api/v1/asyncapi.json';

const FEATURES: readonly ApiDescription[] = [
  orderApi,
  orderChangesApi,
  historyExportApi,
  auditApi,
  packingInstructionsApi,
  loadPlanApi,
  masterDataApi,
  healthApi,
  viewerApi,
  webhookApi,
];

const thisDocument: ApiDescription = {
  paths: {
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openApiDocument',
        summary: 'This OpenAPI document',
        tags: [TAGS.documents],
        security: [],
        responses: { '200': { description: 'The OpenAPI 3.1 document.', ...json({ type: 'object' }) } },
      },
    },
    [ASYNCAPI_PATH]: {
      get: {
        operationId: 'asyncApiDocument',
        summary: 'The AsyncAPI document of the Kafka messages',
        tags: [TAGS.documents],
        description:
          'AsyncAPI 3.0: the packing_instructions.ready topic as this deployment is configured, its key, headers, value and delivery guarantee.',
        security: [],
        responses: { '200': { description: 'The AsyncAPI 3.0 document.', ...json({ type: 'object' }) } },
      },
    },
  },
  schemas: {},
};

/** The features' path items, the operations of one path from several features (retrieve's GET, amend's PUT) in one item. */
function pathItemsOf(parts: readonly ApiDescription[]): Record<string, object> {
  const paths: Record<string, object> = {};
  for (const part of parts) for (const [path, item] of Object.entries(part.paths)) paths[path] = { ...paths[path], ...item };
  return paths;
}

const TAG_DESCRIPTIONS: Record<(typeof TAGS)[keyof typeof TAGS], string> = {
  orders: 'Submit orders, read them back, and retrieve what the planner made of them: pallet contents, load plan, packing instructions.',
  audit: 'For auditors: signed digests of the log, its public key, and an order history export that can be checked offline.',
  'master-data': 'Lanes, items, pallet types and API keys; authorised by the admin key.',
  documents: 'This OpenAPI document and the AsyncAPI document of the Kafka messages.',
  operations: 'Health, readiness and metrics, for load balancers and monitoring.',
  viewer: 'The 3D load-plan viewer page a share link opens in a browser.',
};

// The webhook (packing_instructions.ready) is written as a path item under components.pathItems, and
// `webhooks` refers to it. Readers of the document and its validators see it as any OpenAPI 3.1 webhook;
// client generators (openapi-generator 7.x) do not follow that reference, so they make no client method for
// a request that only the service sends (docs/openapi.md).
export function buildOpenApiDocument(): object {
  const parts = [...FEATURES, thisDocument];
  const webhooks = Object.assign({}, ...parts.map((part) => part.webhooks ?? {})) as Record<string, object>;
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Shipment orders API',
      version: '1.0.0',
      description:
        'Submit full-container-load and full-truck-load shipment orders, read them back, and retrieve the pallets the service built. ' +
        'Every operation except this document, the AsyncAPI document and the audit public key requires an API key: Authorization: Api-Key <key>. ' +
        'The packing_instructions.ready and order.cancelled events are POSTed to webhooks (the webhooks of this document: the event body, signed with the webhook-id, webhook-timestamp and webhook-signature headers) ' +
        `and published to Kafka (AsyncAPI document at ${ASYNCAPI_PATH}).`,
      // No licence has been chosen for the API or this code; its use is governed by the agreement with the operator.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The service: all paths are relative to its base URL (spec: {base_url}).',
        variables: {
          base_url: {
            default: 'http://127.0.0.1:8000',
            description: 'Scheme, host and port of the service; npm start listens on this one.',
          },
        },
      },
    ],
    security: [{ ApiKey: [] }],
    tags: Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
    paths: pathItemsOf(parts),
    webhooks: Object.fromEntries(Object.keys(webhooks).map((name) => [name, { $ref: `#/components/pathItems/${name}` }])),
    components: {
      schemas: Object.assign({}, ...parts.map((part) => part.schemas)) as Record<string, object>,
      pathItems: webhooks,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Api-Key <key>' },
      },
    },
  };
  // A plain JSON copy: callers may serialize or change it without touching the live schemas.
  return nameTitledSchemas(JSON.parse(JSON.stringify(document)) as typeof document);
}
