// The Koa application: error shapes, authentication and the routes of every concern.
import Koa from 'koa';
import Router, { type RouterContext } from '@koa/router';
import type { MasterDataService } from './master-data/master-data-service.js';
import { masterDataRoutes } from './master-data/routes.js';
import { orderRoutes, type OrderRoutesDependencies } from './orders/routes.js';
import { packingInstructionsRoutes, type PackingInstructionsDependencies } from './packing-instructions/routes.js';
import { requireAdminKey, requireApiKey } from './http/auth.js';
import { BodyRejected } from './validation/json-body.js';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi.js';
import { healthRoutes, type ReadinessCheck } from './http/health-routes.js';
import { requestLogging } from './http/request-logging.js';
import type { Logger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import { loadPlanRoutes } from './load-plan/routes.js';
import type { ShareLinks } from './viewer/share-links.js';
import { viewerRoutes } from './viewer/viewer-routes.js';

export interface AppDependencies extends OrderRoutesDependencies, PackingInstructionsDependencies {
  masterDataService: MasterDataService;
  adminKey: string | undefined;
  logger: Logger;
  metrics: Metrics;
  readiness: readonly ReadinessCheck[];
  shareLinks: ShareLinks;
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

  // Two routers, and every request passes through one of them: each router a request passes
  // through tests the path against all of its routes, which a retrieve measurably paid for (README, Benchmarks).
  const other = new Router(); // health, OpenAPI, admin and the viewer: the paths outside /api/v1/orders/
  healthRoutes(other, deps.readiness, deps.metrics);
  const openApi = JSON.stringify(buildOpenApiDocument());
  other.get(OPENAPI_PATH, (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });
  masterDataRoutes(other, deps.masterDataService, requireAdminKey(deps.adminKey));
  viewerRoutes(other, deps);
  const orders = new Router();
  orderRoutes(orders, deps);
  const viewerUrl = (serviceRef: string) => deps.shareLinks.viewerUrl(serviceRef);
  packingInstructionsRoutes(orders, { ...deps, viewerUrl });
  loadPlanRoutes(orders, { ...deps, viewerUrl });

  // It reads the routes a request matched, in whichever router: one answers 405 and OPTIONS for both.
  app.use(other.allowedMethods());
  // The key is asked for before routing, so that any path under /api/v1/orders/ needs one, even one that does not exist.
  const authenticate = requireApiKey(() => deps.masterDataService.current);
  const routeOrders = orders.routes();
  const routeOther = other.routes();
  app.use((ctx: RouterContext, next: Koa.Next) => (ctx.path.startsWith('/api/v1/orders/') ? authenticate(ctx, () => routeOrders(ctx, next)) : routeOther(ctx, next)));

  return app;
}
