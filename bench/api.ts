// npm run bench:api [-- --orders N --rounds R --round-duration S --duration S --connections C --submit-connections C
//                      --servers --baseline-build DIR]
// Loopback load with autocannon against the service on the embedded default, side by side with a
// bare Koa route in its own process answering with the bytes of a retrieve, in the same run. Reads on
// --connections (10), submits on --submit-connections (16, as issue 27 measures them). Prints req/s,
// p99, the ratios to the bare route, the service's RSS with 100,000 orders stored, and each figure
// against issue 27's targets with the machine's noise.
// --servers: a second service on a copy of the same log, its read models, checkpoints and delivery
// store on the test servers' MongoDB and its notifications to their Kafka (scripts/test-servers), in
// the same rounds, with its ratios to the embedded one.
// --baseline-build DIR: another checkout's build on its own copy of the log, in the same rounds.
// Each run has the machine to itself: the other processes the bench started are stopped while it runs.
import autocannon, { type Request, type Result } from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_SEED_FILE } from '../src/config.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { writeOrders } from './load-orders.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';
import { runOptions, serverRuns } from './lib/server-runs.js';
import { DEMO_KEY, rssMiB, startServiceProcess, waitForIdle, waitForOrders } from './lib/service-process.js';
import { numberOption } from './lib/number-option.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const ORDERS = option('orders', 100_000);
// Reads run in many short rounds, each read next to a bare-route run, so that a ratio compares runs a
// few seconds apart: on this VM the bare route alone moves by a third between runs a minute apart.
const ROUND_DURATION = option('round-duration', 4);
const DURATION = option('duration', 10);
const CONNECTIONS = option('connections', 10);
// Issue 27 measures durable submits with 16 clients at once: group commit shares an fsync among them.
const SUBMIT_CONNECTIONS = option('submit-connections', 16);
const WARM_UP = option('warm-up', 1);
const ROUNDS = option('rounds', 9);
const KEY = DEMO_KEY;
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const start = (script: string, env: Record<string, string> = {}, logName = basename(script)) =>
  startServiceProcess(script, env, dataDir, logName);

