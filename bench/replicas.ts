// npm run bench:replicas [-- --orders N --replicas 1,2,3 --servers --idle-seconds S --warmup W --rounds R --profile DIR]
// 1, 2 and 3 replica processes given the same burst of orders (300 by default), submitted round-robin a
// few at a time. Prints per replica count: planner runs per order (orders_planner_runs_total summed over
// the replicas: 1.00 when each order is planned once), read-model writes per order
// (orders_read_model_writes_total summed: the same for any count when one replica projects),
// submit-to-ready p50/p95 with the ready time taken from a real webhook receiver, the replicas' CPU
// (process_cpu_seconds_total, every thread, summed) per order and against one replica's, and the
// machine's cores: on a machine with fewer cores than replicas no speed-up is to be expected, only no waste.
// Each replica's own CPU is printed too (the one that projects apart from the others), and the CPU the
// replicas spend idle over --idle-seconds (10) before the burst: work that grows with time and replica
// count rather than with orders. --warmup W (0) first sends W other orders and waits until they are ready:
// each process's JIT and its planner's WebAssembly tiers compile once per process whatever the orders,
// so the burst then measures what grows with orders; the warm-up's own CPU is printed apart.
// --rounds R (1) runs the replica counts R times, interleaved, and prints the median of the ratios
// to one replica's: on a shared 2-core machine one run's ratio moves by a quarter.
// --profile DIR writes a V8 CPU profile per replica (stopped by SIGTERM).
//
// Default: the replicas share one data directory (the embedded stores). --servers: the server stack
// the test servers run (scripts/test-servers: POSTGRES_URL, MONGODB_URL, KAFKA_BROKERS), each replica
// with a data directory of its own, as on machines of their own; every replica count gets a fresh
// schema, database and topic.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACME_KEY, acmeOrder, testSeed } from '../test/support/seed.js';
import { metric, plannerRuns, submitRoundRobin } from '../test/planning/support/planning-replicas.js';
import { startServiceProcess, type ServiceProcess } from '../test/e2e/service-process.js';
import { databaseUrl, dropDatabase } from '../test/support/mongodb.js';
import { scratchSchema } from '../test/support/postgres.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { serviceRefFor } from '../src/orders/order-events.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const ORDERS = Number(option('orders', '300'));
const REPLICAS = option('replicas', '1,2,3').split(',').map(Number);
const SERVERS = args.includes('--servers');
const IDLE_SECONDS = Number(option('idle-seconds', '10'));
const PROFILE_DIR = option('profile', '');
const WARMUP = Number(option('warmup', '0'));
const ROUNDS = Number(option('rounds', '1'));

if (SERVERS && !(process.env.POSTGRES_URL && process.env.MONGODB_URL && process.env.KAFKA_BROKERS)) {
  console.error(
    'bench:replicas --servers needs POSTGRES_URL, MONGODB_URL and KAFKA_BROKERS: eval "$(scripts/test-servers/test-servers start)" first',
  );
  process.exit(2);
}

