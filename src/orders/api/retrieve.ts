// Retrieve (spec 4.2), one code path whatever serves the request: the answer is made here, from the
// view the read model gives, for Koa's route and for the listener in front of Koa (http/ready-retrieve.ts).
// That listener takes a request it can authenticate without Koa and asks `readyRetrieve`, which answers
// only when the read model vouches for the view at once; everything else comes to Koa's route, which
// asks the same and then waits for the read model (a repair, a read from the log while it is rebuilt).
// Why two doors: Koa's context and middleware cost a retrieve more than the rest of its work.
import type { Context } from 'koa';
import type { EventStore } from '../../eventstore/event-store.js';
import { revisionOfViewJson } from '../order-view.js';
import type { OrderReads, OrderViewJson } from '../read-model/order-read-model.js';
import { retrieveAsOf } from './order-as-of.js';
import { caller, inScope, pathOrderId } from './order-in-scope.js';

/** A retrieve answered: 200 with the view as the read model holds it, and its headers (name, value, ...) in the order sent. */
export interface RetrieveAnswer {
  status: 200;
  headers: string[];
  body: string;
}

/** The answer now, when the read model vouches for the order's view without waiting and it is the caller's group's; else undefined. */
export function readyRetrieve(orders: Pick<OrderReads, 'readyViewJson'>, id: number, companyGroup: string): RetrieveAnswer | undefined {
  const view = orders.readyViewJson(id);
  return view !== undefined && view.company_group === companyGroup ? answerWith(view) : undefined;
}

/** Koa's route: the answer ready now, else once the read model has read the order; 404 or 403 as every order route. */
export async function retrieve(ctx: Context, deps: { orders: OrderReads; store: EventStore }): Promise<void> {
  if (ctx.query.as_of !== undefined) return retrieveAsOf(ctx, deps, ctx.query.as_of);
  const id = pathOrderId(ctx);
  const ready = id === undefined ? undefined : readyRetrieve(deps.orders, id, caller(ctx).companyGroup);
  const answer = ready ?? inScopeAnswer(ctx, id === undefined ? undefined : await deps.orders.getViewJson(id));
  if (!answer) return;
  // The headers set one by one, without Koa's MIME lookup of ctx.type; Koa adds Content-Length.
  for (let i = 0; i < answer.headers.length; i += 2) ctx.set(answer.headers[i]!, answer.headers[i + 1]!);
  ctx.body = answer.body;
}

function inScopeAnswer(ctx: Context, view: OrderViewJson | undefined): RetrieveAnswer | undefined {
  const visible = inScope(ctx, view);
  return visible && answerWith(visible);
}

function answerWith({ viewJson }: OrderViewJson): RetrieveAnswer {
  const revision = revisionOfViewJson(viewJson);
  // the order's revision, what an amend's If-Match names (a view stored before revisions has none)
  const etag = revision === undefined ? [] : ['ETag', `"${revision}"`];
  return { status: 200, headers: ['Content-Type', 'application/json; charset=utf-8', ...etag], body: viewJson };
}
