// PUT /api/v1/admin/master-data/: the bootstrap document at run time, for the operator holding
// ORDERS_ADMIN_KEY. The app hands in the guard that checks that key before the body is read.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { readJsonObject } from '../validation/json-body.js';
import type { MasterDataService } from './master-data-service.js';
import { validateMasterDataDocument } from './validate-master-data.js';

export function masterDataRoutes(router: Router, masterData: MasterDataService, requireAdmin: Middleware): void {
  router.put('/api/v1/admin/master-data/', requireAdmin, async (ctx) => {
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
