// npm run bench:memory [-- --orders 10000,100000,1000000 --retrieves N --submits N --downloads N --baseline-build DIR]
// The service's memory as orders pile up (issue 39): for each size, N orders written into a fresh log
// (load-orders.ts, straight into the file), the service started on it and left until its read model
// shows them all and it is idle, then a workload (retrieves of random orders, submits that are planned,
// and their PDFs downloaded, in every script the PDF prints), then restarted on what it built and given
// the same workload. At each point: RSS (anonymous and file-backed) and its peak from /proc,
// and by component from the service's orders_memory_bytes and Node's own heap metrics on /metrics.
// Prints each point per size, and RSS at each size against the first one (target: the largest at most
// 1.2x the smallest). --baseline-build DIR: another checkout's build beside it, same log, same workload.
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_SEED_FILE } from '../src/config.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { writeOrders } from './load-orders.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { numberOption } from './lib/number-option.js';
import { runOptions, serverRuns } from './lib/server-runs.js';
import { DEMO_KEY, processMemory, startServiceProcess, waitForIdle, waitForOrders } from './lib/service-process.js';

const args = process.argv.slice(2);
const sizesArg = args.indexOf('--orders');
const SIZES = (sizesArg >= 0 ? args[sizesArg + 1]! : '10000,100000,1000000').split(',').map(Number);
const RETRIEVES = numberOption(args, 'retrieves', 50_000);
const SUBMITS = numberOption(args, 'submits', 200);
const DOWNLOADS = Math.min(SUBMITS, numberOption(args, 'downloads', 20));
const auth = { authorization: `Api-Key ${DEMO_KEY}` };

interface Sample {
  rss: number;
  anon: number;
  file: number;
  peak: number;
  components: Map<string, number>;
}

async function metricsOf(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values = new Map<string, number>();
  const mib = (bytes: string) => Number(bytes) / 2 ** 20;
  for (const line of text.split('\n')) {
    const component = /^orders_memory_bytes\{component="([^"]+)"\} (\S+)/.exec(line);
    if (component) values.set(component[1]!, mib(component[2]!));
    const node = /^(nodejs_heap_size_total_bytes|nodejs_heap_size_used_bytes|nodejs_external_memory_bytes) (\S+)/.exec(line);
    if (node) values.set(node[1]!.replace(/^nodejs_|_bytes$/g, ''), mib(node[2]!));
  }
  return values;
}

// The service gives back heap it no longer needs once it has been idle for a few seconds
// (src/memory/release-heap-when-idle.ts): sampled after that.
const SETTLE_MS = 15_000;

async function sample(child: ChildProcess, url: string): Promise<Sample> {
  await waitForIdle(child.pid!);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const components = await metricsOf(url);
  return { ...processMemory(child.pid!), components };
}

const demo = JSON.parse(readFileSync(DEMO_SEED_FILE, 'utf8'));
const lane = demo.company_groups[0].lanes[0];
const laneDocument: LaneDocument = { ...lane, items: lane.items.map((item: { upright?: boolean }) => ({ upright: false, ...item })) };
// Every script the PDF prints, so that the PDF thread opens every font family.
const NOTES = 'Łódź Ελλάδα · شركة · עברית · नमस्ते · ภาษาไทย · 日本 · 东莞贸易 · 서울';

