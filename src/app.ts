// The Koa application: error shapes, authentication and the routes of every concern.
import Koa from 'koa';
import Router, { type RouterContext } from '@koa/router';
import type { MasterDataService } from './master-data/master-data-service.js';
import { masterDataRoutes } from './master-data/routes.js';
import { orderRoutes, type OrderRoutesDependencies } from './orders/api/routes.js';
import { packingInstructionsRoutes, type PackingInstructionsDependencies } from './packing-instructions/routes.js';
import { refuseRepeatedAuthorization, requireAdminKey, requireApiKey } from './http/auth.js';
import { BodyRejected } from './validation/json-body.js';
import { isDamage } from './storage/damaged-storage.js';
import { StorageUnavailable } from './storage/unavailable-storage.js';
import { UnrepairableDocument } from './orders/read-model/self-repairing-read-model.js';
import { NotVisibleInTime } from './eventstore/visibility-deadline.js';
import type { EventStore } from './eventstore/event-store.js';
import type { HashedLog } from './eventstore/hashed-log.js';
import { ASYNCAPI_PATH, buildOpenApiDocument, OPENAPI_PATH } from './openapi.js';
import { buildAsyncApiDocument } from './notifications/asyncapi-document.js';
import { healthRoutes, type Findings, type ReadinessCheck } from './http/health-routes.js';
import { answeredRequests, requestLogging, type AnsweredRequest } from './http/request-logging.js';
import { withReadyRetrieves } from './http/ready-retrieve.js';
import { METHODS, type RequestListener } from 'node:http';
import type { Logger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import { loadPlanRoutes } from './load-plan/routes.js';
import type { ShareLinks } from './viewer/share-links.js';
import { viewerRoutes } from './viewer/viewer-routes.js';
import type { AuditKey } from './audit/audit-key.js';
import { auditRoutes } from './audit/audit-routes.js';
import { historyExportRoutes } from './orders/api/history-export.js';
import { orderChangeRoutes } from './orders/api/order-changes.js';

export interface AppDependencies extends OrderRoutesDependencies, PackingInstructionsDependencies {
  /** The log, and its hash chain's reads (the audit digest, the history export). */
  store: EventStore & HashedLog;
  masterDataService: MasterDataService;
  adminKey: string | undefined;
  logger: Logger;
  metrics: Metrics;
  readiness: readonly ReadinessCheck[];
  findings?: Findings;
  shareLinks: ShareLinks;
  /** Signs log digests and history exports (audit/audit-key.ts). */
  auditKey: AuditKey;
  /** False while the order read model is rebuilt from the log (reads of one order are answered from the log then): retrieves are not answered before Koa. */
  readModelsAvailable: () => boolean;
  /** A request found damaged storage: it answers 503; this decides what else (a rebuild). */
  onDamagedStorage: (error: unknown) => void;
  /** True once shutdown began: /readyz answers 503 and every answer closes its connection. */
  stopping: () => boolean;
  /** ORDERS_KAFKA_TOPIC: the AsyncAPI document names the topic this deployment publishes to. */
  kafkaTopic: string;
}

/** What the HTTP server runs: the Koa application, with retrieves it can answer at once answered before it. */
export function createRequestListener(deps: AppDependencies): RequestListener {
  const answered = answeredRequests(deps.logger, deps.metrics);
  return withReadyRetrieves(createApp(deps, answered).callback(), { ...deps, answered });
}

function createApp(deps: AppDependencies, answered: AnsweredRequest): Koa {
  const app = new Koa();
  app.use(requestLogging(answered));
  app.use((ctx, next) => {
    // A keep-alive connection would otherwise outlive the drain and be cut at its deadline.
    if (deps.stopping()) ctx.set('Connection', 'close');
    return next();
  });

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
      if (error instanceof NotVisibleInTime) {
        deps.logger.warn({ request_id: ctx.state.requestId }, error.message);
        unavailable(ctx, `${error.message}: the read models are behind the log. Try again shortly.`);
        Object.assign(ctx.body as object, error.stored);
        return;
      }
      deps.logger.error({ request_id: ctx.state.requestId, err: error }, `${ctx.method} ${ctx.path} failed`);
      if (error instanceof StorageUnavailable) {
        unavailable(ctx, `${error.store.charAt(0).toUpperCase()}${error.store.slice(1)} is not reachable. Try again shortly.`);
        return;
      }
      if (error instanceof UnrepairableDocument) {
        unavailable(ctx, `${error.message}. Try again shortly; if the event log stays unreadable, it needs an operator.`);
        return;
      }
      if (isDamage(error)) {
        deps.onDamagedStorage(error);
        unavailable(ctx, 'Stored data was found damaged; it is being rebuilt or needs an operator. Try again shortly.');
        return;
      }
      ctx.status = 500;
      ctx.body = { detail: 'Internal server error.' };
    }
  });

  app.use(refuseRepeatedAuthorization);

  // Two routers, and every request passes through one of them: each router a request passes
  // through tests the path against all of its routes, which a retrieve measurably paid for (docs/benchmarks.md).
  // Every method HTTP names counts as implemented: a path that does not serve one (TRACE, say) answers 405
  // with Allow, as HTTP asks, rather than 501, which would say the server knows no such method at all.
  const other = new Router({ methods: METHODS }); // health, OpenAPI and AsyncAPI, admin and the viewer: the paths outside /api/v1/orders/
  healthRoutes(other, deps.readiness, deps.metrics, deps.stopping, deps.findings);
  // Neither document needs a key (an integrator reads them before holding one); each is built once, at start.
  for (const [path, document] of [
    [OPENAPI_PATH, buildOpenApiDocument()],
    [ASYNCAPI_PATH, buildAsyncApiDocument(deps.kafkaTopic)],
  ] as const) {
    const body = JSON.stringify(document);
    other.get(path, (ctx) => {
      ctx.type = 'application/json';
      ctx.body = body;
    });
  }
  // The key is asked for before routing, so that any path under /api/v1/orders/ needs one, even one that does not exist.
  const authenticate = requireApiKey(() => deps.masterDataService.current);
  masterDataRoutes(other, deps.masterDataService, requireAdminKey(deps.adminKey));
  viewerRoutes(other, deps);
  auditRoutes(other, deps, authenticate);
  const orders = new Router();
  orderRoutes(orders, deps);
  orderChangeRoutes(orders, deps);
  historyExportRoutes(orders, deps);
  const viewerUrl = (serviceRef: string) => deps.shareLinks.viewerUrl(serviceRef);
  packingInstructionsRoutes(orders, { ...deps, viewerUrl });
  loadPlanRoutes(orders, { ...deps, viewerUrl });

  // It reads the routes a request matched, in whichever router: one answers 405 and OPTIONS for both.
  app.use(other.allowedMethods());
  const routeOrders = orders.routes();
  const routeOther = other.routes();
  app.use((ctx: RouterContext, next: Koa.Next) => {
    if (!ctx.path.startsWith('/api/v1/orders/')) return routeOther(ctx, next);
    return authenticate(ctx, () => routeOrders(ctx, next));
  });

  return app;
}

function unavailable(ctx: Koa.Context, detail: string): void {
  ctx.status = 503;
  ctx.set('Retry-After', '5');
  ctx.body = { detail };
}
