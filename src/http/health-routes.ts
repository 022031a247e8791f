// /healthz: the process answers. /readyz: the backends answer and the read models are caught up
// with the log within a bound, so a load balancer only sends traffic that will read its own writes.
// /metrics: Prometheus text format.
import type Router from '@koa/router';
import type { Metrics } from '../observability/metrics.js';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export function healthRoutes(router: Router, checks: readonly ReadinessCheck[], metrics: Metrics, stopping: () => boolean): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    // At once, without running the checks: the balancer must stop sending before the drain ends.
    if (stopping()) {
      ctx.status = 503;
      ctx.body = { status: 'stopping', checks: { shutdown: 'the service is shutting down' } };
      return;
    }
    const results = await Promise.all(checks.map(async ({ name, check }) => {
      try {
        await check();
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, (error as Error).message] as const;
      }
    }));
    const ready = results.every(([, result]) => result === 'ok');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
}
