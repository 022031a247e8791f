// PUT /api/v1/admin/master-data/: the bootstrap document at run time, for the operator holding
// ORDERS_ADMIN_KEY. Without an admin key configured, the admin API refuses everyone.
import type Router from '@koa/router';
import { keyMatches, presentedApiKey, refuse } from '../http/auth.js';
import { readJsonObject } from '../validation/json-body.js';
import { hashApiKey } from './apply-master-data.js';
import type { MasterDataService } from './master-data-service.js';
import { validateMasterDataDocument } from './validate-master-data.js';

export function masterDataRoutes(router: Router, masterData: MasterDataService, adminKey: string | undefined): void {
  const adminKeyHash = adminKey ? hashApiKey(adminKey) : undefined;

  router.put('/api/v1/admin/master-data/', async (ctx) => {
    const presented = presentedApiKey(ctx.get('authorization'));
    if (!adminKeyHash || presented === undefined || !keyMatches(presented, adminKeyHash)) {
      refuse(ctx, adminKeyHash ? 'Invalid or missing admin API key.' : 'The admin API is disabled: no ORDERS_ADMIN_KEY is configured.');
      return;
    }
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
