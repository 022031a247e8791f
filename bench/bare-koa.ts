// The yardstick of bench:api: a bare Koa route returning a fixed JSON body, in its own process.
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';

const app = new Koa();
const router = new Router();
router.get('/bare/', (ctx) => {
  ctx.body = { id: 1, service_ref: 'SO-000001', reference: 'PO-1', transport_name: 'OceanFCL' };
});
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
