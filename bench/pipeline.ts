// npm run bench:pipeline [-- --orders N --clients C --threads T --servers --baseline-build DIR --rounds R]
// Submits a burst of orders of about 500 units each to the service (a child process on the embedded
// default, at its default settings unless --threads says how many planner threads), back to back from
// C clients (default 4, as issue 27 measures), and times each from the submit request to its
// packing_instructions.ready webhook arriving at a loopback receiver. Prints p50/p95 of that time, the
// planner's share of it, how the planner's searches ended (`orders_planner_exit*` in /metrics, when the
// build counts them), and the p99 of retrieves sent one after another during the burst: whether the
// HTTP event loop stays responsive while the planner threads work. Each figure against its target.
// The planner's CPU per burst: the CPU time the service's worker threads spent from the first submit
// until every order was ready (/proc/<pid>/task/<tid>/stat, each task's utime + stime; the planner
// threads are the worker threads doing work: the PDF thread renders for e-mails only, and this
// bench's lane sends none), printed per thread.
// --servers: the same run again, in the same process, on the test servers (MONGODB_URL for the read
// models, checkpoints and delivery store, KAFKA_BROKERS for notifications; scripts/test-servers), and
// both side by side with their ratio. --baseline-build DIR: the same run on another checkout's build.
// --rounds R: every run R times, in turns (this build, the other, the other, this build, ...), so
// that the ratio of the planners' CPU per burst holds while the machine's load moves.
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { runOptions, serverRuns } from './lib/server-runs.js';
import { numberOption } from './lib/number-option.js';
import { pipelineBurst } from './lib/pipeline-orders.js';
import { startServiceProcess } from './lib/service-process.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const ORDERS = option('orders', 100);
const CLIENTS = option('clients', 4);
// Unset: the service's own default (ORDERS_PLANNER_THREADS unset), which is what is being judged.
const THREADS = args.includes('--threads') ? option('threads', 1) : undefined;
const ROUNDS = option('rounds', 1);
const KEY = 'bench-pipeline-key-0001';

// The same lane and orders every run (bench/lib/pipeline-orders.ts; bench:planner plans them in-process).
const burst = pipelineBurst(ORDERS);
const document = {
  company_groups: [
    {
      name: 'Bench Group',
      api_keys: [{ name: 'bench', key: KEY }],
      notification_emails: [],
      webhooks: [] as { url: string; secret: string }[],
      lanes: [burst.lane],
    },
  ],
};

/** CPU time (ms) of each task (thread) of a process, by thread id: utime + stime from /proc. */
function threadCpu(pid: number): Map<string, { name: string; ms: number }> {
  const ticksMs = 1000 / 100; // USER_HZ is 100 on Linux
  const out = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // the name is in parentheses and may hold spaces; the fields after it are space-separated
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, { name, ms: (Number(fields[11]) + Number(fields[12])) * ticksMs });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** Node's own threads (main, V8's compilers and GC, libuv's pool): every other is a worker thread. */
const NOT_WORKERS = /^(MainThread|node|V8Worker|DelayedTaskSche|SignalInspector|libuv-worker|inspector)/;

/** Worker threads' CPU between two readings: Node names them WorkerThread (or the name they were given). */
function workerCpu(before: ReturnType<typeof threadCpu>, after: ReturnType<typeof threadCpu>): { total: number; threads: number[] } {
  const threads: number[] = [];
  for (const [tid, { name, ms }] of after) {
    if (NOT_WORKERS.test(name)) continue;
    threads.push(ms - (before.get(tid)?.ms ?? 0));
  }
  threads.sort((a, b) => b - a);
  return { total: threads.reduce((a, b) => a + b, 0), threads };
}

/**
 * Waits until the worker threads are still (their start-up done: the PDF thread prepares its fonts,
 * each planner compiles its WebAssembly), so that the burst's CPU is the burst's: 300 ms without a
 * tick of CPU, or 10 s at most.
 */
async function workersSettled(pid: number): Promise<void> {
  let last = threadCpu(pid);
  for (let waited = 0; waited < 10_000; waited += 300) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = threadCpu(pid);
    if (workerCpu(last, now).total === 0) return;
    last = now;
  }
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

interface PipelineFigures {
  label: string;
  submitSeconds: number;
  totalSeconds: number;
  readyMs: number[];
  plannerMs: number[];
  plannerShares: number[];
  /** Latencies of the retrieves sent one after another from the first submit until every order was ready. */
  retrieveMs: number[];
  /** `orders_planner_exit*` lines of /metrics after the run: how the planner's searches ended. */
  plannerExits: string[];
  /** CPU ms of the service's worker threads from the first submit until every order was ready, in all and per thread. */
  plannerCpuMs: number;
  plannerThreadsCpuMs: number[];
}

