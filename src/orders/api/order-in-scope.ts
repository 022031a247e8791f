// Which order a request's path names, and whether its caller's company group may see it: the one answer
// (404 for none, 403 for another group's) every order route gives, the as-of and export routes included.
import type { Context } from 'koa';
import type { Caller } from '../../master-data/master-data.js';

/** The caller the API key authenticated (auth.ts puts it in the request's state). */
export function caller(ctx: Context): Caller {
  return ctx.state.caller as Caller;
}

/** An order id as a path gives it: a positive whole number without leading zeros, at most 16 digits. */
export const ORDER_ID = /^[1-9]\d{0,15}$/;

/** The path's order id, or undefined when it is not one (the order is then not found). */
export function pathOrderId(ctx: Context): number | undefined {
  return ORDER_ID.test(ctx.params.id ?? '') ? Number(ctx.params.id) : undefined;
}

/** The order of the path's id, or undefined after answering 404 (unknown) or 403 (another group's). */
export async function orderInScope<T extends { company_group: string }>(
  ctx: Context,
  read: (id: number) => Promise<T | undefined>,
): Promise<T | undefined> {
  const id = pathOrderId(ctx);
  return inScope(ctx, id === undefined ? undefined : await read(id));
}

/** The document when the caller's group may see it; else undefined after answering 404 (none) or 403. */
export function inScope<T extends { company_group: string }>(ctx: Context, document: T | undefined): T | undefined {
  if (!document) {
    ctx.status = 404;
    ctx.body = { detail: 'Not found.' };
    return undefined;
  }
  if (document.company_group !== caller(ctx).companyGroup) {
    ctx.status = 403;
    ctx.body = { detail: 'You do not have permission to access this order.' };
    return undefined;
  }
  return document;
}
