// GET /api/v1/orders/load-plan/: the plan as JSON, with the lookup, scope and 400s of pallet
// contents (an order of only pre-built pallets and loose boxes has a load plan all the same).
import type Router from '@koa/router';
import type { EventStore } from '../eventstore/event-store.js';
import { lookUpPlannedOrder, NOT_READY_MESSAGE, orderLookupFailed, orderQuery } from '../packing-instructions/routes.js';
import type { OrderReads } from '../orders/read-model/order-read-model.js';
import { respond, TAGS, unauthorized, type ApiDescription } from '../api-docs/openapi-parts.js';
import { loadPlanOf } from './load-plan.js';
import { LoadPlanSchema } from './load-plan-schema.js';
import { plannedOrderIn } from './stored-plan.js';
import { readOrderStream } from '../orders/read-order-stream.js';

const LOAD_PLAN = '/api/v1/orders/load-plan/';

export interface LoadPlanDependencies {
  store: EventStore;
  orders: OrderReads;
  viewerUrl: (serviceRef: string) => string;
}

export function loadPlanRoutes(router: Router, deps: LoadPlanDependencies): void {
  router.get(LOAD_PLAN, async (ctx) => {
    const found = await lookUpPlannedOrder(ctx, deps.orders);
    if ('errors' in found) {
      ctx.status = 400;
      ctx.body = found.errors;
      return;
    }
    const { view, stream } = found.document;
    const planned = plannedOrderIn(await readOrderStream(deps.store, stream));
    if (!planned) {
      // The read model saw the plan and the stream does not hold it: a log it does not belong to.
      ctx.status = 400;
      ctx.body = { order: [NOT_READY_MESSAGE] };
      return;
    }
    ctx.body = loadPlanOf(view, planned.plan, deps.viewerUrl(view.service_ref));
  });
}

export const loadPlanApi: ApiDescription = {
  paths: {
    [LOAD_PLAN]: {
      get: {
        operationId: 'loadPlan',
        tags: [TAGS.orders],
        summary: 'Retrieve the load plan',
        description:
          'Every container with its placements in loading order, centre of gravity and whether it is within the limits, every service-built pallet with its units, ' +
          'and what could not be loaded. Same order lookup as pallet contents; also for orders of only pre-built pallets and loose boxes. ' +
          'viewer_url opens the plan in 3D in a browser without an API key.',
        parameters: [orderQuery],
        responses: {
          '200': respond('The load plan, in millimetres and kilograms.', 'LoadPlan'),
          '400': orderLookupFailed,
          '401': unauthorized,
        },
      },
    },
  },
  schemas: { LoadPlan: LoadPlanSchema },
};
