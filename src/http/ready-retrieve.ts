// A retrieve answered before Koa, when everything it needs is already at hand and checked:
// - the path is retrieve's, spelled as the API documents it (`/api/v1/orders/detailed-orders/<id>/`,
//   no query string), and the method GET;
// - the request has one Authorization header, and it proved its key on this same connection before
//   (auth.ts remembers that; the key is still issued);
// - the read model vouches for the order's view synchronously (its cache, or its row read and checked
//   in this turn's read transaction) and the view belongs to that key's company group;
// - the service is not shutting down and its read models are not being rebuilt.
// Anything else goes to Koa, which answers by the same rules (a first request on a connection, an
// order the read model cannot vouch for, another group's order, as_of, HEAD, any other spelling of the
// path, a 401, 403 or 404). The answer is Koa's byte for byte but for the Date and the new request id, with the same
// access line and metrics (request-logging.ts); test/api/ready-retrieve.test.ts holds the two to it.
// Why: Koa's context, middleware chain and response handling cost a retrieve more than the rest of
// its work (docs/benchmarks.md).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { MasterData } from '../master-data/master-data.js';
import type { OrderReads } from '../orders/read-model/order-read-model.js';
import { RETRIEVE } from '../orders/api/routes.js';
import { ORDER_ID } from '../orders/api/order-in-scope.js';
import { revisionOfViewJson } from '../orders/order-view.js';
import { authorizationHeaderCount, keyProvenOnConnection } from './auth.js';
import { requestIdFor, type AnsweredRequest } from './request-logging.js';

export interface ReadyRetrieveDependencies {
  orders: Pick<OrderReads, 'readyViewJson'>;
  masterData: () => MasterData;
  answered: AnsweredRequest;
  stopping: () => boolean;
  readModelsAvailable: () => boolean;
}

// The route around its id: the URL must be exactly these with an id between.
const [PREFIX, SUFFIX] = RETRIEVE.split(':id') as [string, string];

/** The id when the URL is retrieve's canonical spelling; undefined for anything else. */
export function canonicalRetrieveId(url: string | undefined): number | undefined {
  if (url === undefined || !url.startsWith(PREFIX) || !url.endsWith(SUFFIX)) return undefined;
  const id = url.slice(PREFIX.length, url.length - SUFFIX.length);
  return ORDER_ID.test(id) ? Number(id) : undefined;
}

export function withReadyRetrieves(koa: RequestListener, deps: ReadyRetrieveDependencies): RequestListener {
  const ready = (request: IncomingMessage): string | undefined => {
    if (request.method !== 'GET' || deps.stopping() || !deps.readModelsAvailable()) return undefined;
    const id = canonicalRetrieveId(request.url);
    if (id === undefined) return undefined;
    const authorization = request.headers.authorization;
    if (authorization === undefined || authorizationHeaderCount(request.rawHeaders) !== 1) return undefined;
    const key = keyProvenOnConnection(request.socket, authorization, deps.masterData());
    if (key === undefined) return undefined;
    const view = deps.orders.readyViewJson(id);
    return view !== undefined && view.company_group === key.company_group ? view.viewJson : undefined;
  };

  return (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const viewJson = ready(request);
    if (viewJson === undefined) return koa(request, response);
    const header = request.headers['x-request-id'];
    const requestId = requestIdFor(typeof header === 'string' ? header : undefined);
    // Koa's headers, in Koa's order.
    const revision = revisionOfViewJson(viewJson);
    const etag = revision === undefined ? [] : ['ETag', `"${revision}"`];
    response.writeHead(200, [
      'X-Request-Id',
      requestId,
      'Content-Type',
      'application/json; charset=utf-8',
      ...etag,
      'Content-Length',
      String(Buffer.byteLength(viewJson)),
    ]);
    response.end(viewJson);
    deps.answered(requestId, 'GET', RETRIEVE, request.url!, 200, performance.now() - started);
  };
}
