// Order API routes (spec 4.1-4.3) and their OpenAPI path items: a path, a parameter and its default
// are written once, here.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { readJsonObject } from '../../validation/json-body.js';
import type { OrderListQuery, OrderReads } from '../read-model/order-read-model.js';
import { canMatch } from '../read-model/search-text.js';
import { submitOrder, type SubmitOrderDependencies } from '../submit-order-handler.js';
import { validateSubmitOrder } from '../validate-submit-order.js';
import { ALIASES } from '../submit-order-schema.js';
import type { FieldErrors } from '../../validation/field-errors.js';
import {
  bodyTooLarge,
  json,
  openApiPath,
  ref,
  refusals,
  respond,
  unauthorized,
  TAGS,
  type ApiDescription,
} from '../../api-docs/openapi-parts.js';
import { SubmitOrderRequest } from '../submit-order-schema.js';
import { retrieve } from './retrieve.js';
import { ORDER_STATUSES, type OrderStatus } from '../order-view.js';
import { caller, orderInScope } from './order-in-scope.js';
import {
  ErrorDetailSchema,
  OrderHistorySchema,
  OrderListSchema,
  OrderViewSchema,
  SubmitOrderCreatedSchema,
  ValidationErrorSchema,
} from '../order-view-schema.js';

export const MAX_PAGE_SIZE = 100;
/** 100 million orders at the largest page size; past it a page number is a mistake, not a page. */
export const MAX_PAGE = 1_000_000;
const DEFAULT_PAGE_SIZE = 10;
/** Statuses in a list's status filter: repeats allowed (they change nothing), up to this many, as the OpenAPI document states. */
const MAX_STATUSES = 16;

const SUBMIT = '/api/v1/orders/submit-order/';
const LIST = '/api/v1/orders/detailed-orders/';
export const RETRIEVE = '/api/v1/orders/detailed-orders/:id/';
const HISTORY = '/api/v1/orders/detailed-orders/:id/history/';

export interface OrderRoutesDependencies extends SubmitOrderDependencies {
  orders: OrderReads;
}