// Deterministic: every replica count gets the same orders.
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
function order(i: number): Record<string, unknown> {
  return acmeOrder({
    reference: `BURST-${i}`,
    send_email: false,
    order_containers: [{ code: '40ft' }, { code: '20ft' }],
    order_items: [
      { item: 'SKU-1001', quantity: 40 + Math.floor(random() * 300), purchase_order: `PO-${i}`, line_item_number: '1' },
      { item: 'SKU-1002', quantity: 10 + Math.floor(random() * 120), purchase_order: `PO-${i}`, line_item_number: '2' },
    ],
  });
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

interface Figures {
  replicas: number;
  runsPerOrder: number;
  discarded: number;
  writesPerOrder: number;
  /** Events the log gained per order: a write per event when one replica projects. */
  eventsPerOrder: number;
  p50: number;
  p95: number;
  cpuSeconds: number;
  /** Each replica's CPU during the burst, and whether it held the projector's lease. */
  perReplica: { cpuSeconds: number; projecting: boolean }[];
  /** CPU seconds per second the replicas spent idle before the burst, summed. */
  idleCpuPerSecond: number;
  /** CPU seconds of the warm-up orders, every replica summed (0 without --warmup). */
  warmupCpuSeconds: number;
  seconds: number;
}

/** Where each replica keeps its data: one directory for all (embedded), or the servers and one each. */
async function stores(count: number, root: string): Promise<{ env(replica: number): NodeJS.ProcessEnv; remove(): Promise<void> }> {
  if (!SERVERS) return { env: () => ({ ORDERS_DATA_DIR: root }), remove: async () => {} };
  const schema = await scratchSchema(process.env.POSTGRES_URL!, `bench_replicas_${count}`);
  const database = `bench_replicas_${count}_${randomUUID().slice(0, 8)}`;
  const topic = `bench-replicas-${randomUUID().slice(0, 8)}`;
  return {
    env: (replica) => {
      const dataDir = join(root, `replica-${replica + 1}`);
      mkdirSync(dataDir, { recursive: true });
      return {
        ORDERS_DATA_DIR: dataDir,
        POSTGRES_URL: schema.url,
        MONGODB_URL: databaseUrl(process.env.MONGODB_URL!, database),
        KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
        ORDERS_KAFKA_TOPIC: topic,
      };
    },
    async remove() {
      await dropDatabase(process.env.MONGODB_URL!, database).catch(() => {});
      await schema.drop();
    },
  };
}

async function burst(replicaCount: number): Promise<Figures> {
  seed = 7;
  const orders = Array.from({ length: ORDERS }, (_, i) => order(i));
  const warmupOrders = Array.from({ length: WARMUP }, (_, i) => ({ ...order(i), reference: `WARM-${i}` }));
  const root = mkdtempSync(join(tmpdir(), 'bench-replicas-'));
  const readyAt = new Map<string, number>(); // by service reference, as the envelope names the order
  const allReady = async (ids: number[]) => {
    while (ids.some((id) => !readyAt.has(serviceRefFor(id)))) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const envelope = JSON.parse(body) as { type: string; data: { order_id: string } };
      if (!readyAt.has(envelope.data.order_id)) readyAt.set(envelope.data.order_id, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const document = testSeed();
  document.company_groups[0]!.webhooks = [
    { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ready`, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  ];
  const seedFile = join(root, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(document));
  const where = await stores(replicaCount, root);
  const replicas: ServiceProcess[] = [];
  try {
    // One after the other: each applies the seed on its start.
    for (let i = 0; i < replicaCount; i++) {
      replicas.push(
        await startServiceProcess({
          ORDERS_SEED_FILE: seedFile,
          ORDERS_PLANNER_THREADS: '1',
          ORDERS_VISIBLE_WITHIN_MS: '30000',
          LOG_LEVEL: 'warn',
          ...where.env(i),
          ...(PROFILE_DIR
            ? {
                NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(PROFILE_DIR, `${replicaCount}-replicas`)} --cpu-prof-name=replica-${i + 1}.cpuprofile`,
              }
            : {}),
        }),
      );
    }
    const warmupBefore = await Promise.all(replicas.map((replica) => metric(replica, 'process_cpu_seconds_total')));
    if (WARMUP > 0) {
      await allReady(await submitRoundRobin(replicas, warmupOrders, 6, ACME_KEY));
    }
    const idleBefore = await Promise.all(replicas.map((replica) => metric(replica, 'process_cpu_seconds_total')));
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idleAfter = await Promise.all(replicas.map((replica) => metric(replica, 'process_cpu_seconds_total')));
    const headBefore = await logHead(replicas[0]!);
    const cpuBefore = await Promise.all(replicas.map((replica) => metric(replica, 'process_cpu_seconds_total')));
    const writesBefore = await Promise.all(replicas.map((replica) => metric(replica, 'orders_read_model_writes_total')));
    // the warm-up's orders were planned (and counted) before: the burst's runs are the difference
    const runsBefore = await Promise.all(replicas.map(plannerRuns));
    const started = performance.now();
    const sentAt: number[] = [];
    const ids = await submitRoundRobin(replicas, orders, 6, ACME_KEY, sentAt);
    await allReady(ids);
    const seconds = (performance.now() - started) / 1000;
    const runs = await Promise.all(replicas.map(plannerRuns));
    const cpuAfter = await Promise.all(replicas.map((replica) => metric(replica, 'process_cpu_seconds_total')));
    const writesAfter = await Promise.all(replicas.map((replica) => metric(replica, 'orders_read_model_writes_total')));
    const headAfter = await logHead(replicas[0]!);
    const projecting = await Promise.all(replicas.map((replica) => metric(replica, 'orders_projector_lease_held')));
    const ready = ids.map((id, i) => readyAt.get(serviceRefFor(id))! - sentAt[i]!);
    const runCount = (r: { stored: number; failed: number; discarded: number }) => r.stored + r.failed + r.discarded;
    const total = runs.reduce((sum, r, i) => sum + runCount(r) - runCount(runsBefore[i]!), 0);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    return {
      replicas: replicaCount,
      runsPerOrder: total / ORDERS,
      discarded: runs.reduce((s, r, i) => s + r.discarded - runsBefore[i]!.discarded, 0),
      writesPerOrder: (sum(writesAfter) - sum(writesBefore)) / ORDERS,
      eventsPerOrder: (headAfter - headBefore) / ORDERS,
      p50: percentile(ready, 50),
      p95: percentile(ready, 95),
      cpuSeconds: sum(cpuAfter) - sum(cpuBefore),
      perReplica: cpuAfter.map((after, i) => ({ cpuSeconds: after - cpuBefore[i]!, projecting: projecting[i] === 1 })),
      idleCpuPerSecond: IDLE_SECONDS > 0 ? (sum(idleAfter) - sum(idleBefore)) / IDLE_SECONDS : 0,
      warmupCpuSeconds: sum(idleBefore) - sum(warmupBefore),
      seconds,
    };
  } finally {
    // A profile is written only by a process that exits of itself.
    if (PROFILE_DIR) await Promise.all(replicas.map((replica) => replica.stop()));
    else for (const replica of replicas) replica.child.kill('SIGKILL');
    receiver.close();
    await where.remove();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The log's head as the replica's digest names it (GET /api/v1/audit/digest): its position. */
async function logHead(replica: ServiceProcess): Promise<number> {
  const digest = await replica.request('GET', '/api/v1/audit/digest', { key: ACME_KEY });
  return Number((digest.body as { position?: string | number }).position ?? 0);
}

const noiseBefore = measureNoise();
console.log(
  `bench:replicas: ${ORDERS} orders per burst, replicas ${REPLICAS.join(', ')}, one planner thread each, ${SERVERS ? 'on the server stack (PostgreSQL log, MongoDB-protocol read models, Kafka), a data directory per replica' : 'on one data directory (embedded stores)'}; ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'})`,
);
const figures: Figures[] = [];
const ratios = new Map<number, number[]>();
for (let round = 1; round <= ROUNDS; round++) {
  if (ROUNDS > 1) console.log(`round ${round} of ${ROUNDS}`);
  const inRound: Figures[] = [];
  for (const count of REPLICAS) {
    const f = await burst(count);
    figures.push(f);
    inRound.push(f);
    const one = inRound.find((g) => g.replicas === 1);
    if (one) ratios.set(count, [...(ratios.get(count) ?? []), f.cpuSeconds / one.cpuSeconds]);
    console.log(
      `${f.replicas} replica(s): runs per order ${f.runsPerOrder.toFixed(2)} (${f.discarded} discarded); read-model writes per order ${f.writesPerOrder.toFixed(2)} (log events per order ${f.eventsPerOrder.toFixed(2)}: ${(f.writesPerOrder / f.eventsPerOrder).toFixed(2)} writes per event); submit to ready p50 ${f.p50.toFixed(0)} ms, p95 ${f.p95.toFixed(0)} ms; all ready in ${f.seconds.toFixed(1)} s; replica CPU ${f.cpuSeconds.toFixed(2)} s, ${((f.cpuSeconds * 1000) / ORDERS).toFixed(1)} ms per order${one ? `, ${(f.cpuSeconds / one.cpuSeconds).toFixed(2)}x one replica's` : ''}`,
    );
    console.log(
      `  each replica's CPU: ${f.perReplica.map((r, i) => `#${i + 1}${r.projecting ? ' (projects)' : ''} ${r.cpuSeconds.toFixed(2)} s`).join(', ')}; idle before the burst: ${(f.idleCpuPerSecond * 1000).toFixed(0)} ms of CPU per second over ${IDLE_SECONDS} s, all replicas${WARMUP > 0 ? `; the ${WARMUP} warm-up orders: ${f.warmupCpuSeconds.toFixed(2)} s, all replicas` : ''}`,
    );
  }
}
if (ROUNDS > 1)
  for (const [count, values] of ratios)
    console.log(
      `${count} replica(s) against one, over ${values.length} rounds: ${values.map((v) => `${v.toFixed(2)}x`).join(', ')}; median ${percentile(values, 50).toFixed(2)}x`,
    );
console.log(formatNoise('before the runs', noiseBefore));
console.log(formatNoise('after the runs', measureNoise()));
