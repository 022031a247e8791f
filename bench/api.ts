// npm run bench:api [-- --orders N --duration S --connections C]
// Loopback load with autocannon against the service on the embedded default, side by side with a
// bare Koa route in the same run. Prints req/s, p99 and the ratios to the bare route, and the
// service's RSS with 100,000 orders stored.
import autocannon, { type Request, type Result } from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteEventStore } from '../src/eventstore/sqlite-event-store.js';
import { DEMO_SEED_FILE } from '../src/config.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { loadOrders } from './load-orders.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ORDERS = option('orders', 100_000);
const DURATION = option('duration', 10);
const CONNECTIONS = option('connections', 10);
const WARM_UP = option('warm-up', 2);
const KEY = 'acme-demo-key-0001';
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

function start(script: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (!url) return;
      // From here on its output (a log line per request) is drained and dropped, not collected.
      child.stdout!.off('data', read);
      child.stdout!.resume();
      resolve({ child, url });
    };
    child.stdout!.on('data', read);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

async function waitForOrders(url: string, count: number): Promise<void> {
  for (;;) {
    const response = await fetch(`${url}/api/v1/orders/detailed-orders/?page_size=1`, { headers: { authorization: `Api-Key ${KEY}` } });
    if (response.ok && ((await response.json()) as { count: number }).count >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until the process uses under 5 % of a core for two seconds running. */
async function waitForIdle(pid: number): Promise<void> {
  const cpuTicks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  let quiet = 0;
  let last = cpuTicks();
  while (quiet < 4) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuTicks();
    quiet = now - last <= 2 ? quiet + 1 : 0; // 100 ticks a second: 2 ticks in 500 ms is 4 %
    last = now;
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
const children: ChildProcess[] = [];
try {
  const demo = JSON.parse(readFileSync(DEMO_SEED_FILE, 'utf8'));
  const lane = demo.company_groups[0].lanes[0];
  const laneDocument: LaneDocument = { ...lane, items: lane.items.map((item: { upright?: boolean }) => ({ upright: false, ...item })) };

  let t0 = performance.now();
  const store = openSqliteEventStore(dataDir);
  await loadOrders(store, ORDERS, demo.company_groups[0].name, laneDocument);
  await store.close();
  console.log(`loaded ${ORDERS} orders into the event store in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  t0 = performance.now();
  const service = await start(here('../src/main.js'), { PORT: '0', HOST: '127.0.0.1', ORDERS_DATA_DIR: dataDir });
  children.push(service.child);
  await waitForOrders(service.url, ORDERS);
  console.log(`service started and projected ${ORDERS} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // The planning reactor and the notification consumers catch up with the loaded log too; measure after.
  await waitForIdle(service.child.pid!);
  console.log(`service idle after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const rssLoaded = rssMiB(service.child.pid!);

  const bare = await start(here('./bare-koa.js'));
  children.push(bare.child);

  const auth = { authorization: `Api-Key ${KEY}` };
  // Each run starts with an uncounted warm-up, so that JIT compilation and cold caches do not count.
  const run = async (url: string, requests: Request[]) => {
    await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP, headers: auth, requests });
    return autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: auth, requests });
  };
  let reference = 0;
  const order = JSON.parse(JSON.stringify({
    supplier_name: lane.supplier, consignee_name: lane.consignee, transportation_mode: 'OceanFCL',
    order_items: [{ item: lane.items[0].sku, quantity: 40, purchase_order: 'PO-B', line_item_number: '1' }],
    order_containers: [{ code: '40ft' }],
  }));

  const results: [string, Result][] = [];
  results.push(['bare Koa route', await run(bare.url, [{ method: 'GET', path: '/bare/' }])]);
  results.push(['retrieve', await run(service.url, [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/v1/orders/detailed-orders/${1 + Math.floor(Math.random() * ORDERS)}/` }) }])]);
  results.push(['list (page 1)', await run(service.url, [{ method: 'GET', path: '/api/v1/orders/detailed-orders/' }])]);
  results.push(['submit', await run(service.url, [{
    method: 'POST',
    path: '/api/v1/orders/submit-order/',
    headers: { ...auth, 'content-type': 'application/json' },
    setupRequest: (request) => ({ ...request, body: JSON.stringify({ ...order, reference: `BENCH-${process.pid}-${++reference}` }) }),
  }])]);
  results.push(['bare Koa route (again)', await run(bare.url, [{ method: 'GET', path: '/bare/' }])]);
  const rssAfter = rssMiB(service.child.pid!);

  const bareRate = (results[0]![1].requests.average + results[4]![1].requests.average) / 2;
  const noise = Math.abs(results[0]![1].requests.average - results[4]![1].requests.average) / bareRate;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s each after ${WARM_UP} s of warm-up, loopback, ${ORDERS} orders stored\n`);
  console.log('operation                 req/s     p99 ms   x bare   non-2xx');
  for (const [name, result] of results) {
    console.log(`${name.padEnd(24)} ${result.requests.average.toFixed(0).padStart(7)}  ${result.latency.p99.toFixed(1).padStart(8)}  ${(result.requests.average / bareRate).toFixed(2).padStart(6)}   ${result.non2xx + result.errors}`);
  }
  console.log(`\nnoise: the bare route's two runs differ by ${(noise * 100).toFixed(1)} %`);
  console.log(formatNoise('after the runs', measureNoise()));
  console.log(`service RSS: ${rssLoaded.toFixed(0)} MiB with ${ORDERS} orders loaded, ${rssAfter.toFixed(0)} MiB after the runs`);
  const [, retrieve] = results[1]!;
  const [, list] = results[2]!;
  const [, submit] = results[3]!;
  console.log('\ntargets:');
  console.log(`  retrieve >= 0.5x bare: ${(retrieve.requests.average / bareRate).toFixed(2)}x ${retrieve.requests.average / bareRate >= 0.5 ? 'met' : 'NOT met'}`);
  console.log(`  submit >= 500 durable orders/s: ${submit['2xx'] / DURATION} orders/s ${submit['2xx'] / DURATION >= 500 ? 'met' : 'NOT met'}`);
  console.log(`  list p99 <= 20 ms: ${list.latency.p99} ms ${list.latency.p99 <= 20 ? 'met' : 'NOT met'}`);
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
