// Pallet contents (spec 4.4) and the packing-instructions download (4.5): both look an order up by
// reference or service_ref within the caller's company group (newest match), and both answer
// 400 {"order": [...]} until the plan is ready.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { Caller } from '../master-data/master-data.js';
import type { OrderReads } from '../orders/read-model/order-read-model.js';
import type { OrderDocument } from '../../projections/order-view.js';
import type { PalletContentsDocument } from '../../projections/pallet-contents.js';
import { utcTimestamp } from '../orders/clock.js';
import { handleOrderCommand } from '../orders/handle-order-command.js';
import { readOrderStream } from '../orders/read-order-stream.js';
import { OrderLookupErrorSchema, PalletContentsSchema } from '../orders/order-view-schema.js';
import { refusals, respond, TAGS, unauthorized, type ApiDescription } from '../api-docs/openapi-parts.js';
import { NOT_BLANK } from '../validation/patterns.js';

const PALLET_CONTENTS = '/api/v1/orders/pallet-contents/';
const DOWNLOAD = '/api/v1/orders/download-packing-instructions/';

export const NOT_READY_MESSAGE =
  'The optimization results for this order are not ready yet. Please try again in a couple of minutes, and contact support if they are not ready within 10 minutes.';
/** An order called off has no pallet contents, load plan or packing instructions any more. */
export function cancelledMessage(serviceRef: string, cancelledAt: string, reason: string | null): string {
  return (
    `Order ${serviceRef} was cancelled at ${cancelledAt} UTC${reason ? ` (${reason})` : ''}: ` +
    'it has no pallet contents, load plan or packing instructions any more, and those sent or downloaded before are void.'
  );
}
export const NO_PALLETS_MESSAGE =
  'This order has no service-built pallets: it consists only of pre-built pallets and/or loose boxes, so there are no pallet contents.';

export interface PackingInstructionsDependencies {
  store: EventStore;
  orders: OrderReads;
  visible: (position: bigint) => Promise<void>;
  renderPdf: (orderStream: RecordedEvent[], options?: { viewerUrl?: string }) => Promise<Buffer>;
  /** The share link printed on the PDF; none when not given. */
  viewerUrl?: (serviceRef: string) => string;
}

export type Lookup = { document: OrderDocument; plan: PalletContentsDocument & { status: 'planned' } } | { errors: { order: string[] } };

export async function lookUpPlannedOrder(ctx: Context, orders: OrderReads): Promise<Lookup> {
  const value = typeof ctx.query.order === 'string' ? ctx.query.order.trim() : '';
  if (!value) return { errors: { order: ['This query parameter is required: give the order reference or service_ref.'] } };
  // Another group's order is looked up like an unknown one: its existence is not the caller's business.
  const document = await orders.findNewest((ctx.state.caller as Caller).companyGroup, value);
  if (!document) return { errors: { order: [`No order matches "${value}".`] } };
  const plan = await orders.palletContents(document.view.id);
  if (plan?.status === 'cancelled')
    return { errors: { order: [cancelledMessage(document.view.service_ref, plan.cancelled_at, plan.reason)] } };
  if (plan?.status === 'failed') {
    return { errors: { order: [`Planning this order failed (${plan.reason}). Please contact support.`] } };
  }
  if (plan?.status !== 'planned') return { errors: { order: [NOT_READY_MESSAGE] } };
  return { document, plan };
}

