// The Koa application: error shapes, authentication and the routes of every concern.
import Koa from 'koa';
import Router from '@koa/router';
import type { MasterDataService } from '../master-data/master-data-service.js';
import { masterDataRoutes } from '../master-data/routes.js';
import { orderRoutes, type OrderRoutesDependencies } from '../orders/routes.js';
import { packingInstructionsRoutes, type PackingInstructionsDependencies } from '../orders/packing-instructions-routes.js';
import { requireApiKey } from './auth.js';
import { BodyRejected } from './json-body.js';
import { buildOpenApiDocument } from './openapi.js';
import { healthRoutes, type ReadinessCheck } from './health-routes.js';
import { requestLogging } from './request-logging.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';

export interface AppDependencies extends OrderRoutesDependencies, PackingInstructionsDependencies {
  masterDataService: MasterDataService;
  adminKey: string | undefined;
  logger: Logger;
  metrics: Metrics;
  readiness: readonly ReadinessCheck[];
}

export function createApp(deps: AppDependencies): Koa {
  const app = new Koa();
  app.use(requestLogging(deps.logger, deps.metrics));

  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { detail: 'Not found.' };
      } else if (ctx.status === 405 && ctx.body === undefined) {
        ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
      }
    } catch (error) {
      if (error instanceof BodyRejected) {
        ctx.status = error.status;
        ctx.body = error.body;
        return;
      }
      deps.logger.error({ request_id: ctx.state.requestId, err: error }, `${ctx.method} ${ctx.path} failed`);
      ctx.status = 500;
      ctx.body = { detail: 'Internal server error.' };
    }
  });

  // One router for every concern: each router a request passes through matches the path again.
  const router = new Router();
  healthRoutes(router, deps.readiness, deps.metrics);
  const openApi = JSON.stringify(buildOpenApiDocument());
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });
  masterDataRoutes(router, deps.masterDataService, deps.adminKey);
  orderRoutes(router, deps);
  packingInstructionsRoutes(router, deps);

  // Before routing, so that any path under /api/v1/orders/ asks for a key first, even one that does not exist.
  const authenticate = requireApiKey(() => deps.masterDataService.current);
  app.use((ctx, next) => (ctx.path.startsWith('/api/v1/orders/') ? authenticate(ctx, next) : next()));
  app.use(router.routes()).use(router.allowedMethods());

  return app;
}
