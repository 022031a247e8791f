// npm run replay: rebuilds every read model from the log into fresh storage and compares it with
// the live read models, order by order. Prints each difference; exits 1 on a mismatch, 0 when
// they agree. Uses ORDERS_DATA_DIR and the backend variables like the service.
import { isDeepStrictEqual } from 'node:util';
import { configFromEnv } from './config.js';
import { describeBackends, openEventStore, openOrderReadModel, openScratchOrderReadModel } from './backends.js';
import type { EventStore, RecordedEvent } from './eventstore/event-store.js';
import type { OrderReadModel } from './orders/read-model/order-read-model.js';
import { orderIdOf } from './orders/read-model/order-view-projection.js';
import { isDamage } from './storage/damaged-storage.js';

export interface ReplayReport {
  events: number;
  orders: number;
  differences: string[];
}

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
  if ((await fresh.checkpoint()) !== until) differences.push(`checkpoint: live ${until}, rebuilt ${await fresh.checkpoint()}`);
  for (const id of ids) {
    const [liveOrder, rebuiltOrder] = await Promise.all([live.getById(id), fresh.getById(id)]);
    if (!isDeepStrictEqual(liveOrder, rebuiltOrder)) differences.push(`order ${id}: live ${JSON.stringify(liveOrder)} != rebuilt ${JSON.stringify(rebuiltOrder)}`);
    const [livePallets, rebuiltPallets] = await Promise.all([live.palletContents(id), fresh.palletContents(id)]);
    if (!isDeepStrictEqual(livePallets, rebuiltPallets)) differences.push(`pallet contents of order ${id}: live ${JSON.stringify(livePallets)} != rebuilt ${JSON.stringify(rebuiltPallets)}`);
  }
  // Orders the live side has and the log does not explain: look past the highest id replayed.
  for (let id = Math.max(0, ...ids) + 1; ; id++) {
    const extra = await live.getById(id);
    if (!extra) break;
    differences.push(`order ${id}: in the live read model but not in the log`);
  }
  return { events, orders: ids.size, differences };
}

async function main(): Promise<number> {
  const config = configFromEnv();
  console.log(`replaying into fresh storage (${describeBackends(config)})`);
  const store = openEventStore(config);
  const live = await openOrderReadModel(config);
  const scratch = await openScratchOrderReadModel(config);
  const fresh = scratch.readModel;
  try {
    const started = performance.now();
    const report = await replayAndCompare(store, live, fresh);
    for (const difference of report.differences) console.log(difference);
    console.log(`replayed ${report.events} events, compared ${report.orders} orders in ${Math.round(performance.now() - started)} ms: ${report.differences.length === 0 ? 'read models match the log' : `${report.differences.length} difference(s)`}`);
    return report.differences.length === 0 ? 0 : 1;
  } finally {
    await Promise.all([store.close(), live.close(), scratch.remove()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exitCode = await main();
  } catch (error) {
    if (!isDamage(error)) throw error;
    // What an operator needs is which file and what to do, not a stack trace.
    console.error(`replay stopped: ${(error as Error).message}. A damaged read-models.db is rebuilt by the service at its next start; a damaged events.db must be restored from a backup.`);
    process.exitCode = 2;
  }
}
