// A log of N loaded orders and a read model projected from it, for the benchmarks that measure the
// read model's writer or work on a full read model: the same loading and projection the service does.
import type { EventStore } from '../../src/eventstore/event-store.js';
import type { OrderReadModel } from '../../src/orders/read-model/order-read-model.js';
import { startProjector } from '../../src/orders/read-model/projector.js';
import { DEMO_SEED_FILE } from '../../src/config.js';
import type { LaneDocument } from '../../src/master-data/master-data-document.js';
import { readFileSync } from 'node:fs';
import { loadOrders } from '../load-orders.js';

/** Loads `orders` orders of the demo lane's company group into the store (load-orders.ts). */
export async function loadDemoOrders(store: EventStore, orders: number): Promise<void> {
  const demo = JSON.parse(readFileSync(DEMO_SEED_FILE, 'utf8'));
  const lane = demo.company_groups[0].lanes[0];
  const laneDocument: LaneDocument = { ...lane, items: lane.items.map((item: { upright?: boolean }) => ({ upright: false, ...item })) };
  await loadOrders(store, orders, demo.company_groups[0].name, laneDocument);
}

/** Projects the whole log into the read model; resolves with the seconds it took and the events applied. */
export async function projectAll(store: EventStore, readModel: OrderReadModel): Promise<{ seconds: number; events: number }> {
  const head = (await store.headPosition())!;
  const t0 = performance.now();
  const projector = await startProjector(store, readModel, (message) => console.error(message));
  await projector.waitFor(head);
  const seconds = (performance.now() - t0) / 1000;
  await projector.stop();
  return { seconds, events: Number(head) };
}
