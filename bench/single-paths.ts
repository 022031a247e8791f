// npm run bench:limits [-- --orders N --seconds S --servers]
// The rate of each thing that stays single however many replicas run (docs/scaling.md): the
// `order-ids` stream, the one log (small events and plan-sized ones), and the read model's writer,
// each measured alone in this process on a fresh data directory, so that the figure is the path's
// own limit and not the HTTP layer's. --servers: the log on the test servers' PostgreSQL and the read
// model's writer on their MongoDB too (FerretDB here: a protocol stand-in, not a performance one).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { NO_STREAM, type EventStore } from '../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { orderIdAllocator } from '../src/orders/order-id-allocator.js';
import { openSqliteOrderReadModel } from '../src/orders/read-model/sqlite-order-read-model.js';
import { openMongoOrderReadModel } from '../src/orders/read-model/mongodb-order-read-model.js';
import type { OrderReadModel } from '../src/orders/read-model/order-read-model.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { loadDemoOrders, projectAll } from './lib/projected-log.js';
import { databaseUrl } from '../test/support/mongodb.js';
import { scratchSchema } from '../test/support/postgres.js';
import { openPostgresEventStore } from '../src/eventstore/postgres/postgres-event-store.js';
import { numberOption } from './lib/number-option.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const ORDERS = option('orders', 20_000);
const SECONDS = option('seconds', 5);
const WRITERS = 16;
// Plans of orders with many carton sizes are 10-500 KiB (docs/scaling.md).
const LARGE_PLAN_BYTES = 200 * 1024;
const SERVERS = args.includes('--servers');

const scratch: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-limits-'));
  scratch.push(dir);
  return dir;
}

/** Runs `writers` loops of `step` for `seconds`; returns completed steps per second. */
async function rate(seconds: number, writers: number, step: (writer: number) => Promise<unknown>): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() < until) {
        await step(writer);
        done++;
      }
    }),
  );
  return done / ((performance.now() - t0) / 1000);
}

async function orderIds(): Promise<void> {
  // One replica: its submits share one allocator, so concurrent ids land in one commit.
  const one = openSqliteEventStore(freshDir());
  const allocate = orderIdAllocator(one);
  const alone = await rate(SECONDS, WRITERS, () => allocate());
  await one.close();
  // Two replicas on one log: two stores and two allocators, each with its own cached revision, so
  // that they race for the next revision as two processes do (here on one thread: the figure is the
  // conflicts' cost, not two cores' worth).
  const dir = freshDir();
  const stores = [openSqliteEventStore(dir), openSqliteEventStore(dir)];
  let conflicts = 0;
  const allocators = stores.map((store) => {
    // Counts the appends the allocator retries: each is a lost race for the stream's next revision.
    // (The allocator uses only these two methods.)
    const counted = {
      readLastEvent: (stream: string) => store.readLastEvent(stream),
      append: (...a: Parameters<EventStore['append']>) =>
        store.append(...a).catch((error: unknown) => {
          conflicts++;
          throw error;
        }),
    } as Pick<EventStore, 'append' | 'readLastEvent'> as EventStore;
    return orderIdAllocator(counted);
  });
  const raced = await rate(SECONDS, WRITERS, (writer) => allocators[writer % 2]!());
  for (const store of stores) await store.close();
  console.log(
    `order-ids stream: ${alone.toFixed(0)} ids/s from one allocator (${WRITERS} concurrent submits); ${raced.toFixed(0)} ids/s from two allocators racing on one log, ${conflicts} lost races`,
  );
}

async function log(
  plan: unknown,
  label = 'SQLite',
  open: () => Promise<EventStore & { close(): Promise<void> }> = async () => openSqliteEventStore(freshDir()),
): Promise<void> {
  const store = await open();
  let n = 0;
  const small = await rate(SECONDS, WRITERS, () =>
    store.append(`bench-${++n}`, [{ type: 'OrderSubmitted', data: { n, note: 'x'.repeat(900) } }], NO_STREAM),
  );
  // A real plan of the loaded orders, repeated up to the size of a large order's plan.
  const planBytes = Buffer.byteLength(JSON.stringify(plan));
  const large = Array.from({ length: Math.ceil(LARGE_PLAN_BYTES / planBytes) }, () => plan);
  const largeBytes = Buffer.byteLength(JSON.stringify(large));
  const planned = await rate(SECONDS, WRITERS, () =>
    store.append(`bench-${++n}`, [{ type: 'OrderPlanned', data: { n, plan } }], NO_STREAM),
  );
  const plannedLarge = await rate(SECONDS, WRITERS, () =>
    store.append(`bench-${++n}`, [{ type: 'OrderPlanned', data: { n, plan: large } }], NO_STREAM),
  );
  await store.close();
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  console.log(
    `the log (${label}), ${WRITERS} concurrent writers: ${small.toFixed(0)} appends/s of a 1 KiB event; ${planned.toFixed(0)} appends/s of a ${kib(planBytes)} plan; ${plannedLarge.toFixed(0)} appends/s of a ${kib(largeBytes)} plan (${((plannedLarge * largeBytes) / 2 ** 20).toFixed(1)} MiB/s)`,
  );
}

async function readModelWriter(store: EventStore, label: string, readModel: OrderReadModel): Promise<void> {
  const { seconds, events } = await projectAll(store, readModel);
  await readModel.close();
  console.log(
    `read model's writer, ${label}: ${ORDERS} orders (${events} events) projected in ${seconds.toFixed(1)} s: ${(ORDERS / seconds).toFixed(0)} orders/s, ${(events / seconds).toFixed(0)} events/s`,
  );
}

try {
  console.log(formatNoise('before', measureNoise()));
  console.log(`${availableParallelism()} cores; each figure is one path alone, in one process\n`);
  await orderIds();

  const logDir = freshDir();
  const store = openSqliteEventStore(logDir);
  await loadDemoOrders(store, ORDERS);
  // The loaded orders share one real plan (load-orders.ts): the log's first OrderPlanned is it.
  const firstPlan = (await store.readAll(undefined, 5000)).find((event) => event.type === 'OrderPlanned')?.data;
  await log(firstPlan);

  if (SERVERS) {
    const url = process.env.POSTGRES_URL;
    if (!url) throw new Error('--servers needs POSTGRES_URL: eval "$(scripts/test-servers/test-servers start)" first');
    const schema = await scratchSchema(url, 'bench_limits');
    try {
      await log(firstPlan, 'PostgreSQL', () => openPostgresEventStore(schema.url));
    } finally {
      await schema.drop();
    }
  }

  await readModelWriter(store, 'SQLite', openSqliteOrderReadModel(freshDir()));
  if (SERVERS) {
    const url = process.env.MONGODB_URL;
    if (!url) throw new Error('--servers needs MONGODB_URL: eval "$(scripts/test-servers/test-servers start)" first');
    await readModelWriter(
      store,
      'MongoDB (FerretDB 1.24)',
      await openMongoOrderReadModel(databaseUrl(url, `bench_${randomUUID().slice(0, 8)}`)),
    );
  }
  await store.close();
  console.log(`\n${formatNoise('after', measureNoise())}`);
} finally {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
}
