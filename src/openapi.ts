// The OpenAPI 3.1 document served at GET /api/v1/openapi.json: the path items each feature exports
// beside its routes, joined. Their schemas are the typebox schemas the service validates requests
// with and types its responses by; OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what
// typebox emits, so they are used as they are.
import type { ApiDescription } from './api-docs/openapi-parts.js';
import { json } from './api-docs/openapi-parts.js';
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
        security: [],
        responses: { '200': { description: 'The OpenAPI 3.1 document.', ...json({ type: 'object' }) } },
      },
    },
    [ASYNCAPI_PATH]: {
      get: {
        operationId: 'asyncApiDocument',
        summary: 'The AsyncAPI document of the Kafka messages',
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

export function buildOpenApiDocument(): object {
  const parts = [...FEATURES, thisDocument];
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Shipment orders API',
      version: '1.0.0',
      description:
        'Submit full-container-load and full-truck-load shipment orders, read them back, and retrieve the pallets the service built. ' +
        'Every operation except this document, the AsyncAPI document and the audit public key requires an API key: Authorization: Api-Key <key>. ' +
        `The packing_instructions.ready event is POSTed to webhooks (the webhooks of this document) and published to Kafka (AsyncAPI document at ${ASYNCAPI_PATH}).`,
    },
    security: [{ ApiKey: [] }],
    paths: pathItemsOf(parts),
    webhooks: Object.assign({}, ...parts.map((part) => part.webhooks ?? {})) as Record<string, object>,
    components: {
      schemas: Object.assign({}, ...parts.map((part) => part.schemas)) as Record<string, object>,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Api-Key <key>' },
      },
    },
  };
  // A plain JSON copy: callers may serialize or change it without touching the live schemas.
  return JSON.parse(JSON.stringify(document)) as object;
}
