// The door in front of Koa for retrieve: a request it can take without Koa is answered by retrieve's
// own code (orders/api/retrieve.ts, readyRetrieve), the one Koa's route runs too. It takes one when:
// - the path is retrieve's, spelled as the API documents it (`/api/v1/orders/detailed-orders/<id>/`,
//   no query string), and the method GET;
// - the request has one Authorization header, and it proved its key on this same connection before
//   (auth.ts remembers that; the key is still issued);
// - the service is not shutting down and its read models are not being rebuilt;
// and retrieve answers it at once (the read model vouches for the view, in that key's company group).
// Anything else goes to Koa (a first request on a connection, an order the read model cannot vouch
// for, another group's order, as_of, HEAD, any other spelling of the path, a 401, 403 or 404). Here
// are only what Koa's middleware would add: the request id, Content-Length, the access line and metrics
// (request-logging.ts); test/api/ready-retrieve.test.ts holds the two doors to the same answer.
// Why: Koa's context, middleware chain and response handling cost a retrieve more than the rest of its work.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { MasterData } from '../master-data/master-data.js';
import type { OrderReads } from '../orders/read-model/order-read-model.js';
import { RETRIEVE } from '../orders/api/routes.js';
import { ORDER_ID } from '../orders/api/order-in-scope.js';
import { readyRetrieve, type RetrieveAnswer } from '../orders/api/retrieve.js';
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
  const ready = (request: IncomingMessage): RetrieveAnswer | undefined => {
    if (request.method !== 'GET' || deps.stopping() || !deps.readModelsAvailable()) return undefined;
    const id = canonicalRetrieveId(request.url);
    if (id === undefined) return undefined;
    const authorization = request.headers.authorization;
    if (authorization === undefined || authorizationHeaderCount(request.rawHeaders) !== 1) return undefined;
    const key = keyProvenOnConnection(request.socket, authorization, deps.masterData());
    return key && readyRetrieve(deps.orders, id, key.company_group);
  };

  return (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const answer = ready(request);
    if (answer === undefined) return koa(request, response);
    const header = request.headers['x-request-id'];
    const requestId = requestIdFor(typeof header === 'string' ? header : undefined);
    // In Koa's order: its middleware's request id, the route's headers, Koa's Content-Length.
    response.writeHead(answer.status, [
      'X-Request-Id',
      requestId,
      ...answer.headers,
      'Content-Length',
      String(Buffer.byteLength(answer.body)),
    ]);
    response.end(answer.body);
    deps.answered(requestId, 'GET', RETRIEVE, request.url!, answer.status, performance.now() - started);
  };
}
