// The chaos harness: three replicas on three hosts against PostgreSQL, FerretDB and Kafka behind
// Toxiproxy; each fault of faults.ts during a burst of orders, a Kafka consumer that starts before the
// first order, a reader asking random replicas for acknowledged orders; then, once everything submitted
// has settled, the checker (checker.ts) over the log, the topic, the counters and the history.
// `npm run chaos` runs the long version; test/chaos/chaos.test.ts a short one under CI.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';
import { openPostgresEventStore } from '../../src/eventstore/postgres/postgres-event-store.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { check, type CheckResult, type KafkaRecord } from './checker.js';
import { startCluster, TOPIC, type Cluster } from './cluster.js';
import { FAULTS } from './faults.js';
import { workload } from './workload.js';

// kafkajs's 1 ms idle timer off for this process's own clients too (kafkajs-idle-timer.ts)
stopKafkajsIdleTimer();

export interface ChaosOptions {
  replicas: number;
  ordersPerPhase: number;
  concurrency: number;
  partitionMs: number;
  /** Only these faults (names); all when undefined. */
  faults?: readonly string[];
  /** How long to wait, after the last phase, for every stored order to be planned and announced. */
  settleMs: number;
  say(line: string): void;
  keepDir?: boolean;
  /** Added to every replica's environment. */
  env?: Record<string, string>;
}

export interface ChaosRun {
  result: CheckResult;
  hosts: string;
  /** Per phase, what the fault did, in the harness's words. */
  faults: { name: string; what: string; seconds: number }[];
}

export async function runChaos(options: ChaosOptions): Promise<ChaosRun> {
  const { say } = options;
  const dir = mkdtempSync(join(tmpdir(), 'orders-chaos-'));
  // PostgreSQL runs as its own user, which must reach its data directory inside.
  chmodSync(dir, 0o755);
  let cluster: Cluster | undefined;
  let consumer: ReturnType<Kafka['consumer']> | undefined;
  let scraping: NodeJS.Timeout | undefined;
  try {
    cluster = await startCluster({ dir, replicas: options.replicas, say, ...(options.env ? { env: options.env } : {}) });
    const running = cluster;
    const hosts =
      cluster.hosts.kind === 'netns'
        ? `network namespaces (${cluster.hosts.serverSide} is the servers' side)`
        : `loopback: ${cluster.hosts.reason}`;
    say(
      `${options.replicas} replicas up: ${cluster
        .live()
        .map((i) => i?.process.url)
        .join(', ')}`,
    );

    // The consumer a team deploys before the first order: a group of its own, from the topic's beginning.
    const records: KafkaRecord[] = [];
    const kafka = new Kafka({
      clientId: 'chaos-consumer',
      brokers: [cluster.brokers],
      logLevel: logLevel.NOTHING,
      retry: { retries: 100, maxRetryTime: 2_000 },
    });
    consumer = kafka.consumer({ groupId: `chaos-${Date.now()}`, retry: { retries: 100, maxRetryTime: 2_000 } });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        records.push({
          key: message.key?.toString() ?? '',
          eventId: message.headers?.['event-id']?.toString() ?? '',
          value: JSON.parse(message.value?.toString() ?? '{}') as KafkaRecord['value'],
        });
      },
    });

    scraping = setInterval(() => void running.scrape(), 500);
    const load = workload((replica) => running.live()[replica]?.process.url, options.replicas);
    let phase = 'start';
    const reader = load.startReader(() => phase);
    const faults: ChaosRun['faults'] = [];
    for (const fault of FAULTS.filter((f) => !options.faults || options.faults.includes(f.name))) {
      phase = fault.name;
      say(`fault ${fault.name}: ${fault.what}`);
      const started = Date.now();
      await fault.run({
        cluster,
        say: (line) => say(`  ${line}`),
        partitionMs: options.partitionMs,
        burst: () => load.burst(fault.name, options.ordersPerPhase, options.concurrency),
      });
      const seconds = (Date.now() - started) / 1000;
      faults.push({ name: fault.name, what: fault.what, seconds });
      say(`  ${load.history.filter((op) => op.phase === fault.name && op.kind === 'submit').length} submits in ${seconds.toFixed(1)} s`);
    }
    phase = 'settling';

    // Settled: every stored order has its result, and every planned one its message.
    const store = await openPostgresEventStore(cluster.logUrl, { callTimeoutMs: 10_000 });
    let log: RecordedEvent[] = [];
    try {
      const deadline = Date.now() + options.settleMs;
      for (;;) {
        log = await readWholeLog(store);
        const pending = unsettled(log, records);
        if (pending === 0) {
          say(
            `settled: every stored order has its result and every planned one its message (${((Date.now() - deadline + options.settleMs) / 1000).toFixed(1)} s)`,
          );
          break;
        }
        if (Date.now() > deadline) {
          say(`after ${options.settleMs / 1000} s, ${pending} order(s) still without a result or a message: the checker says which`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await reader.stop();
      clearInterval(scraping);
      scraping = undefined;
      await cluster.scrape();
      log = await readWholeLog(store);
    } finally {
      await store.close();
    }
    const incarnations = cluster
      .incarnations()
      .map((i) => ({ ...i.counters, countersAt: i.countersAt, ...(i.killedAt === undefined ? {} : { killedAt: i.killedAt }) }));
    const result = check({ history: load.history, log, kafka: records, incarnations });
    return { result, hosts, faults };
  } finally {
    clearInterval(scraping);
    await consumer?.disconnect().catch(() => {});
    await cluster?.stop();
    if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
    else say(`kept ${dir}`);
  }
}

async function readWholeLog(store: Awaited<ReturnType<typeof openPostgresEventStore>>): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll(events.at(-1)?.position, 2000);
    if (page.length === 0) return events;
    events.push(...page);
  }
}