export function orderRoutes(router: Router, deps: OrderRoutesDependencies): void {
  router.post(SUBMIT, async (ctx) => {
    const body = await readJsonObject(ctx);
    const validated = validateSubmitOrder(body);
    if (!validated.ok) return badRequest(ctx, validated.errors);
    const result = await submitOrder(deps, caller(ctx).companyGroup, validated.value);
    if (!result.ok) return badRequest(ctx, underNamesSent(result.errors, body));
    if (result.retry) {
      ctx.status = 200;
      ctx.body = {
        message: 'This order was already created with this reference and the same content; nothing new was recorded',
        order_id: result.order_id,
        service_ref: result.service_ref,
      };
      return;
    }
    ctx.status = 201;
    ctx.body = {
      message: 'Order has been created and will be processed shortly',
      order_id: result.order_id,
      service_ref: result.service_ref,
    };
  });

  router.get(LIST, (ctx) => listOrders(ctx, deps.orders));

  router.get(RETRIEVE, (ctx) => retrieve(ctx, deps));

  // For auditors: the order's events as recorded, oldest first.
  router.get(HISTORY, async (ctx) => {
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

export const orderIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The order id (id of create or list).',
  schema: { type: 'integer', minimum: 1 },
};
export const orderNotVisible = {
  '403': respond("The order exists but is outside the API key's scope.", 'ErrorDetail'),
  '404': respond('No order has this id.', 'ErrorDetail'),
};

// Where a submitted order can be read next: schemathesis's stateful runs follow these too.
const orderLinks = {
  retrieveOrder: { operationId: 'retrieveOrder', parameters: { id: '$response.body#/order_id' } },
  cancelOrder: { operationId: 'cancelOrder', parameters: { id: '$response.body#/order_id' } },
  // No ETag in a submit's answer (the planner moves the revision at once): If-Match * amends whatever the order holds.
  amendOrder: { operationId: 'amendOrder', parameters: { id: '$response.body#/order_id', 'header.If-Match': '*' } },
  orderHistory: { operationId: 'orderHistory', parameters: { id: '$response.body#/order_id' } },
  orderHistoryExport: { operationId: 'orderHistoryExport', parameters: { id: '$response.body#/order_id' } },
  loadPlan: { operationId: 'loadPlan', parameters: { order: '$response.body#/service_ref' } },
  palletContents: { operationId: 'palletContents', parameters: { order: '$response.body#/service_ref' } },
  downloadPackingInstructions: { operationId: 'downloadPackingInstructions', parameters: { order: '$response.body#/service_ref' } },
};

export const orderApi: ApiDescription = {
  paths: {
    [SUBMIT]: {
      post: {
        operationId: 'submitOrder',
        tags: [TAGS.orders],
        summary: 'Submit an order',
        description:
          'Validates the order (all problems are reported at once), checks it against the lane master data and records it. ' +
          'A blank reference is refused; unknown fields are refused at every level; decimals are stored as strings with six decimals. ' +
          'Safe to retry: sending an order whose reference is already used, with the same content, records nothing and answers 200 with the stored ' +
          "order's order_id and service_ref; with different content it is a 400 under reference. The body must be sent as application/json (415 otherwise). " +
          'Limits: at most 1000 rows in each of order_items, pre_builts and loose_boxes, count and container count bounded, 20000 units to plan in all; text fields have maximum lengths; nesting is at most 8 levels; text must be well-formed Unicode (lone surrogates are refused).',
        requestBody: { required: true, ...json(ref('SubmitOrderRequest')) },
        responses: {
          '200': {
            ...respond(
              'A retry: this order (same reference, same content) was already recorded; nothing new was recorded, and these are its ids.',
              'SubmitOrderCreated',
            ),
            links: orderLinks,
          },
          '201': { ...respond('The order was recorded and will be processed shortly.', 'SubmitOrderCreated'), links: orderLinks },
          '400': refusals(
            'The body is not JSON, or the order is invalid: errors by field. Besides what the schema says, these are refused (the schema cannot say them): ' +
              "supplier_name and consignee_name that no lane of the key's company group connects; a transportation_mode the lane does not accept; " +
              "an order_items SKU not in the lane's item master; a container code the lane does not enable, or listed twice; no non-empty cargo list; " +
              'more than 20000 units to plan; a reference already used by an order with other content.',
            'ValidationError',
            {
              unknownLane: {
                summary: 'No lane connects the names sent',
                value: {
                  supplier_name: ['No lane of your company group has the supplier "Acme Supplier" (names match exactly, case-sensitive).'],
                },
              },
              unknownSku: {
                summary: "A SKU not in the lane's item master",
                value: { order_items: [{}, { item: ['SKU SKU-9 is not in the item master of lane 101.'] }] },
              },
              modeNotOnLane: {
                summary: 'The lane does not accept the mode',
                value: { transportation_mode: ['Lane 102 does not accept OceanFCL; it accepts TruckFTL.'] },
              },
              containerTwice: {
                summary: 'A container code listed twice',
                value: {
                  order_containers: [
                    {},
                    { code: ['Container code "40ft" is listed more than once; list each code once, with its count.'] },
                  ],
                },
              },
              noCargo: {
                summary: 'No non-empty cargo list',
                value: {
                  non_field_errors: [
                    'Send at least one non-empty list of cargo: order_items (or shipment_skus), pre_builts (or pallets) or loose_boxes (or boxes).',
                  ],
                },
              },
              referenceTaken: {
                summary: 'The reference is taken by an order with other content',
                value: { reference: ['An order with this reference already exists.'] },
              },
            },
          ),
          '401': unauthorized,
          '413': bodyTooLarge,
          '415': respond('The body was not sent as application/json.', 'ErrorDetail'),
        },
      },
    },
    [LIST]: {
      get: {
        operationId: 'listOrders',
        tags: [TAGS.orders],
        summary: 'List orders',
        description:
          "Orders of the API key's company group, newest first. Orders outside its scope and consolidated child orders are omitted.",
        parameters: [
          {
            name: 'page',
            in: 'query',
            description: `Page number, at most ${MAX_PAGE}.`,
            schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
          },
          {
            name: 'page_size',
            in: 'query',
            // No `maximum`: a larger value is not refused but capped, and a schema's maximum would say it is refused.
            description: `Results per page, at least 1; a value above ${MAX_PAGE_SIZE} is accepted and capped to ${MAX_PAGE_SIZE} (the page then has a \`next\` link).`,
            schema: { type: 'integer', minimum: 1, default: DEFAULT_PAGE_SIZE },
          },
          {
            name: 'paginate',
            in: 'query',
            description: 'false returns a bare JSON array of orders instead of the envelope.',
            schema: { type: 'string', enum: ['true', 'false'], default: 'true' },
          },
          {
            name: 'search',
            in: 'query',
            description: "Filters by the order's service_ref, related shipment references, or transportation mode name.",
            schema: { type: 'string' },
          },
          {
            name: 'status',
            in: 'query',
            description: `Only orders in these statuses, comma-separated (status=submitted,planned,planning_failed leaves cancelled orders out). Left out: every status, cancelled orders included (a cancelled order stays in the list: it happened).`,
            style: 'form',
            explode: false,
            schema: { type: 'array', minItems: 1, maxItems: MAX_STATUSES, items: { type: 'string', enum: [...ORDER_STATUSES] } },
          },
        ],
        responses: {
          '200': {
            description: 'The envelope, or with paginate=false an array of the same order objects.',
            ...json({ oneOf: [ref('OrderList'), { type: 'array', items: ref('Order') }] }),
          },
          '400': respond('A query parameter is invalid.', 'ValidationError'),
          '401': unauthorized,
          '404': respond('The page is past the last page.', 'ErrorDetail'),
        },
      },
    },
    [openApiPath(RETRIEVE)]: {
      get: {
        operationId: 'retrieveOrder',
        tags: [TAGS.orders],
        summary: 'Retrieve an order, now or as it stood at a past moment',
        parameters: [
          orderIdParameter,
          {
            name: 'as_of',
            in: 'query',
            description:
              'For auditors: the order as retrieve would have answered at this moment (fields, status, packing_instructions_downloaded, updated_at), folded from its events recorded up to then ' +
              'by the projection the read model uses. ISO 8601 date and time with its time zone (Z or ±hh:mm), to the millisecond; not in the future.',
            schema: { type: 'string', format: 'date-time' },
            example: '2026-11-25T14:30:00Z',
          },
        ],
        responses: {
          '200': {
            description: 'The order (as of the moment asked for).',
            headers: {
              ETag: {
                description: 'The order\'s revision, quoted ("3"), for If-Match on amend and cancel; not sent with as_of.',
                schema: { type: 'string' },
              },
            },
            ...json(ref('Order')),
            // From an order as read, with its revision: an amend or cancel that says which it saw.
            links: {
              amendOrder: {
                operationId: 'amendOrder',
                parameters: { id: '$response.body#/id', 'header.If-Match': '$response.header.ETag' },
              },
              cancelOrder: {
                operationId: 'cancelOrder',
                parameters: { id: '$response.body#/id', 'header.If-Match': '$response.header.ETag' },
              },
            },
          },
          '400': refusals(
            'as_of is not an ISO 8601 date and time with a time zone, or is in the future (which the schema cannot say: the answer would change later): {"as_of": [message]}.',
            'ValidationError',
            {
              future: {
                summary: 'as_of in the future',
                value: { as_of: ['2099-01-01T00:00:00.000Z is in the future; ask for a moment up to now.'] },
              },
            },
          ),
          '401': unauthorized,
          '403': orderNotVisible['403'],
          '404': respond('No order has this id, or (with as_of) it did not exist yet at that moment.', 'ErrorDetail'),
        },
      },
    },
    [openApiPath(HISTORY)]: {
      get: {
        operationId: 'orderHistory',
        tags: [TAGS.orders],
        summary: "An order's recorded events, for auditors",
        parameters: [orderIdParameter],
        responses: { '200': respond('The events of the order, oldest first.', 'OrderHistory'), '401': unauthorized, ...orderNotVisible },
      },
    },
  },
  schemas: {
    SubmitOrderRequest,
    SubmitOrderCreated: SubmitOrderCreatedSchema,
    Order: OrderViewSchema,
    OrderList: OrderListSchema,
    OrderHistory: OrderHistorySchema,
    ValidationError: ValidationErrorSchema,
    ErrorDetail: ErrorDetailSchema,
  },
};

/** List (spec 4.3): a page of the caller's group's orders, newest first, or all of them with paginate=false. */
async function listOrders(ctx: Context, orders: OrderReads): Promise<void> {
  const query = parseListQuery(ctx);
  if ('errors' in query) return badRequest(ctx, query.errors);
  const { companyGroup } = caller(ctx);
  const statuses = query.statuses ? { statuses: query.statuses } : {};
  if (!query.paginate) {
    const { results } = await listMatching(orders, { companyGroup, search: query.search, ...statuses, offset: 0 });
    ctx.body = results.map((document) => document.view);
    return;
  }
  const offset = (query.page - 1) * query.pageSize;
  const { count, results } = await listMatching(orders, {
    companyGroup,
    search: query.search,
    ...statuses,
    offset,
    limit: query.pageSize,
  });
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
}

/** The read model's list, but a search that can match nothing (search-text.ts) reads nothing. */
function listMatching(orders: OrderReads, query: OrderListQuery): ReturnType<OrderReads['list']> {
  if (query.search !== undefined && !canMatch(query.search)) return Promise.resolve({ count: 0, results: [] });
  return orders.list(query);
}

interface ListQuery {
  page: number;
  pageSize: number;
  paginate: boolean;
  search: string | undefined;
  /** undefined: every status (the default: a cancelled order stays in the list). */
  statuses: OrderStatus[] | undefined;
}

/** `?status=planned,cancelled`: each a status of ORDER_STATUSES, at least one; undefined when left out. */
function parseStatuses(raw: string | undefined, errors: Record<string, string[]>): OrderStatus[] | undefined {
  if (raw === undefined) return undefined;
  const asked = raw.split(',').map((value) => value.trim());
  const unknown = asked.filter((value) => !(ORDER_STATUSES as readonly string[]).includes(value));
  if (asked.length > MAX_STATUSES || unknown.length > 0) {
    errors.status = [`Give one or more of ${ORDER_STATUSES.join(', ')}, separated by commas.`];
    return undefined;
  }
  return [...new Set(asked)] as OrderStatus[];
}

function parseListQuery(ctx: Context): ListQuery | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const single = (name: string): string | undefined => {
    const value = ctx.query[name];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };
  const positive = (name: string, fallback: number, max: number): number => {
    const raw = single(name);
    // Left out, the default; given empty (`?page_size=`), refused like any other value that is not a
    // whole number, as the OpenAPI document's integer says (an outside checker holds the API to it).
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      errors[name] = ['Enter a whole number of at least 1.'];
      return fallback;
    }
    if (Number(raw) > max) {
      errors[name] = [`Enter a whole number of at most ${max}.`];
      return fallback;
    }
    return Number(raw);
  };
  const page = positive('page', 1, MAX_PAGE);
  // Larger pages are capped rather than refused: a client asking for 500 gets 100 and a `next` link.
  const pageSize = Math.min(positive('page_size', DEFAULT_PAGE_SIZE, Infinity), MAX_PAGE_SIZE);
  const paginateRaw = single('paginate')?.toLowerCase();
  if (paginateRaw !== undefined && paginateRaw !== 'true' && paginateRaw !== 'false')
    errors.paginate = ['Use paginate=false for a bare array, or leave it out.'];
  const search = single('search')?.trim() || undefined;
  const statuses = parseStatuses(single('status'), errors);
  if (Object.keys(errors).length > 0) return { errors };
  return { page, pageSize, paginate: paginateRaw !== 'false', search, statuses };
}

function pageUrl(ctx: Context, page: number): string {
  const url = new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`);
  if (page === 1) url.searchParams.delete('page');
  else url.searchParams.set('page', String(page));
  return url.toString();
}

/** The domain speaks of order_items; a client that sent shipment_skus reads its errors under that name. */
export function underNamesSent(errors: FieldErrors, body: Record<string, unknown>): FieldErrors {
  const renamed: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const alias = Object.entries(ALIASES).find(([name, canonical]) => canonical === field && name in body)?.[0];
    renamed[alias ?? field] = messages;
  }
  return renamed;
}

function badRequest(ctx: Context, errors: object): void {
  ctx.status = 400;
  ctx.body = errors;
}
