// Between OrderSubmitted and its plan, both lookups answer 400 with the not-ready message. Held
// still here by giving the routes a read model that has seen the order but no plan.
import t from 'tap';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { openSqliteOrderReadModel } from '../../src/orders/read-model/sqlite-order-read-model.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { packingInstructionsRoutes, NOT_READY_MESSAGE } from '../../src/packing-instructions/routes.js';
import { submitted } from '../orders/read-model/order-read-model-contract.js';
import { removeDataDir, tempDataDir } from '../support/service.js';

const dataDir = tempDataDir();
const orders = openSqliteOrderReadModel(dataDir);
const store = openSqliteEventStore(dataDir);
await orders.apply([submitted(1, 'Acme Group', 'PENDING-1')]);
const app = new Koa();
app.use(async (ctx, next) => {
  ctx.state.caller = { companyGroup: 'Acme Group' };
  await next();
});
const router = new Router();
packingInstructionsRoutes(router, { store, orders, visible: async () => {}, renderPdf: async () => Buffer.from('%PDF-') });
app.use(router.routes());
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/orders`;
t.teardown(async () => {
  server.close();
  await orders.close();
  await store.close();
  removeDataDir(dataDir);
});

for (const path of ['pallet-contents', 'download-packing-instructions']) {
  t.test(`${path} of an order not planned yet answers 400 with the not-ready message, by reference and by service_ref`, async (t) => {
    for (const order of ['PENDING-1', 'SO-000001']) {
      const response = await fetch(`${base}/${path}/?order=${order}`);
      t.equal(response.status, 400);
      t.same(await response.json(), { order: [NOT_READY_MESSAGE] });
    }
  });
}

t.test('a download that was refused recorded nothing', async (t) => {
  t.same(await store.readAll(), []);
});