/** Orders stored without a result or a cancel, or planned or cancelled without that message on the topic. */
function unsettled(log: readonly RecordedEvent[], records: readonly KafkaRecord[]): number {
  const streams = new Map<string, { serviceRef: string; result?: string; announce: string[] }>();
  for (const event of log) {
    if (event.type === 'OrderSubmitted')
      streams.set(event.stream, { serviceRef: (event.data as { service_ref: string }).service_ref, announce: [] });
    else if (event.type === 'OrderPlanned' || event.type === 'OrderPlanningFailed' || event.type === 'OrderCancelled') {
      const order = streams.get(event.stream);
      if (!order) continue;
      order.result = event.type;
      if (event.type !== 'OrderPlanningFailed') order.announce.push(`evt_${event.id}`);
    }
  }
  const announced = new Set(records.map((record) => record.eventId));
  let pending = 0;
  for (const order of streams.values()) if (!order.result || order.announce.some((id) => !announced.has(id))) pending++;
  return pending;
}

/** The report: the hosts, then per fault its figures and violations, then each property's line. */
export function report(run: ChaosRun): string[] {
  const lines = [`hosts: ${run.hosts}`];
  for (const fault of run.faults) {
    const phase = run.result.phases.get(fault.name);
    const latencies = [...(phase?.latencies ?? [])].sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    lines.push(
      `${fault.name} (${fault.what}): ${phase?.submits ?? 0} submits, ${phase?.acknowledged ?? 0} acknowledged (p50 ${p(0.5)} ms, p95 ${p(0.95)} ms), ${phase?.indeterminate ?? 0} indeterminate, ${phase?.retrieves ?? 0} retrieves, ${phase?.violations ?? 0} violations, ${fault.seconds.toFixed(1)} s`,
    );
  }
  lines.push(...run.result.lines);
  for (const violation of run.result.violations.slice(0, 50))
    lines.push(`VIOLATION ${violation.property}${violation.phase ? ` (${violation.phase})` : ''}: ${violation.detail}`);
  if (run.result.violations.length > 50) lines.push(`... and ${run.result.violations.length - 50} more violations`);
  lines.push(run.result.ok ? 'checker: every property holds' : `checker: ${run.result.violations.length} violation(s)`);
  return lines;
}
