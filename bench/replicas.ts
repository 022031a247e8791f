// npm run bench:replicas [-- --orders N --replicas 1,2,3]
// 1, 2 and 3 replica processes on one data directory, each given the same burst of orders (300 by
// default) submitted round-robin, a few at a time. Prints per replica count: planner runs per order
// (orders_planner_runs_total summed over the replicas: 1.00 when each order is planned once),
// submit-to-ready p50/p95 with the ready time taken from a real webhook receiver, the replicas' CPU per
// order (process_cpu_seconds_total, every thread, summed over the replicas), and the machine's cores:
// on a machine with fewer cores than replicas no speed-up is to be expected, only no waste.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ACME_KEY, acmeOrder, testSeed } from '../test/support/seed.js';
import { metric, plannerRuns, startReplicas, submitRoundRobin } from '../test/planning/support/planning-replicas.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { serviceRefFor } from '../src/orders/order-events.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const ORDERS = Number(option('orders', '300'));
const REPLICAS = option('replicas', '1,2,3').split(',').map(Number);

// Deterministic: every replica count gets the same orders.
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
function order(i: number): Record<string, unknown> {
  return acmeOrder({
    reference: `BURST-${i}`, send_email: false, order_containers: [{ code: '40ft' }, { code: '20ft' }],
    order_items: [
      { item: 'SKU-1001', quantity: 40 + Math.floor(random() * 300), purchase_order: `PO-${i}`, line_item_number: '1' },
      { item: 'SKU-1002', quantity: 10 + Math.floor(random() * 120), purchase_order: `PO-${i}`, line_item_number: '2' },
    ],
  });
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

interface Figures {
  replicas: number;
  runsPerOrder: number;
  discarded: number;
  p50: number;
  p95: number;
  cpuPerOrderMs: number;
  seconds: number;
}

async function burst(replicaCount: number): Promise<Figures> {
  seed = 7;
  const orders = Array.from({ length: ORDERS }, (_, i) => order(i));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-replicas-'));
  const readyAt = new Map<string, number>(); // by service reference, as the envelope names the order
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
  document.company_groups[0]!.webhooks = [{ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ready`, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }];
  const replicas = await startReplicas(replicaCount, { dataDir, seed: document, env: { LOG_LEVEL: 'warn' } });
  try {
    const cpuBefore = await Promise.all(replicas.map((replica) => metric(replica, 'process_cpu_seconds_total')));
    const started = performance.now();
    const sentAt: number[] = [];
    const ids = await submitRoundRobin(replicas, orders, 6, ACME_KEY, sentAt);
    while (readyAt.size < ORDERS) await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (performance.now() - started) / 1000;
    const runs = await Promise.all(replicas.map(plannerRuns));
    const cpuAfter = await Promise.all(replicas.map((replica) => metric(replica, 'process_cpu_seconds_total')));
    const ready = ids.map((id, i) => readyAt.get(serviceRefFor(id))! - sentAt[i]!);
    const total = runs.reduce((sum, r) => sum + r.stored + r.failed + r.discarded, 0);
    return {
      replicas: replicaCount,
      runsPerOrder: total / ORDERS,
      discarded: runs.reduce((sum, r) => sum + r.discarded, 0),
      p50: percentile(ready, 50),
      p95: percentile(ready, 95),
      cpuPerOrderMs: (cpuAfter.reduce((a, b) => a + b, 0) - cpuBefore.reduce((a, b) => a + b, 0)) * 1000 / ORDERS,
      seconds,
    };
  } finally {
    for (const replica of replicas) replica.child.kill('SIGKILL');
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const noiseBefore = measureNoise();
console.log(`bench:replicas: ${ORDERS} orders per burst, replicas ${REPLICAS.join(', ')}, one planner thread each; ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'})`);
for (const count of REPLICAS) {
  const f = await burst(count);
  console.log(`${f.replicas} replica(s): runs per order ${f.runsPerOrder.toFixed(2)} (${f.discarded} discarded); submit to ready p50 ${f.p50.toFixed(0)} ms, p95 ${f.p95.toFixed(0)} ms; all ready in ${f.seconds.toFixed(1)} s; replica CPU per order ${f.cpuPerOrderMs.toFixed(0)} ms`);
}
console.log(formatNoise('before the runs', noiseBefore));
console.log(formatNoise('after the runs', measureNoise()));