const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
const children: ChildProcess[] = [];
try {
  const demo = JSON.parse(readFileSync(DEMO_SEED_FILE, 'utf8'));
  const lane = demo.company_groups[0].lanes[0];
  const laneDocument: LaneDocument = { ...lane, items: lane.items.map((item: { upright?: boolean }) => ({ upright: false, ...item })) };

  let t0 = performance.now();
  await writeOrders(dataDir, ORDERS, demo.company_groups[0].name, laneDocument);
  console.log(`loaded ${ORDERS} orders into the event store in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // One service per run, each on its own copy of the loaded log.
  const services: { label: string; child: ChildProcess; url: string; rssLoaded: number }[] = [];
  for (const [i, run] of (await serverRuns(runOptions(args))).entries()) {
    const dir = join(dataDir, `service-${i}`);
    mkdirSync(dir);
    copyFileSync(join(dataDir, 'events.db'), join(dir, 'events.db'));
    t0 = performance.now();
    const service = await start(run.script, { PORT: '0', HOST: '127.0.0.1', ORDERS_DATA_DIR: dir, ...run.env }, `service-${i}`);
    children.push(service.child);
    await waitForOrders(service.url, ORDERS);
    console.log(`${run.label}: service started and projected ${ORDERS} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // The planning reactor and the notification consumers catch up with the loaded log too; measure after.
    await waitForIdle(service.child.pid!);
    console.log(`${run.label}: service idle after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    services.push({ label: run.label, ...service, rssLoaded: rssMiB(service.child.pid!) });
  }

  // The yardstick serves the bytes of a retrieve: order 1's body as the first service answers it.
  const sample = await fetch(`${services[0]!.url}/api/v1/orders/detailed-orders/1/`, { headers: { authorization: `Api-Key ${KEY}` } });
  const sampleBody = await sample.text();
  if (sample.status !== 200) throw new Error(`retrieve of order 1 answered ${sample.status}: ${sampleBody}`);
  writeFileSync(join(dataDir, 'bare-body.json'), sampleBody);
  const bare = await start(here('./bare-koa.js'), { BARE_BODY_FILE: join(dataDir, 'bare-body.json') });
  children.push(bare.child);

  const auth = { authorization: `Api-Key ${KEY}` };
  // While one process is measured, every other one this bench started is stopped (SIGSTOP) and continued
  // after: builds differ in what they do when idle (a scrubber's pace, timers), and that work, run beside
  // the one measured, was charged to it. What a stopped process owes (its timers) it does in its own
  // warm-up, which is not counted.
  const alone = async <T>(child: ChildProcess, measure: () => Promise<T>): Promise<T> => {
    const others = children.filter((other) => other !== child && other.exitCode === null && other.signalCode === null);
    for (const other of others) other.kill('SIGSTOP');
    try {
      return await measure();
    } finally {
      for (const other of others) other.kill('SIGCONT');
    }
  };
  // Each run starts with an uncounted warm-up, so that JIT compilation and cold caches do not count.
  const run = (
    { child, url }: { child: ChildProcess; url: string },
    requests: Request[],
    duration = ROUND_DURATION,
    connections = CONNECTIONS,
  ) =>
    alone(child, async () => {
      await autocannon({ url, connections, duration: WARM_UP, headers: auth, requests });
      return autocannon({ url, connections, duration, headers: auth, requests });
    });
  let reference = 0;
  const order = JSON.parse(
    JSON.stringify({
      supplier_name: lane.supplier,
      consignee_name: lane.consignee,
      transportation_mode: 'OceanFCL',
      order_items: [{ item: lane.items[0].sku, quantity: 40, purchase_order: 'PO-B', line_item_number: '1' }],
      order_containers: [{ code: '40ft' }],
    }),
  );

  // Reads alternate with the bare route over several rounds and each figure is the median of its
  // rounds, so that drift in the machine's speed lands on both sides of a ratio. Submit runs last:
  // the orders it creates are planned in the background, which would slow whatever came after.
  const retrieve: Request[] = [
    {
      method: 'GET',
      setupRequest: (request) => ({ ...request, path: `/api/v1/orders/detailed-orders/${1 + Math.floor(Math.random() * ORDERS)}/` }),
    },
  ];
  const list: Request[] = [{ method: 'GET', path: '/api/v1/orders/detailed-orders/' }];
  const bareRoute: Request[] = [{ method: 'GET', path: '/bare/' }];
  const rounds = { bare: [] as Result[], retrieve: services.map((): Result[] => []), list: services.map((): Result[] => []) };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.bare.push(await run(bare, bareRoute));
    for (const [i, service] of services.entries()) {
      rounds.retrieve[i]!.push(await run(service, retrieve));
      rounds.list[i]!.push(await run(service, list));
    }
  }
  const submits: Result[] = [];
  const rssAfter: number[] = [];
  for (const service of services) {
    submits.push(
      await run(
        service,
        [
          {
            method: 'POST',
            path: '/api/v1/orders/submit-order/',
            headers: { ...auth, 'content-type': 'application/json' },
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ ...order, reference: `BENCH-${process.pid}-${++reference}` }),
            }),
          },
        ],
        DURATION,
        SUBMIT_CONNECTIONS,
      ),
    );
    // Its planner threads would go on planning the thousands of orders just submitted, on the cores
    // the next service's submits need: it is stopped once its figures are in.
    rssAfter.push(rssMiB(service.child.pid!));
    service.child.kill('SIGKILL');
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rate = (results: Result[]) => median(results.map((result) => result.requests.average));
  const p99 = (results: Result[]) => median(results.map((result) => result.latency.p99));
  const failures = (results: Result[]) => results.reduce((sum, result) => sum + result.non2xx + result.errors, 0);
  const bareRate = rate(rounds.bare);
  const bareRates = rounds.bare.map((result) => result.requests.average);
  const noise = (Math.max(...bareRates) - Math.min(...bareRates)) / bareRate;

  console.log(
    `\n${CONNECTIONS} connections for reads, ${ROUND_DURATION} s per run after ${WARM_UP} s of warm-up in ${ROUNDS} rounds (medians); submit ${DURATION} s on ${SUBMIT_CONNECTIONS} connections; loopback, ${ORDERS} orders stored\n`,
  );
  console.log(`the bare route answers with the ${Buffer.byteLength(sampleBody)} bytes of order 1's retrieve body\n`);
  console.log('operation                              req/s     p99 ms   x bare   non-2xx');
  const row = (name: string, reqs: number, latency: number, failed: number) =>
    console.log(
      `${name.padEnd(37)} ${reqs.toFixed(0).padStart(7)}  ${latency.toFixed(1).padStart(8)}  ${(reqs / bareRate).toFixed(2).padStart(6)}   ${failed}`,
    );
  row('bare Koa route', bareRate, p99(rounds.bare), failures(rounds.bare));
  for (const [i, service] of services.entries()) {
    row(`retrieve, ${service.label}`, rate(rounds.retrieve[i]!), p99(rounds.retrieve[i]!), failures(rounds.retrieve[i]!));
    row(`list (page 1), ${service.label}`, rate(rounds.list[i]!), p99(rounds.list[i]!), failures(rounds.list[i]!));
    row(`submit, ${service.label}`, submits[i]!.requests.average, submits[i]!.latency.p99, submits[i]!.non2xx + submits[i]!.errors);
  }
  const pairedRatios = rounds.retrieve[0]!.map((result, i) => result.requests.average / bareRates[i]!);
  const pairedRatio = median(pairedRatios);
  console.log(`\nretrieve / bare, round by round: ${pairedRatios.map((r) => r.toFixed(2)).join(', ')} (median ${pairedRatio.toFixed(2)})`);
  if (services.length === 2) {
    const byRound = (kind: 'retrieve' | 'list') =>
      median(rounds[kind][1]!.map((result, i) => result.requests.average / rounds[kind][0]![i]!.requests.average));
    const submitRatio = submits[1]!.requests.average / submits[0]!.requests.average;
    console.log(
      `${services[1]!.label} / ${services[0]!.label}, round by round (medians): retrieve ${byRound('retrieve').toFixed(2)}x, list ${byRound('list').toFixed(2)}x; submit ${submitRatio.toFixed(2)}x`,
    );
  }
  console.log(
    `noise: the bare route's rounds span ${(noise * 100).toFixed(1)} % of its median (${bareRates.map((r) => r.toFixed(0)).join(', ')} req/s)`,
  );
  console.log(formatNoise('after the runs', measureNoise()));
  for (const [i, service] of services.entries())
    console.log(
      `service RSS, ${service.label}: ${service.rssLoaded.toFixed(0)} MiB with ${ORDERS} orders loaded, ${rssAfter[i]!.toFixed(0)} MiB after the runs`,
    );
  // Over the run's own length: autocannon stops at the first one-second tick after --duration, so a
  // run often lasts a second longer than asked, and dividing by --duration counted too many.
  const submittedPerSecond = (result: Result) => result['2xx'] / result.duration;
  const submitted = submittedPerSecond(submits[0]!);
  const listP99 = p99(rounds.list[0]!);
  console.log(`\ntargets (embedded; issue 27 for retrieve and submit), noise as above:`);
  // Judged on the median of the round-by-round ratios; the ratio of the two medians is printed beside it.
  console.log(
    `  retrieve >= 0.7x bare: ${pairedRatio.toFixed(2)}x by round (ratio of medians ${(rate(rounds.retrieve[0]!) / bareRate).toFixed(2)}x) ${pairedRatio >= 0.7 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `  submit >= 2,000 durable orders/s on ${SUBMIT_CONNECTIONS} connections: ${submitted.toFixed(0)} orders/s, p99 ${submits[0]!.latency.p99} ms ${submitted >= 2000 ? 'met' : 'NOT met'}`,
  );
  console.log(`  list p99 <= 20 ms: ${listP99} ms ${listP99 <= 20 ? 'met' : 'NOT met'}`);
  for (const [i, service] of services.entries()) {
    if (i === 0) continue;
    const retrieveByRound = median(rounds.retrieve[i]!.map((result, round) => result.requests.average / bareRates[round]!));
    console.log(
      `  ${service.label}, for comparison: retrieve ${retrieveByRound.toFixed(2)}x bare by round, submit ${submittedPerSecond(submits[i]!).toFixed(0)} orders/s (p99 ${submits[i]!.latency.p99} ms)`,
    );
  }
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