export function packingInstructionsRoutes(router: Router, deps: PackingInstructionsDependencies): void {
  router.get(PALLET_CONTENTS, async (ctx) => {
    const found = await lookUpPlannedOrder(ctx, deps.orders);
    if ('errors' in found) return badRequest(ctx, found.errors);
    if (found.plan.pallets.length === 0) return badRequest(ctx, { order: [NO_PALLETS_MESSAGE] });
    ctx.body = found.plan.pallets;
  });

  router.get(DOWNLOAD, async (ctx) => {
    const found = await lookUpPlannedOrder(ctx, deps.orders);
    if ('errors' in found) return badRequest(ctx, found.errors);
    const { view, stream } = found.document;
    ctx.status = 200;
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="packing-instructions-${view.service_ref}.pdf"`);
    // HEAD (link previews, download managers probing) gets the headers and records nothing.
    if (ctx.method !== 'GET') return;
    const viewerUrl = deps.viewerUrl?.(view.service_ref);
    const pdf = await deps.renderPdf(await readOrderStream(deps.store, stream), viewerUrl ? { viewerUrl } : {});
    await sendThenRecord(ctx, pdf, async () => {
      const recorded = await handleOrderCommand(deps.store, stream, { type: 'RecordDownload', data: { downloaded_at: utcTimestamp() } });
      if (!recorded.ok) throw new Error(`recording the download of ${view.service_ref} was refused: ${JSON.stringify(recorded.errors)}`);
      if (recorded.position !== undefined) await deps.visible(recorded.position);
    });
  });
}

/**
 * Only a download the client received is recorded: all but the last byte is handed to the socket
 * first, and a client gone by then records nothing. The last byte waits for the record, so a client
 * that has the whole file and then reads the order sees packing_instructions_downloaded true.
 */
async function sendThenRecord(ctx: Context, bytes: Buffer, record: () => Promise<void>): Promise<void> {
  ctx.respond = false;
  const res = ctx.res;
  res.setHeader('Content-Length', bytes.length);
  const delivered = await new Promise<boolean>((resolve) => {
    const gone = () => resolve(false);
    res.once('close', gone);
    res.write(bytes.subarray(0, bytes.length - 1), (error) => {
      res.off('close', gone);
      resolve(!error);
    });
  });
  if (!delivered) {
    res.destroy();
    return;
  }
  try {
    await record();
  } catch (error) {
    // Half a response cannot turn into an error response: the client sees a cut download.
    res.destroy();
    throw error;
  }
  res.end(bytes.subarray(bytes.length - 1));
}

export const orderQuery = {
  name: 'order',
  in: 'query',
  required: true,
  description: "The caller's reference or the order's service_ref. When several orders share a reference, the newest match is used.",
  schema: { type: 'string', minLength: 1, pattern: NOT_BLANK.pattern },
};
const lookupRefusals = {
  unknownOrder: {
    summary: "No order of the key's company group has this reference or service_ref",
    value: { order: ['No order matches "PO-404".'] },
  },
  notReady: { summary: 'Not planned yet', value: { order: [NOT_READY_MESSAGE] } },
  planningFailed: {
    summary: 'Planning failed',
    value: { order: ['Planning this order failed (no container of the order fits SKU-1001). Please contact support.'] },
  },
  cancelled: {
    summary: 'The order was cancelled',
    value: { order: [cancelledMessage('SO-000042', '2026-11-20T12:00:00.000000', 'called off by the consignee')] },
  },
};
const LOOKUP_REFUSED =
  "Refusals that depend on the stored orders, which the schema cannot say: no order of the key's company group has this reference or service_ref (another group's order is looked up like an unknown one), " +
  'optimization results not ready yet (try again after a couple of minutes; contact support if not ready within 10 minutes; also while an amended order is planned again), planning failed, ' +
  'or the order was cancelled';
/** The 400 of every endpoint that looks an order up by reference or service_ref and needs its plan. */
export const orderLookupFailed = refusals(`${LOOKUP_REFUSED}.`, 'OrderLookupError', lookupRefusals);
const palletLookupFailed = refusals(
  `${LOOKUP_REFUSED}, or the order has no service-built pallets (only pre-built pallets and loose boxes).`,
  'OrderLookupError',
  { ...lookupRefusals, noPallets: { summary: 'No service-built pallets', value: { order: [NO_PALLETS_MESSAGE] } } },
);

export const packingInstructionsApi: ApiDescription = {
  paths: {
    [PALLET_CONTENTS]: {
      get: {
        operationId: 'palletContents',
        tags: [TAGS.orders],
        summary: 'Retrieve the pallets built by the optimizer',
        description: 'Only for orders with order_items, after optimization (event packing_instructions.ready).',
        parameters: [orderQuery],
        responses: {
          '200': respond('One entry per service-built pallet, in optimizer order.', 'PalletContents'),
          '400': palletLookupFailed,
          '401': unauthorized,
        },
      },
    },
    [DOWNLOAD]: {
      get: {
        operationId: 'downloadPackingInstructions',
        tags: [TAGS.orders],
        summary: 'Download the packing instructions',
        description:
          'Same order lookup as pallet contents. A GET whose file was received sets packing_instructions_downloaded of the order; HEAD answers the headers and records nothing.',
        parameters: [orderQuery],
        responses: {
          // A schema for the bytes, so that generators make a download method that returns them (a file or bytes).
          '200': {
            description: 'The packing instructions as a PDF file.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          '400': orderLookupFailed,
          '401': unauthorized,
        },
      },
    },
  },
  schemas: { PalletContents: PalletContentsSchema, OrderLookupError: OrderLookupErrorSchema },
};

function badRequest(ctx: Context, errors: object): void {
  ctx.status = 400;
  ctx.body = errors;
}