/** The webhook receiver: when each order's packing_instructions.ready first arrived, by service ref. */
function readinessReceiver(readyAt: Map<string, number>): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const envelope = JSON.parse(body) as { data: { order_id: string } };
      if (!readyAt.has(envelope.data.order_id)) readyAt.set(envelope.data.order_id, performance.now());
      res.writeHead(200).end();
    });
  });
}

/** Per order: submit to ready, and the planner's time its OrderPlanned records (and that time's share of the first). */
async function orderTimes(
  url: string,
  headers: Record<string, string>,
  submittedAt: Map<string, number>,
  ids: Map<string, number>,
  readyAt: Map<string, number>,
): Promise<Pick<PipelineFigures, 'readyMs' | 'plannerMs' | 'plannerShares'>> {
  const readyMs: number[] = [];
  const plannerShares: number[] = [];
  const plannerMs: number[] = [];
  for (const [serviceRef, sentAt] of submittedAt) {
    const elapsed = readyAt.get(serviceRef)! - sentAt;
    readyMs.push(elapsed);
    const history = (await (await fetch(`${url}/api/v1/orders/detailed-orders/${ids.get(serviceRef)}/history/`, { headers })).json()) as {
      type: string;
      data: { plan?: { metrics: { planner_ms: number } } };
    }[];
    const planned = history.find((event) => event.type === 'OrderPlanned');
    const ms = planned?.data.plan?.metrics.planner_ms ?? 0;
    plannerMs.push(ms);
    plannerShares.push(ms / elapsed);
  }
  return { readyMs, plannerMs, plannerShares };
}

