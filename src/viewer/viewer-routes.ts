// GET /plans/<service_ref>?token=...: the 3D load plan, opened from a share link without an API key.
// A token that is missing, altered, for another order or expired gets 403 and a page that shows nothing
// of the order; so does a link to an order that does not exist (a valid token names an existing one).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { readFile } from 'node:fs/promises';
import type { EventStore } from '../eventstore/event-store.js';
import { plannedOrderIn } from '../load-plan/stored-plan.js';
import { readOrderStream } from '../orders/read-order-stream.js';
import type { OrderReads } from '../orders/read-model/order-read-model.js';
import { TAGS, type ApiDescription } from '../api-docs/openapi-parts.js';
import type { ShareLinks } from './share-links.js';
import { viewerDataOf } from './viewer-data.js';
import { ASSETS_PATH, refusedPage, VIEWER_SECURITY_HEADERS, viewerPage } from './viewer-page.js';

export interface ViewerDependencies {
  store: EventStore;
  orders: OrderReads;
  shareLinks: ShareLinks;
}

const SERVICE_REF = /^SO-([0-9]{6,15})$/;

/** The browser bundle esbuild writes beside this file at build time. */
const ASSETS: Record<string, { file: URL; type: string }> = {
  'viewer.js': { file: new URL('./assets/viewer.js', import.meta.url), type: 'text/javascript; charset=utf-8' },
  'viewer.css': { file: new URL('./assets/viewer.css', import.meta.url), type: 'text/css; charset=utf-8' },
};

export function viewerRoutes(router: Router, deps: ViewerDependencies): void {
  router.get('/plans/:serviceRef', async (ctx) => {
    const serviceRef = ctx.params.serviceRef ?? '';
    ctx.set(VIEWER_SECURITY_HEADERS);
    if (!deps.shareLinks.verify(serviceRef, ctx.query.token)) {
      return page(ctx, 403, refusedPage('This link to a load plan is not valid or has expired. Ask for a new link.'));
    }
    const id = SERVICE_REF.exec(serviceRef)?.[1];
    const document = id === undefined ? undefined : await deps.orders.getById(Number(id));
    if (!document || document.view.service_ref !== serviceRef) {
      return page(ctx, 403, refusedPage('This link to a load plan is not valid or has expired. Ask for a new link.'));
    }
    const planned = plannedOrderIn(await readOrderStream(deps.store, document.stream));
    if (!planned) {
      if (document.view.status === 'cancelled') return page(ctx, 404, refusedPage('This order was cancelled: its load plan is void.'));
      const reason = document.view.planning_failure_reason;
      return page(
        ctx,
        404,
        refusedPage(
          reason
            ? `Planning this order failed (${reason}).`
            : 'The load plan of this order is not ready yet. Try again in a couple of minutes.',
        ),
      );
    }
    page(ctx, 200, viewerPage(viewerDataOf(planned.submitted, planned.plan)));
  });

  const assets = new Map<string, Promise<Buffer>>();
  router.get(`${ASSETS_PATH}/:name`, async (ctx) => {
    const asset = Object.hasOwn(ASSETS, ctx.params.name ?? '') ? ASSETS[ctx.params.name!] : undefined;
    if (!asset) return;
    let bytes = assets.get(ctx.params.name!);
    if (!bytes) {
      bytes = readFile(asset.file);
      assets.set(ctx.params.name!, bytes);
      // A build without the bundle is answered 404 each time, not remembered.
      bytes.catch(() => assets.delete(ctx.params.name!));
    }
    let body: Buffer;
    try {
      body = await bytes;
    } catch {
      return;
    }
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300' });
    ctx.type = asset.type;
    ctx.body = body;
  });
}

function page(ctx: Context, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

export const viewerApi: ApiDescription = {
  paths: {
    '/plans/{service_ref}': {
      get: {
        operationId: 'viewLoadPlan',
        summary: 'The load plan in 3D, in a browser',
        description:
          'The page viewer_url of the load plan points to. No API key: the token is signed over the service_ref and its expiry (30 days by default). ' +
          'The page loads only its script and style sheet from this service, under a strict Content-Security-Policy.',
        tags: [TAGS.viewer],
        security: [],
        parameters: [
          { name: 'service_ref', in: 'path', required: true, schema: { type: 'string' }, examples: { order: { value: 'SO-000042' } } },
          {
            name: 'token',
            in: 'query',
            required: true,
            description: 'From viewer_url.',
            schema: { type: 'string', pattern: '^[0-9]+\\.[A-Za-z0-9_-]{43}$' },
          },
        ],
        responses: {
          '200': { description: 'The viewer page.', content: { 'text/html': {} } },
          '403': {
            description: 'The token is missing, altered, for another order or expired; the page shows nothing of the order.',
            content: { 'text/html': {} },
          },
          '404': { description: 'The order has no load plan (yet, or its planning failed).', content: { 'text/html': {} } },
        },
      },
    },
  },
  schemas: {},
};
