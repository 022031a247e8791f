// GET .../detailed-orders/{id}/history/export: the order's events as JSON lines, each with
// its hash and the hash it is chained to, then a digest of the log signed with the service's key that
// also lists each of the order's events by position and hash.
// Why not the hashes from each event to the head: on SQLite the chain runs over the whole log, so
// linking an order's first event to the head would ship every hash written since (an order submitted
// a year ago in a 100k-order log: ~400,000 hashes). Instead the signature binds the order's own event
// hashes to the head it was signed at: the export is as long as the order's history, whatever the log.
// What that proves and does not: docs/auditing.md.
import type Router from '@koa/router';
import type { AuditKey } from '../../audit/audit-key.js';
import { signedDigest } from '../../audit/signed-digest.js';
import type { HashedLog } from '../../eventstore/hashed-log.js';
import { openApiPath, TAGS, unauthorized, type ApiDescription } from '../../api-docs/openapi-parts.js';
import type { OrderReads } from '../read-model/order-read-model.js';
import { orderIdParameter, orderNotVisible } from './routes.js';
import { orderInScope } from './order-in-scope.js';

const EXPORT = '/api/v1/orders/detailed-orders/:id/history/export';

export function historyExportRoutes(router: Router, deps: { store: HashedLog; orders: OrderReads; auditKey: AuditKey }): void {
  router.get(EXPORT, async (ctx) => {
    const order = await orderInScope(ctx, (id) => deps.orders.getById(id));
    if (!order) return;
    const events = await deps.store.readStreamHashed(order.stream);
    const digest = await signedDigest(deps.store, deps.auditKey, { stream: order.stream, events });
    const lines = events.map((event) =>
      JSON.stringify({
        position: event.position.toString(),
        stream: event.stream,
        revision: Number(event.revision),
        type: event.type,
        recorded_at_us: event.recordedAtMicros.toString(),
        recorded_at: new Date(Number(event.recordedAtMicros / 1000n)).toISOString(),
        // As stored: the hash is over these bytes, not over a re-serialized object.
        data: event.data,
        previous_hash: event.previousHash,
        hash: event.hash,
      }),
    );
    ctx.set('Content-Type', 'application/jsonl; charset=utf-8');
    ctx.body = `${[...lines, JSON.stringify({ digest })].join('\n')}\n`;
  });
}

export const historyExportApi: ApiDescription = {
  paths: {
    [openApiPath(EXPORT)]: {
      get: {
        operationId: 'orderHistoryExport',
        summary: "An order's events with their hashes and a signed digest, for auditors to check offline",
        description:
          'JSON lines: one per event of the order, oldest first: position (string), stream, revision, type, recorded_at_us (µs since the epoch, as hashed), recorded_at, ' +
          'data (the event data as the stored JSON text), previous_hash and hash (hex SHA-256 of previous_hash, type, stream, revision, recorded_at_us and data joined by line feeds); ' +
          'then one line {"digest": SignedDigest} listing those events by position and hash. scripts/verify-export.mjs checks it against the public key; docs/auditing.md shows the check with openssl. ' +
          'Same authentication and scope as retrieve.',
        tags: [TAGS.audit],
        parameters: [orderIdParameter],
        responses: {
          '200': { description: 'The export.', content: { 'application/jsonl': { schema: { type: 'string' } } } },
          '401': unauthorized,
          ...orderNotVisible,
        },
      },
    },
  },
  schemas: {},
};
