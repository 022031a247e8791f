// Amend (PUT on the order) and cancel (POST .../cancel/), issue 59: their use cases are
// amend-order-handler.ts and cancel-order-handler.ts; here is the HTTP around them: the key's scope as
// retrieve, the body read and validated as submit's (the same 400 bodies), If-Match against the order's
// revision (retrieve's ETag), and the answer: the order as retrieve shows it, with its new ETag.
import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  bodyTooLarge,
  json,
  openApiPath,
  ref,
  refusals,
  respond,
  TAGS,
  unauthorized,
  type ApiDescription,
} from '../../api-docs/openapi-parts.js';
import { readJsonObject } from '../../validation/json-body.js';
import type { FieldErrors } from '../../validation/field-errors.js';
import { amendOrder, type AmendOrderDependencies } from '../amend-order-handler.js';
import { cancelOrder } from '../cancel-order-handler.js';
import { STALE_REVISION } from '../order-decider.js';
import { revisionOfViewJson } from '../order-view.js';
import type { OrderReads } from '../read-model/order-read-model.js';
import { validateSubmitOrder } from '../validate-submit-order.js';
import { orderInScope } from './order-in-scope.js';
import { MAX_IF_MATCH_LENGTH, parseIfMatch, type IfMatch } from './if-match.js';
import { parseCancelBody, MAX_REASON_LENGTH } from './cancel-body.js';
import { orderIdParameter, orderNotVisible, RETRIEVE, underNamesSent } from './routes.js';

const CANCEL = '/api/v1/orders/detailed-orders/:id/cancel/';

export interface OrderChangeDependencies extends AmendOrderDependencies {
  orders: OrderReads;
}

export function orderChangeRoutes(router: Router, deps: OrderChangeDependencies): void {
  router.put(RETRIEVE, async (ctx) => {
    const found = await orderInScope(ctx, (id) => deps.orders.getById(id));
    if (!found) return;
    const ifMatch = parseIfMatch(ctx.headers['if-match']);
    if (ifMatch.kind === 'missing')
      return answer(ctx, 428, {
        detail:
          'Send If-Match with the ETag of the order as retrieve gives it (If-Match: "3"), so that an amend never overwrites a change it has not seen.',
      });
    if (!wellFormed(ctx, ifMatch)) return;
    const body = await readJsonObject(ctx);
    const validated = validateSubmitOrder(body);
    if (!validated.ok) return answer(ctx, 400, validated.errors);
    if (!canMatch(ctx, ifMatch)) return;
    const result = await amendOrder(deps, found.stream, validated.value, ifMatch.kind === 'revision' ? ifMatch.revision : 'any');
    if (!result.ok) return refused(ctx, underNamesSent(result.errors, body));
    await answerWithOrder(ctx, deps, found.view.id);
  });

  router.post(CANCEL, async (ctx) => {
    const found = await orderInScope(ctx, (id) => deps.orders.getById(id));
    if (!found) return;
    const ifMatch = parseIfMatch(ctx.headers['if-match']);
    if (!wellFormed(ctx, ifMatch)) return;
    const reason = await parseCancelBody(ctx);
    if ('errors' in reason) return answer(ctx, 400, reason.errors);
    // a cancel of a cancelled order answers as the first did, whatever If-Match says (the decider's rule too)
    if (found.view.status !== 'cancelled' && !canMatch(ctx, ifMatch)) return;
    const result = await cancelOrder(deps, found.stream, reason.reason, ifMatch.kind === 'revision' ? ifMatch.revision : undefined);
    if (!result.ok) return refused(ctx, result.errors);
    await answerWithOrder(ctx, deps, found.view.id);
  });
}

/** False after answering an If-Match that is malformed (400), before the body is read. */
function wellFormed(ctx: Context, ifMatch: IfMatch): boolean {
  if (ifMatch.kind !== 'malformed') return true;
  answer(ctx, 400, { 'If-Match': [ifMatch.message] });
  return false;
}

/** False after answering an If-Match that can match no revision (412), once the body is found valid: a bad body is a 400 first. */
function canMatch(ctx: Context, ifMatch: IfMatch): boolean {
  if (ifMatch.kind === 'never') {
    answer(ctx, 412, { detail: ifMatch.message });
    return false;
  }
  return true;
}

function refused(ctx: Context, errors: FieldErrors): void {
  const stale = errors[STALE_REVISION];
  if (Array.isArray(stale) && typeof stale[0] === 'string') return answer(ctx, 412, { detail: stale[0] });
  answer(ctx, 400, errors);
}

/** The order as retrieve shows it once the change is visible (amend-order-handler.ts), with its ETag. */
async function answerWithOrder(ctx: Context, deps: OrderChangeDependencies, id: number): Promise<void> {
  const order = await deps.orders.getViewJson(id);
  if (!order) throw new Error(`order ${id} is gone from the read model after a change`);
  const revision = revisionOfViewJson(order.viewJson);
  if (revision !== undefined) ctx.set('ETag', `"${revision}"`);
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = order.viewJson;
}

function answer(ctx: Context, status: number, body: object): void {
  ctx.status = status;
  ctx.body = body;
}

