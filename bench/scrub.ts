// npm run bench:scrub [-- --orders N --rate R]
// The read-model scrubber's full pass over N orders (100,000 by default): a log of N loaded orders, a
// read model projected from it, then one pass of the scrubber at R orders/s (unbounded by default, so
// the figure is its own speed; the service's default is ORDERS_SCRUB_ORDERS_PER_SECOND = 50). Prints
// the pass's seconds, orders/s and CPU per order, and what a pass takes at the service's default rate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { openSqliteOrderReadModel } from '../src/orders/read-model/sqlite-order-read-model.js';
import { startReadModelScrubber } from '../src/orders/read-model/read-model-scrubber.js';
import { selfRepairingReadModel } from '../src/orders/read-model/self-repairing-read-model.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { loadDemoOrders, projectAll } from './lib/projected-log.js';
import { numberOption } from './lib/number-option.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const ORDERS = option('orders', 100_000);
const RATE = option('rate', 1e9);
const DEFAULT_RATE = 50;

const dir = mkdtempSync(join(tmpdir(), 'bench-scrub-'));
try {
  console.log(formatNoise('before', measureNoise()));
  const store = openSqliteEventStore(dir);
  let t0 = performance.now();
  await loadDemoOrders(store, ORDERS);
  const raw = openSqliteOrderReadModel(dir);
  const projected = await projectAll(store, raw);
  console.log(
    `${ORDERS} orders loaded and projected in ${((performance.now() - t0) / 1000).toFixed(1)} s (projection ${projected.seconds.toFixed(1)} s)`,
  );

  let repairs = 0;
  const readModel = selfRepairingReadModel(raw, store, { repaired: () => repairs++ });
  const cpu0 = process.cpuUsage();
  t0 = performance.now();
  const scrubber = startReadModelScrubber({
    store,
    readModel,
    ordersPerSecond: RATE,
    repaired: () => repairs++,
    log: (message, error) => console.error(message, error),
  });
  while (scrubber.progress().passes < 1) await new Promise((resolve) => setTimeout(resolve, 200));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await scrubber.stop();
  const cpuMsPerOrder = (cpu.user + cpu.system) / 1000 / ORDERS;
  console.log(
    `one full pass over ${ORDERS} orders${RATE < 1e9 ? ` at ${RATE} orders/s` : ', unbounded rate'}: ${seconds.toFixed(1)} s (${(ORDERS / seconds).toFixed(0)} orders/s), CPU ${cpuMsPerOrder.toFixed(3)} ms per order, ${repairs} repairs`,
  );
  console.log(
    `at the default rate (${DEFAULT_RATE} orders/s): a pass over ${ORDERS} orders takes ${(ORDERS / DEFAULT_RATE / 60).toFixed(0)} min and about ${((DEFAULT_RATE * cpuMsPerOrder) / 10).toFixed(1)} % of one core`,
  );
  await readModel.close();
  await store.close();
  console.log(formatNoise('after', measureNoise()));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
