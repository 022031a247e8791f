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

// Route patterns are few and fixed: each is escaped for the log line once.
const routeJson = new Map<string, string>();
function jsonOfRoute(route: string): string {
  let json = routeJson.get(route);
  if (json === undefined) routeJson.set(route, (json = JSON.stringify(route)));
  return json;
}

export function requestLogging(logger: Logger, metrics: Metrics) {
  const writeLine = infoLineWriter(logger);
  return async function logRequest(ctx: Context, next: Next) {
    // A double, not hrtime.bigint(): no BigInt allocated twice per request, and microseconds are enough.
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : `${INSTANCE}-${++sequence}`;
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      // The matched route pattern, not the path: ids and references would make unbounded label sets.
      const route = String((ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched');
      const { method, status } = ctx;
      metrics.httpDuration.observe(method, route, status, ms / 1000);
      // One line with the id as a field: a child logger per request cost more than the line itself.
      // The id is sane or our own and the method a token, so only the route and path need escaping.
      writeLine(`"request_id":"${requestId}","method":"${method}","route":${jsonOfRoute(route)},"path":${JSON.stringify(ctx.path)},"status":${status},"ms":${Math.round(ms * 10) / 10}`, 'request');
    }
  };
}
