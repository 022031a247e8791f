// Order API routes (spec 4.1-4.3).
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Caller } from '../master-data/master-data.js';
import { readJsonObject } from '../validation/json-body.js';
import type { OrderReadModel } from './read-model/order-read-model.js';
import { submitOrder, type SubmitOrderDependencies } from './submit-order-handler.js';
import { validateSubmitOrder } from './validate-submit-order.js';
import { ALIASES } from './submit-order-schema.js';
import type { FieldErrors } from '../validation/field-errors.js';

export const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 10;

export interface OrderRoutesDependencies extends SubmitOrderDependencies {
  orders: OrderReadModel;
}

export function orderRoutes(router: Router, deps: OrderRoutesDependencies): void {

  router.post('/api/v1/orders/submit-order/', async (ctx) => {
    const body = await readJsonObject(ctx);
    const validated = validateSubmitOrder(body);
    if (!validated.ok) return badRequest(ctx, validated.errors);
    const result = await submitOrder(deps, caller(ctx).companyGroup, validated.value);
    if (!result.ok) return badRequest(ctx, underNamesSent(result.errors, body));
    ctx.status = 201;
    ctx.body = { message: 'Order has been created and will be processed shortly', order_id: result.order_id, service_ref: result.service_ref };
  });

  router.get('/api/v1/orders/detailed-orders/', async (ctx) => {
    const query = parseListQuery(ctx);
    if ('errors' in query) return badRequest(ctx, query.errors);
    const { companyGroup } = caller(ctx);
    if (!query.paginate) {
      const { results } = await deps.orders.list({ companyGroup, search: query.search, offset: 0 });
      ctx.body = results.map((document) => document.view);
      return;
    }
    const offset = (query.page - 1) * query.pageSize;
    const { count, results } = await deps.orders.list({ companyGroup, search: query.search, offset, limit: query.pageSize });
    const lastPage = Math.max(1, Math.ceil(count / query.pageSize));
    if (query.page > lastPage) {
      ctx.status = 404;
      ctx.body = { detail: `Invalid page: page ${query.page} is past the last page, ${lastPage}.` };
      return;
    }
    ctx.body = {
      count,
      next: query.page < lastPage ? pageUrl(ctx, query.page + 1) : null,
      previous: query.page > 1 ? pageUrl(ctx, query.page - 1) : null,
      results: results.map((document) => document.view),
    };
  });

  router.get('/api/v1/orders/detailed-orders/:id/', async (ctx) => {
    const order = await orderInScope(ctx, (id) => deps.orders.getViewJson(id));
    if (!order) return;
    // The header Koa's ctx.type would set, without its MIME lookup on every retrieve.
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = order.viewJson;
  });

  // For auditors: the order's events as recorded, oldest first.
  router.get('/api/v1/orders/detailed-orders/:id/history/', async (ctx) => {
    const order = await orderInScope(ctx, (id) => deps.orders.getById(id));
    if (!order) return;
    const events = await deps.store.readStream(order.stream);
    ctx.body = events.map((event) => ({
      event_id: event.id,
      type: event.type,
      timestamp: event.recordedAt.toISOString(),
      position: event.position.toString(),
      revision: Number(event.revision),
      data: event.data,
    }));
  });
}

/** The order of the path's id, or undefined after answering 404 (unknown) or 403 (another group's). */
async function orderInScope<T extends { company_group: string }>(ctx: Context, read: (id: number) => Promise<T | undefined>): Promise<T | undefined> {
  const id = /^[1-9]\d{0,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : undefined;
  const document = id === undefined ? undefined : await read(id);
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

interface ListQuery {
  page: number;
  pageSize: number;
  paginate: boolean;
  search: string | undefined;
}

function parseListQuery(ctx: Context): ListQuery | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const single = (name: string): string | undefined => {
    const value = ctx.query[name];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };
  const positive = (name: string, fallback: number): number => {
    const raw = single(name);
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      errors[name] = ['Enter a whole number of at least 1.'];
      return fallback;
    }
    return Number(raw);
  };
  const page = positive('page', 1);
  // Larger pages are capped rather than refused: a client asking for 500 gets 100 and a `next` link.
  const pageSize = Math.min(positive('page_size', DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  const paginateRaw = single('paginate')?.toLowerCase();
  if (paginateRaw !== undefined && paginateRaw !== 'true' && paginateRaw !== 'false') errors.paginate = ['Use paginate=false for a bare array, or leave it out.'];
  const search = single('search')?.trim() || undefined;
  if (Object.keys(errors).length > 0) return { errors };
  return { page, pageSize, paginate: paginateRaw !== 'false', search };
}

function pageUrl(ctx: Context, page: number): string {
  const url = new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`);
  if (page === 1) url.searchParams.delete('page');
  else url.searchParams.set('page', String(page));
  return url.toString();
}

/** The domain speaks of order_items; a client that sent shipment_skus reads its errors under that name. */
function underNamesSent(errors: FieldErrors, body: Record<string, unknown>): FieldErrors {
  const renamed: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const alias = Object.entries(ALIASES).find(([name, canonical]) => canonical === field && name in body)?.[0];
    renamed[alias ?? field] = messages;
  }
  return renamed;
}

function caller(ctx: Context): Caller {
  return ctx.state.caller as Caller;
}

function badRequest(ctx: Context, errors: object): void {
  ctx.status = 400;
  ctx.body = errors;
}
