// npm run replay: rebuilds every read model from the log into fresh storage and compares it with
// the live read models, order by order. Prints each difference; exits 1 on a mismatch, 0 when
// they agree. Uses ORDERS_DATA_DIR and the backend variables like the service.
// npm run replay -- --repair: then folds each order that differs again from the log into the live
// read model (self-repairing-read-model.ts, the service's own repair) and compares again: exits 0
// when the live read model now matches the log.
import { isDeepStrictEqual } from 'node:util';
import { configFromEnv } from './config.js';
import { refuseUnsupportedNode } from './node-version.js';
import { describeBackends, openEventStore, openOrderReadModel, openScratchOrderReadModel } from './backends.js';
import type { EventStore, RecordedEvent } from './eventstore/event-store.js';
import type { OrderReadModel } from './orders/read-model/order-read-model.js';
import { orderIdOf } from '../projections/order-view.js';
import { isDamage } from './storage/damaged-storage.js';
import { DamagedDocument } from './orders/read-model/document-checksum.js';
import { eventsOfOrder } from './orders/read-model/order-from-log.js';

export interface ReplayReport {
  events: number;
  orders: number;
  differences: string[];
  /** The orders with a difference (or in the live read model only), for --repair. */
  differingOrders: number[];
}

/** What the live read model holds, or why it cannot be trusted: a document that fails its checksum is a difference, not a crash. */
async function liveRead<T>(read: Promise<T>): Promise<T | DamagedDocument> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof DamagedDocument) return error;
    throw error;
  }
}

const shown = (value: unknown): string => (value instanceof DamagedDocument ? `damaged (${value.message})` : JSON.stringify(value));

/** Replays the log up to the live read models' checkpoint, so a running service does not cause false alarms. */
export async function replayAndCompare(store: EventStore, live: OrderReadModel, fresh: OrderReadModel): Promise<ReplayReport> {
  const until = await live.checkpoint();
  const ids = new Set<number>();
  let events = 0;
  let after: bigint | undefined;
  for (;;) {
    const page: RecordedEvent[] = (await store.readAll(after, 1000)).filter((event) => until !== undefined && event.position <= until);
    if (page.length === 0) break;
    await fresh.apply(page);
    for (const event of page) {
      const id = orderIdOf(event);
      if (id !== undefined && event.type === 'OrderSubmitted') ids.add(id);
    }
    events += page.length;
    after = page[page.length - 1]!.position;
  }

  const differences: string[] = [];
  const differingOrders = new Set<number>();
  if ((await fresh.checkpoint()) !== until) differences.push(`checkpoint: live ${until}, rebuilt ${await fresh.checkpoint()}`);
  for (const id of ids) {
    const [liveOrder, rebuiltOrder] = await Promise.all([liveRead(live.getById(id)), fresh.getById(id)]);
    if (!isDeepStrictEqual(liveOrder, rebuiltOrder)) {
      differences.push(`order ${id}: live ${shown(liveOrder)} != rebuilt ${shown(rebuiltOrder)}`);
      differingOrders.add(id);
    }
    const [livePallets, rebuiltPallets] = await Promise.all([liveRead(live.palletContents(id)), fresh.palletContents(id)]);
    if (!isDeepStrictEqual(livePallets, rebuiltPallets)) {
      differences.push(`pallet contents of order ${id}: live ${shown(livePallets)} != rebuilt ${shown(rebuiltPallets)}`);
      differingOrders.add(id);
    }
  }
  // Orders the live side has and the log does not explain: look past the highest id replayed.
  for (let id = Math.max(0, ...ids) + 1; ; id++) {
    const extra = await liveRead(live.getById(id));
    if (!extra) break;
    differences.push(`order ${id}: in the live read model but not in the log`);
    differingOrders.add(id);
  }
  return { events, orders: ids.size, differences, differingOrders: [...differingOrders] };
}

/** Folds each of `orders` again from the log into the live read model, as the service repairs a damaged document. */
export async function repairFromLog(store: EventStore, live: OrderReadModel, orders: readonly number[]): Promise<void> {
  for (const id of orders) await live.repair(id, await eventsOfOrder(store, id, undefined));
}

refuseUnsupportedNode();

async function main(repair: boolean): Promise<number> {
  const config = configFromEnv();
  console.log(`replaying into fresh storage (${describeBackends(config)})`);
  const store = await openEventStore(config);
  const live = await openOrderReadModel(config);
  const scratch = await openScratchOrderReadModel(config);
  const fresh = scratch.readModel;
  try {
    const started = performance.now();
    const report = await replayAndCompare(store, live, fresh);
    for (const difference of report.differences) console.log(difference);
    console.log(
      `replayed ${report.events} events, compared ${report.orders} orders in ${Math.round(performance.now() - started)} ms: ${report.differences.length === 0 ? 'read models match the log' : `${report.differences.length} difference(s)`}`,
    );
    if (report.differences.length === 0) return 0;
    if (!repair) return 1;
    await repairFromLog(store, live, report.differingOrders);
    // Compared again against the same rebuilt read model: what the repair left differing is still reported.
    const after = await replayAndCompare(store, live, fresh);
    for (const difference of after.differences) console.log(`after repair: ${difference}`);
    console.log(
      `repaired ${report.differingOrders.length} order(s) from the log: ${after.differences.length === 0 ? 'read models match the log' : `${after.differences.length} difference(s) left`}`,
    );
    return after.differences.length === 0 ? 0 : 1;
  } finally {
    await Promise.all([store.close(), live.close(), scratch.remove()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exitCode = await main(process.argv.includes('--repair'));
  } catch (error) {
    if (!isDamage(error)) throw error;
    // What an operator needs is which file and what to do, not a stack trace.
    console.error(
      `replay stopped: ${(error as Error).message}. A damaged read-models.db is rebuilt by the service at its next start; a damaged events.db must be restored from a backup.`,
    );
    process.exitCode = 2;
  }
}