async function runPipeline(label: string, env: Record<string, string>, script: string): Promise<PipelineFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pipeline-'));
  let child: ChildProcess | undefined;
  const readyAt = new Map<string, number>();
  const receiver = readinessReceiver(readyAt);
  try {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const seedDocument = structuredClone(document);
    seedDocument.company_groups[0]!.webhooks.push({
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ready`,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(seedDocument));
    let url: string;
    ({ child, url } = await startServiceProcess(
      script,
      {
        PORT: '0',
        HOST: '127.0.0.1',
        ORDERS_DATA_DIR: dataDir,
        ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
        ...(THREADS === undefined ? {} : { ORDERS_PLANNER_THREADS: String(THREADS) }),
        LOG_LEVEL: 'warn',
        ...env,
      },
      dataDir,
      'service',
    ));
    const headers = { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' };

    const submittedAt = new Map<string, number>();
    const ids = new Map<string, number>();
    await workersSettled(child.pid!);
    const cpuBefore = threadCpu(child.pid!);
    const started = performance.now();
    // The probe: one retrieve at a time, of an order already submitted, for as long as the burst lasts.
    const retrieveMs: number[] = [];
    let burstOver = false;
    const probe = (async () => {
      while (!burstOver) {
        const id = ids.values().next().value;
        if (id === undefined) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        const sentAt = performance.now();
        const response = await fetch(`${url}/api/v1/orders/detailed-orders/${id}/`, { headers });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`retrieve answered ${response.status}`);
        retrieveMs.push(performance.now() - sentAt);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    let next = 0;
    const client = async () => {
      for (let i = next++; i < ORDERS; i = next++) {
        const body = JSON.stringify(burst.orders[i]);
        const sentAt = performance.now();
        const response = await fetch(`${url}/api/v1/orders/submit-order/`, { method: 'POST', headers, body });
        const created = (await response.json()) as { order_id: number; service_ref: string };
        if (response.status !== 201) throw new Error(`submit answered ${response.status}: ${JSON.stringify(created)}`);
        submittedAt.set(created.service_ref, sentAt);
        ids.set(created.service_ref, created.order_id);
      }
    };
    // The orders are made before the clients start, so that each run submits the same ones.
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const submitSeconds = (performance.now() - started) / 1000;
    while (readyAt.size < ORDERS) await new Promise((resolve) => setTimeout(resolve, 50));
    const totalSeconds = (performance.now() - started) / 1000;
    const planners = workerCpu(cpuBefore, threadCpu(child.pid!));
    burstOver = true;
    await probe;
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const plannerExits = metrics.split('\n').filter((line) => line.startsWith('orders_planner_exit'));

    return {
      label,
      submitSeconds,
      totalSeconds,
      ...(await orderTimes(url, headers, submittedAt, ids, readyAt)),
      retrieveMs,
      plannerExits,
      plannerCpuMs: planners.total,
      plannerThreadsCpuMs: planners.threads,
    };
  } finally {
    child?.kill('SIGKILL');
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const noiseBefore = measureNoise();
const runs: PipelineFigures[] = [];
const planned = await serverRuns(runOptions(args));
for (let round = 0; round < ROUNDS; round++) {
  // in turns: neither build always runs first, on a machine warmer or busier for it
  const inTurn = round % 2 === 0 ? planned : [...planned].reverse();
  for (const { label, env, script } of inTurn)
    runs.push(await runPipeline(ROUNDS > 1 ? `${label}, round ${round + 1}` : label, env, script));
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const threads = THREADS === undefined ? "the service's default planner threads" : `${THREADS} planner thread(s)`;
for (const run of runs) {
  console.log(
    `\n${run.label}: ${ORDERS} orders of about 500 units, submitted back to back by ${CLIENTS} clients in ${run.submitSeconds.toFixed(1)} s, all ready after ${run.totalSeconds.toFixed(1)} s, ${threads} (${availableParallelism()} cores available)`,
  );
  console.log(
    `submit to ready (webhook received): p50 ${percentile(run.readyMs, 50).toFixed(0)} ms, p95 ${percentile(run.readyMs, 95).toFixed(0)} ms, max ${Math.max(...run.readyMs).toFixed(0)} ms`,
  );
  console.log(
    `planner time per order: p50 ${percentile(run.plannerMs, 50).toFixed(0)} ms, p95 ${percentile(run.plannerMs, 95).toFixed(0)} ms; share of submit-to-ready: mean ${(mean(run.plannerShares) * 100).toFixed(0)} %`,
  );
  console.log(
    `planner busy ${(run.plannerMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s of ${run.totalSeconds.toFixed(1)} s: the rest of submit-to-ready is queueing behind earlier orders and delivery`,
  );
  console.log(
    `planner CPU per burst (worker threads, first submit to all ready): ${(run.plannerCpuMs / 1000).toFixed(2)} s (per thread ${run.plannerThreadsCpuMs.map((ms) => (ms / 1000).toFixed(2)).join(' / ')} s)`,
  );
  console.log(
    `retrieve during the burst (one at a time, ${run.retrieveMs.length} requests): p50 ${percentile(run.retrieveMs, 50).toFixed(1)} ms, p99 ${percentile(run.retrieveMs, 99).toFixed(1)} ms, max ${Math.max(...run.retrieveMs).toFixed(1)} ms`,
  );
  console.log(
    `planner exits (/metrics): ${run.plannerExits.length > 0 ? `\n  ${run.plannerExits.join('\n  ')}` : 'not counted by this build'}`,
  );
}
if (runs.length === 2 && ROUNDS === 1) {
  const [embedded, servers] = runs as [PipelineFigures, PipelineFigures];
  const ratio = (f: (run: PipelineFigures) => number) => (f(servers) / f(embedded)).toFixed(2);
  console.log(
    `\n${servers.label} / ${embedded.label}: submit phase ${ratio((r) => r.submitSeconds)}x, all ready ${ratio((r) => r.totalSeconds)}x, p50 ${ratio((r) => percentile(r.readyMs, 50))}x, p95 ${ratio((r) => percentile(r.readyMs, 95))}x`,
  );
}
if (planned.length > 1) {
  // each build's runs, and the ratio of every other build's planner CPU per burst to the first's, run by run
  const byBuild = planned.map(({ label }) => runs.filter((r) => r.label.startsWith(label)));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log('\nplanner CPU per burst and submit-to-ready p95, run by run:');
  planned.forEach(({ label }, i) => {
    const own = byBuild[i]!;
    console.log(
      `  ${label}: CPU ${own.map((r) => (r.plannerCpuMs / 1000).toFixed(2)).join(' / ')} s (median ${(median(own.map((r) => r.plannerCpuMs)) / 1000).toFixed(2)} s); p95 ${own.map((r) => percentile(r.readyMs, 95).toFixed(0)).join(' / ')} ms`,
    );
  });
  for (let i = 1; i < planned.length; i++) {
    const ratios = byBuild[0]!.map((r, k) => r.plannerCpuMs / byBuild[i]![k]!.plannerCpuMs);
    console.log(
      `  ${planned[0]!.label} / ${planned[i]!.label}, planner CPU per burst: ${ratios.map((x) => x.toFixed(2)).join(' / ')}x (median ${median(ratios).toFixed(2)}x)`,
    );
  }
}
console.log(formatNoise('before the runs', noiseBefore));
console.log(formatNoise('after the runs', measureNoise()));
console.log('\ntargets (issue 27), against the noise above:');
for (const run of runs) {
  const p95 = percentile(run.readyMs, 95);
  const retrieveP99 = percentile(run.retrieveMs, 99);
  console.log(
    `  ${run.label}: submit to ready p95 <= 2,000 ms: ${p95.toFixed(0)} ms ${p95 <= 2000 ? 'met' : 'NOT met'}; retrieve p99 during the burst < 50 ms: ${retrieveP99.toFixed(1)} ms ${retrieveP99 < 50 ? 'met' : 'NOT met'}`,
  );
}
