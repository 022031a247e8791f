// Per request: an id (the caller's X-Request-Id when it is sane, else a new one) echoed back and
// put on every log line of the request (ctx.state.requestId), one access log line, and the HTTP
// metrics. The Koa middleware and the retrieve answered before Koa (ready-retrieve.ts) share them.
import { randomBytes } from 'node:crypto';
import type { Context, Next } from 'koa';
import { infoLineWriter, type Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;
// A new id is this process's random 48-bit prefix and a sequence number: unique across instances and
// restarts in practice, and cheaper than a UUID per request (docs/benchmarks.md).
const INSTANCE = randomBytes(6).toString('hex');
let sequence = 0;

/** The request's id: the caller's X-Request-Id when it is sane, else a new one. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : `${INSTANCE}-${++sequence}`;
}

// Route patterns are few and fixed: each is escaped for the log line once.
const routeJson = new Map<string, string>();
function jsonOfRoute(route: string): string {
  let json = routeJson.get(route);
  if (json === undefined) routeJson.set(route, (json = JSON.stringify(route)));
  return json;
}

/** Records one answered request: its access line and the HTTP latency histogram. */
export type AnsweredRequest = (requestId: string, method: string, route: string, path: string, status: number, ms: number) => void;

export function answeredRequests(logger: Logger, metrics: Metrics): AnsweredRequest {
  const writeLine = infoLineWriter(logger);
  return (requestId, method, route, path, status, ms) => {
    metrics.httpDuration.observe(method, route, status, ms / 1000);
    // One line with the id as a field: a child logger per request cost more than the line itself.
    // The id is sane or our own and the method a token, so only the route and path need escaping.
    writeLine(
      `"request_id":"${requestId}","method":"${method}","route":${jsonOfRoute(route)},"path":${JSON.stringify(path)},"status":${status},"ms":${Math.round(ms * 10) / 10}`,
      'request',
    );
  };
}

export function requestLogging(answered: AnsweredRequest) {
  return async function logRequest(ctx: Context, next: Next) {
    // A double, not hrtime.bigint(): no BigInt allocated twice per request, and microseconds are enough.
    const started = performance.now();
    const requestId = requestIdFor(ctx.get('x-request-id'));
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    try {
      await next();
    } finally {
      // The matched route pattern, not the path: ids and references would make unbounded label sets.
      const route = String((ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched');
      answered(requestId, ctx.method, route, ctx.path, ctx.status, performance.now() - started);
    }
  };
}
