// PUT /api/v1/admin/master-data/: the bootstrap document at run time, for the operator holding
// ORDERS_ADMIN_KEY. The app hands in the guard that checks that key before the body is read.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { readJsonObject } from '../validation/json-body.js';
import type { MasterDataService } from './master-data-service.js';
import { validateMasterDataDocument } from './validate-master-data.js';
import { MasterDataAppliedSchema, MasterDataDocumentSchema } from './master-data-schema.js';
import { bodyTooLarge, json, ref, respond, TAGS, type ApiDescription } from '../api-docs/openapi-parts.js';

const MASTER_DATA = '/api/v1/admin/master-data/';

export function masterDataRoutes(router: Router, masterData: MasterDataService, requireAdmin: Middleware): void {
  router.put(MASTER_DATA, requireAdmin, async (ctx) => {
    const validated = validateMasterDataDocument(await readJsonObject(ctx));
    if (!validated.ok) {
      ctx.status = 400;
      ctx.body = validated.errors;
      return;
    }
    const result = await masterData.apply(validated.value);
    if (!result.ok) {
      ctx.status = 400;
      ctx.body = result.errors;
      return;
    }
    ctx.body = { applied: true, changes: result.changes };
  });
}

export const masterDataApi: ApiDescription = {
  paths: {
    [MASTER_DATA]: {
      put: {
        operationId: 'applyMasterData',
        tags: [TAGS.masterData],
        summary: 'Apply the master-data document',
        description:
          'Adds and updates company groups, API keys, lanes and items. Applied whole or not at all; the same document twice changes nothing. ' +
          'Authorised by the admin key (ORDERS_ADMIN_KEY), not by a company group key.',
        requestBody: { required: true, ...json(ref('MasterDataDocument')) },
        responses: {
          '200': respond('The document was applied.', 'MasterDataApplied'),
          '400': respond('The document is invalid or conflicts with stored master data: errors by field.', 'ValidationError'),
          '401': respond('Missing or wrong admin key, or no admin key configured.', 'ErrorDetail'),
          '413': bodyTooLarge,
          '415': respond('The body was not sent as application/json.', 'ErrorDetail'),
        },
      },
    },
  },
  schemas: { MasterDataDocument: MasterDataDocumentSchema, MasterDataApplied: MasterDataAppliedSchema },
};
