// GET /api/v1/orders/load-plan/: the plan as JSON, with the lookup, scope and 400s of pallet
// contents (an order of only pre-built pallets and loose boxes has a load plan all the same).
import type Router from '@koa/router';
import type { EventStore } from '../eventstore/event-store.js';
import { lookUpPlannedOrder, NOT_READY_MESSAGE } from '../orders/packing-instructions-routes.js';
import type { OrderReadModel } from '../read-models/order-read-model.js';
import { loadPlanOf } from './load-plan.js';
import { plannedOrderIn } from './stored-plan.js';

export interface LoadPlanDependencies {
  store: EventStore;
  orders: OrderReadModel;
  viewerUrl: (serviceRef: string) => string;
}

export function loadPlanRoutes(router: Router, deps: LoadPlanDependencies): void {
  router.get('/api/v1/orders/load-plan/', async (ctx) => {
    const found = await lookUpPlannedOrder(ctx, deps.orders);
    if ('errors' in found) {
      ctx.status = 400;
      ctx.body = found.errors;
      return;
    }
    const { view, stream } = found.document;
    const planned = plannedOrderIn(await deps.store.readStream(stream));
    if (!planned) {
      // The read model saw the plan and the stream does not hold it: a log it does not belong to.
      ctx.status = 400;
      ctx.body = { order: [NOT_READY_MESSAGE] };
      return;
    }
    ctx.body = loadPlanOf(view, planned.plan, deps.viewerUrl(view.service_ref));
  });
}
