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

  const openApi = JSON.stringify(buildOpenApiDocument());
  const health = healthRoutes(deps.readiness, deps.metrics);
  app.use(health.routes()).use(health.allowedMethods());

  const publicRoutes = new Router();
  publicRoutes.get('/api/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });
  app.use(publicRoutes.routes()).use(publicRoutes.allowedMethods());

  const admin = masterDataRoutes(deps.masterDataService, deps.adminKey);
  app.use(admin.routes()).use(admin.allowedMethods());

  const orders = orderRoutes(deps);
  const authenticate = requireApiKey(() => deps.masterDataService.current);
  app.use(async (ctx, next) => (ctx.path.startsWith('/api/v1/orders/') ? authenticate(ctx, next) : next()));
  app.use(orders.routes()).use(orders.allowedMethods());
  const packingInstructions = packingInstructionsRoutes(deps);
  app.use(packingInstructions.routes()).use(packingInstructions.allowedMethods());

  return app;
}
