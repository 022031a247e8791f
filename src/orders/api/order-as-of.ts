// ?as_of= on retrieve: the order as retrieve would have answered at that moment, with the
// same authentication and scope. The moment must be an ISO 8601 date and time with its time zone, and
// not in the future (the log does not know the future, and an answer would change later).
import type { Context } from 'koa';
import type { EventStore } from '../../eventstore/event-store.js';
import type { OrderReads } from '../read-model/order-read-model.js';
import { orderViewAsOf } from '../read-model/order-from-log.js';
import { orderInScope } from './order-in-scope.js';

const ISO_MOMENT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))$/;

/** The moment named, or the message for a 400 under as_of. */
export function parseMoment(raw: string, now: Date): Date | string {
  const match = ISO_MOMENT.exec(raw);
  const example = 'Enter a date and time in ISO 8601 with its time zone, e.g. 2026-11-25T14:30:00Z.';
  if (!match) return example;
  const [year, month, day, hour, minute, second = 0] = match.slice(1, 7).map(Number) as number[];
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMinutes = match[8] === 'Z' ? 0 : (match[8]!.startsWith('-') ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10]));
  const local = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second, millis));
  // Date.UTC rolls 31 February over into March: a date that does not come back the same does not exist.
  const exists =
    local.getUTCFullYear() === year &&
    local.getUTCMonth() === month! - 1 &&
    local.getUTCDate() === day &&
    hour! < 24 &&
    minute! < 60 &&
    second < 60 &&
    Math.abs(offsetMinutes) <= 14 * 60;
  if (!exists) return example;
  const moment = new Date(local.getTime() - offsetMinutes * 60_000);
  if (moment.getTime() > now.getTime()) return 'This moment is in the future; the order can only be shown as it was up to now.';
  return moment;
}

export async function retrieveAsOf(ctx: Context, deps: { orders: OrderReads; store: EventStore }, raw: string | string[]): Promise<void> {
  const moment = parseMoment(Array.isArray(raw) ? (raw[raw.length - 1] ?? '') : raw, new Date());
  if (typeof moment === 'string') {
    ctx.status = 400;
    ctx.body = { as_of: [moment] };
    return;
  }
  // Scope and existence as retrieve: an order outside the key's group is 403 at every moment.
  const order = await orderInScope(ctx, (id) => deps.orders.getById(id));
  if (!order) return;
  const view = await orderViewAsOf(deps.store, order.view.id, order.stream, moment);
  if (!view) {
    ctx.status = 404;
    ctx.body = { detail: `Not found: order ${order.view.id} did not exist yet at ${moment.toISOString()}.` };
    return;
  }
  ctx.body = view;
}
