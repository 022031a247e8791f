// Per request: an id (the caller's X-Request-Id when it is sane, else a new one) echoed back and
// put on every log line of the request (ctx.state.requestId), one access log line, and the HTTP metrics.
import { randomBytes } from 'node:crypto';
import type { Context, Next } from 'koa';
import { infoLineWriter, type Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;
// A new id is this process's random 48-bit prefix and a sequence number: unique across instances and
// restarts in practice, and cheaper than a UUID per request (docs/benchmarks.md).
const INSTANCE = randomBytes(6).toString('hex');
let sequence = 0;

export function requestLogging(logger: Logger, metrics: Metrics) {
  const writeLine = infoLineWriter(logger);
  return async function logRequest(ctx: Context, next: Next) {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : `${INSTANCE}-${++sequence}`;
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The matched route pattern, not the path: ids and references would make unbounded label sets.
      const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const labels = { method: ctx.method, route: String(route), status: String(ctx.status) };
      metrics.httpDuration.observe(labels, seconds);
      // One line with the id as a field: a child logger per request cost more than the line itself.
      // The id is sane or our own and the method a token, so only the route and path need escaping.
      writeLine(`"request_id":"${requestId}","method":"${ctx.method}","route":${JSON.stringify(labels.route)},"path":${JSON.stringify(ctx.path)},"status":${ctx.status},"ms":${Math.round(seconds * 1e4) / 10}`, 'request');
    }
  };
}