async function workload(url: string, orders: number, run: string): Promise<void> {
  await autocannon({
    url,
    connections: 10,
    amount: RETRIEVES,
    headers: auth,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: `/api/v1/orders/detailed-orders/${1 + Math.floor(Math.random() * orders)}/` }),
      },
    ],
  });
  let n = 0;
  await autocannon({
    url,
    connections: 4,
    amount: SUBMITS,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/orders/submit-order/',
        headers: { ...auth, 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            supplier_name: lane.supplier,
            consignee_name: lane.consignee,
            transportation_mode: 'OceanFCL',
            reference: `MEM-${run}-${++n}`,
            order_items: [
              { item: lane.items[n % lane.items.length].sku, quantity: 40 + (n % 200), purchase_order: 'PO-M', line_item_number: '1' },
            ],
            order_containers: [{ code: '40ft' }],
            customer_notes: NOTES,
            send_email: false,
          }),
        }),
      },
    ],
  });
  // Their PDFs, downloaded: drawn on the PDF thread at once. (E-mailed, they would wait behind the
  // e-mail consumer's outcomes of every loaded order, minutes with a million.)
  for (let i = 1; i <= DOWNLOADS; i++) {
    const path = `/api/v1/orders/download-packing-instructions/?order=MEM-${run}-${i}`;
    // Refused until the order is planned.
    for (const deadline = Date.now() + 120_000; ; ) {
      const response = await fetch(`${url}${path}`, { headers: auth });
      const body = await response.text();
      if (response.status === 200) break;
      if (Date.now() > deadline) throw new Error(`${path}: ${response.status} ${body}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const root = mkdtempSync(join(tmpdir(), 'bench-memory-'));
const children = new Set<ChildProcess>();
const stop = async (child: ChildProcess) => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  children.delete(child);
};
const POINTS = ['caught up', 'after the workload', 'restarted', 'restarted, after the workload'] as const;
const runs = await serverRuns(runOptions(args));
const results = runs.map(() => new Map<number, Sample[]>());
try {
  console.log(formatNoise('before the runs', measureNoise()));
  for (const size of SIZES) {
    const logDir = join(root, `log-${size}`);
    let t0 = performance.now();
    const events = await writeOrders(logDir, size, demo.company_groups[0].name, laneDocument);
    console.log(`\n${size} orders: ${events} events written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const [r, run] of runs.entries()) {
      const dataDir = join(root, `service-${size}-${r}`);
      cpSync(logDir, dataDir, { recursive: true });
      const samples: Sample[] = [];
      for (const restart of [false, true]) {
        t0 = performance.now();
        const { child, url } = await startServiceProcess(
          run.script,
          { PORT: '0', HOST: '127.0.0.1', ORDERS_DATA_DIR: dataDir, ...run.env },
          root,
          `service-${size}-${r}-${restart ? 'restart' : 'first'}`,
        );
        children.add(child);
        await waitForOrders(url, size);
        await waitForIdle(child.pid!);
        console.log(
          `  ${run.label}: ${restart ? 'restarted' : 'started, caught up'} and idle after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
        samples.push(await sample(child, url));
        await workload(url, size, `${r}-${restart ? 'b' : 'a'}`);
        await waitForOrders(url, size + SUBMITS * (restart ? 2 : 1));
        await waitForIdle(child.pid!);
        samples.push(await sample(child, url));
        await stop(child);
      }
      results[r]!.set(size, samples);
      rmSync(dataDir, { recursive: true, force: true });
    }
    rmSync(logDir, { recursive: true, force: true });
  }

  const f = (mib: number | undefined) => (mib === undefined ? '-' : mib.toFixed(0)).padStart(7);
  for (const [r, run] of runs.entries()) {
    console.log(
      `\n${run.label}: MiB (${RETRIEVES} retrieves of random orders on 10 connections and ${SUBMITS} submits on 4 per workload, ${DOWNLOADS} of their PDFs downloaded)`,
    );
    const names = [...new Set([...results[r]!.values()].flatMap((samples) => samples.flatMap((s) => [...s.components.keys()])))].sort();
    console.log(
      `${'orders'.padStart(8)}  ${'point'.padEnd(30)} ${'RSS'.padStart(7)} ${'anon'.padStart(7)} ${'file'.padStart(7)} ${'peak'.padStart(7)}  ${names.map((n) => n.padStart(Math.max(7, n.length))).join(' ')}`,
    );
    for (const [size, samples] of results[r]!) {
      samples.forEach((s, i) =>
        console.log(
          `${String(size).padStart(8)}  ${POINTS[i]!.padEnd(30)} ${f(s.rss)} ${f(s.anon)} ${f(s.file)} ${f(s.peak)}  ${names.map((n) => f(s.components.get(n)).padStart(Math.max(7, n.length))).join(' ')}`,
        ),
      );
    }
    const first = results[r]!.get(SIZES[0]!)!;
    for (const size of SIZES.slice(1)) {
      const samples = results[r]!.get(size)!;
      console.log(
        `  RSS with ${size} orders / with ${SIZES[0]}: ${samples.map((s, i) => `${POINTS[i]} ${(s.rss / first[i]!.rss).toFixed(2)}x`).join(', ')}`,
      );
    }
  }
  const largest = SIZES[SIZES.length - 1]!;
  const worst = Math.max(...results[0]!.get(largest)!.map((s, i) => s.rss / results[0]!.get(SIZES[0]!)![i]!.rss));
  console.log(
    `\ntarget (issue 39): RSS with ${largest} orders at most 1.2x RSS with ${SIZES[0]}, at every point: worst ${worst.toFixed(2)}x ${worst <= 1.2 ? 'met' : 'NOT met'}`,
  );
  console.log(formatNoise('after the runs', measureNoise()));
  rmSync(root, { recursive: true, force: true });
} catch (error) {
  console.error(`failed; the services' logs are in ${root}`);
  throw error;
} finally {
  for (const child of children) child.kill('SIGKILL');
}