const ifMatchParameter = (required: boolean, description: string) => ({
  name: 'If-Match',
  in: 'header',
  required,
  description,
  // what an entity tag looks like (RFC 9110), or *: another value is a 400, a tag that is no revision a 412
  schema: { type: 'string', maxLength: MAX_IF_MATCH_LENGTH, pattern: '^(\\*|(W/)?"[\\x21\\x23-\\x7e]*")$', examples: ['"3"'] },
});
const changed = {
  '412': respond(
    'If-Match names a revision the order is no longer at: it changed since it was read. Nothing was changed; retrieve it again.',
    'ErrorDetail',
  ),
};
const orderChanged = (description: string) => ({
  description,
  headers: {
    ETag: { description: 'The order\'s new revision, quoted ("4"): the If-Match of the next change.', schema: { type: 'string' } },
  },
  ...json(ref('Order')),
});

export const amendOperation = {
  operationId: 'amendOrder',
  tags: [TAGS.orders],
  summary: 'Amend an order: replace its cargo, containers, notes and e-mail fields',
  description:
    "The body is a submit body, validated as submit's (the same 400 bodies). It replaces order_items, pre_builts, loose_boxes, order_containers, shipment_type, customer_notes, send_email, extra_recipients and extra_cc_recipients; " +
    "reference, supplier_name, consignee_name (the lane) and transportation_mode must be the order's own (a 400 under each field that differs: cancel and submit a new order instead). " +
    'If-Match is required (428 without it): the ETag retrieve gave; a stale one answers 412 and changes nothing. The amended order is planned again, alone: pallet contents, load plan and download answer "not ready" until its new plan is stored, ' +
    'then show it; packing_instructions.ready is announced again with a new event id. A body equal to the order as it stands records nothing and answers the order. ' +
    'A cancelled order, or a consolidated shipment the service made, is refused with 400.',
  parameters: [
    orderIdParameter,
    ifMatchParameter(true, 'The ETag of the order as retrieve gave it, such as "3". * amends whatever the order holds now.'),
  ],
  requestBody: { required: true, ...json(ref('SubmitOrderRequest')) },
  responses: {
    '200': orderChanged('The order as amended (status submitted until its new plan is stored), or as it stood when nothing changed.'),
    '400': refusals(
      "The body is invalid as a submit would be (the same bodies), or the amend is refused: reference, lane or mode differ from the order's, the lane's master data refuses it (as for a submit), the order was cancelled, or it is a consolidated shipment.",
      'ValidationError',
      {
        referenceKept: {
          summary: "The reference differs from the order's",
          value: { reference: ['An amend keeps the order\'s reference "PO-4711"; to change it, cancel this order and submit a new one.'] },
        },
        cancelled: {
          summary: 'The order was cancelled',
          value: {
            non_field_errors: [
              'Order SO-000042 was cancelled; a cancelled order cannot be amended. Submit a new order under another reference.',
            ],
          },
        },
      },
    ),
    '401': unauthorized,
    ...orderNotVisible,
    ...changed,
    '413': bodyTooLarge,
    '415': respond('The body was not sent as application/json.', 'ErrorDetail'),
    '428': respond('No If-Match was sent.', 'ErrorDetail'),
  },
};

export const orderChangesApi: ApiDescription = {
  paths: {
    [openApiPath(RETRIEVE)]: { put: amendOperation },
    [openApiPath(CANCEL)]: {
      post: {
        operationId: 'cancelOrder',
        tags: [TAGS.orders],
        summary: 'Cancel an order',
        description:
          'Calls the order off, for good: it reads status cancelled, stays in the list (filter with status), and its pallet contents, load plan and download answer 400 under order saying it was cancelled; ' +
          'its packing instructions sent or downloaded before are void, and order.cancelled is announced (webhooks, e-mail, Kafka). Cancelling a cancelled order records nothing and answers the same. ' +
          'A cancelled order in a consolidation window leaves it; one whose consolidated shipment went out dissolves it (the shipment is cancelled, its other orders planned again alone). ' +
          'If-Match is optional: when sent, a stale one answers 412 unless the order is cancelled already.',
        parameters: [orderIdParameter, ifMatchParameter(false, 'The ETag of the order as retrieve gave it; optional.')],
        requestBody: {
          required: false,
          description: 'Optional; an empty body is no reason.',
          ...json({
            type: 'object',
            additionalProperties: false,
            properties: {
              reason: {
                type: ['string', 'null'],
                maxLength: MAX_REASON_LENGTH,
                description: `Why the order is called off, at most ${MAX_REASON_LENGTH} characters; shown on the order and in the cancellation notices.`,
              },
            },
          }),
        },
        responses: {
          '200': orderChanged('The order as cancelled.'),
          '400': refusals(
            'The body is invalid, or the order is a consolidated shipment the service made (cancel the orders it ships instead).',
            'ValidationError',
            {
              tooLong: {
                summary: 'A reason too long',
                value: { reason: [`Ensure this field has no more than ${MAX_REASON_LENGTH} characters.`] },
              },
            },
          ),
          '401': unauthorized,
          ...orderNotVisible,
          ...changed,
          '413': bodyTooLarge,
          '415': respond('A body was sent, but not as application/json.', 'ErrorDetail'),
        },
      },
    },
  },
  schemas: {},
};
