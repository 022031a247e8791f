// The yardstick of bench:api: a bare Koa route in its own process, answering with the bytes retrieve
// answers with (issue 27: "a bare Koa route serving the same bytes"). bench:api writes one order's
// retrieve body to BARE_BODY_FILE; the route holds it parsed, as a plain Koa route holds its object,
// and Koa serializes it per request (JSON.stringify of the parsed view gives back the same bytes).
// Without the file, a small fixed object (the yardstick of the figures before 2026-11-25).
import Koa from 'koa';
import Router from '@koa/router';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

const body: unknown = process.env.BARE_BODY_FILE
  ? JSON.parse(readFileSync(process.env.BARE_BODY_FILE, 'utf8'))
  : { id: 1, service_ref: 'SO-000001', reference: 'PO-1', transport_name: 'OceanFCL' };
const app = new Koa();
const router = new Router();
router.get('/bare/', (ctx) => {
  ctx.body = body;
});
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
