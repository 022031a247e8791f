// /healthz: the process answers. /readyz: the backends answer and the read models are caught up
// with the log within a bound, so a load balancer only sends traffic that will read its own writes.
// /metrics: Prometheus text format.
import type Router from '@koa/router';
import type { Metrics } from '../observability/metrics.js';
import { json, TAGS, type ApiDescription } from '../api-docs/openapi-parts.js';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** What /readyz also shows without it deciding readiness: by name, the last finding of a background check (the read-model scrubber). */
export type Findings = () => Record<string, string>;

export function healthRoutes(
  router: Router,
  checks: readonly ReadinessCheck[],
  metrics: Metrics,
  stopping: () => boolean,
  findings: Findings = () => ({}),
): void {
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
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, (error as Error).message] as const;
        }
      }),
    );
    const ready = results.every(([, result]) => result === 'ok');
    ctx.status = ready ? 200 : 503;
    const found = findings();
    ctx.body = {
      status: ready ? 'ready' : 'not ready',
      checks: Object.fromEntries(results),
      ...(Object.keys(found).length > 0 ? { findings: found } : {}),
    };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
}

/** Operational endpoints: public, outside /api/v1, for load balancers and monitoring. */
const operational = (operationId: string, summary: string, responses: object) => ({
  get: { operationId, summary, tags: [TAGS.operations], security: [], responses },
});

function readiness(status: string) {
  return {
    type: 'object',
    required: ['status', 'checks'],
    properties: {
      status: { const: status },
      checks: { type: 'object', additionalProperties: { type: 'string' }, description: 'Each check: "ok" or what failed.' },
      findings: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description:
          'What background checks found last, by name (read_model_scrub: the read-model scrubber; log_chain: the hash chain of the log, verified once per scrubber pass, which does decide readiness when broken).',
      },
    },
  };
}

export const healthApi: ApiDescription = {
  paths: {
    '/healthz': operational('health', 'The process answers', {
      '200': { description: 'Alive.', ...json({ type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] }) },
    }),
    '/readyz': operational('readiness', 'The backends answer and the read models are caught up', {
      '200': { description: 'Ready for traffic.', ...json(readiness('ready')) },
      '503': { description: 'Not ready; checks names each failing check.', ...json(readiness('not ready')) },
    }),
    '/metrics': operational('metrics', 'Prometheus metrics', {
      '200': { description: 'Prometheus text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } },
    }),
  },
  schemas: {},
};
