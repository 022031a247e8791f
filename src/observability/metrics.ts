// Prometheus metrics (prom-client), one registry per service instance so that tests can run
// several services in one process.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PlanMetrics } from '../plan-contract/plan-types.js';
import { HttpDurationHistogram } from './http-duration-histogram.js';

export interface Metrics {
  registry: Registry;
  httpDuration: HttpDurationHistogram;
  plannerDuration: Histogram<'outcome'>;
  /**
   * Read-model documents found not matching their checksum (or the log, by the scrubber) and folded again
   * from the log; WHOLE_READ_MODEL: its storage found damaged (at start, or by a read) and rebuilt from the log.
   */
  readModelRepairs: Counter<'document'>;
  /** Breaks of the log's hash chain found by the scrubber's passes, one per finding (the same break found again is not counted again). */
  logChainBreaks: Counter;
  /** Events this replica applied to the order read model: its writes there (one projector for all replicas holds them to one per event). */
  readModelWrites: Counter;
  /** One per planner run on this replica: `discarded` when another replica had stored the order's result first, `superseded` when the order changed while it planned. */
  plannerRuns: Counter<'outcome'>;
  /** One per stored plan, by how its search ended (PlanExit: lower_bound, searched, time_limit). */
  plannerExits: Counter<'exit'>;
  /** The block searches in stored plans, by how each ended (all_placed, effort, widest_beam, time_limit). */
  plannerSearchExits: Counter<'exit'>;
  /** Registers a gauge whose value is read when /metrics is scraped. */
  gauge(name: string, help: string, read: () => Promise<number> | number): void;
  /** The same with one label: `read` gives each label value's number. */
  labelledGauge(name: string, help: string, label: string, read: () => Promise<Record<string, number>> | Record<string, number>): void;
}

/** The `document` of orders_read_model_repairs_total when the read model's storage was damaged and all of it is rebuilt. */
export const WHOLE_READ_MODEL = 'whole read model';

/** How often the event-loop lag is sampled (prom-client's eventLoopMonitoringPrecision). */
export const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics(): Metrics {
  const registry = new Registry();
  // The event-loop lag series sample every 100 ms, not prom-client's default 10: each sample is a timer
  // that wakes the loop, and 100 a second were most of an idle service's wake-ups (docs/operations.md).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return {
    registry,
    // Its _count series is the request counter: a separate counter cost as much again per request.
    httpDuration: new HttpDurationHistogram({
      name: 'orders_http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    plannerDuration: new Histogram({
      name: 'orders_planner_duration_seconds',
      help: 'Time from picking up a submitted order to storing its plan',
      labelNames: ['outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
    readModelRepairs: new Counter({
      name: 'orders_read_model_repairs_total',
      help: 'Read-model documents found damaged and repaired from the log, by document (order, pallet contents; whole read model: its storage found damaged and all of it rebuilt)',
      labelNames: ['document'],
      registers: [registry],
    }),
    logChainBreaks: new Counter({
      name: 'orders_log_chain_breaks_total',
      help: "Breaks of the event log's hash chain found by the read-model scrubber's passes, one per finding (a pass that finds the same break again does not count it again)",
      registers: [registry],
    }),
    readModelWrites: new Counter({
      name: 'orders_read_model_writes_total',
      help: 'Events this replica applied to the order read model (its writes there); summed over the replicas, one per event when one replica projects',
      registers: [registry],
    }),
    plannerRuns: new Counter({
      name: 'orders_planner_runs_total',
      help: 'Planner runs on this replica by what became of the result: stored, failed (OrderPlanningFailed stored), discarded (another replica had stored one), superseded (the order was amended or cancelled while it planned)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    plannerExits: new Counter({
      name: 'orders_planner_exits_total',
      help: 'Stored plans by how the search ended: lower_bound (a plan reached the lower bound and the rest of the search was skipped), searched (every candidate tried), time_limit',
      labelNames: ['exit'],
      registers: [registry],
    }),
    plannerSearchExits: new Counter({
      name: 'orders_planner_search_exits_total',
      help: 'Block searches (in the WebAssembly planner) of stored plans by how each ended: all_placed (every unit placed, returned at once), effort (budget spent), widest_beam, time_limit',
      labelNames: ['exit'],
      registers: [registry],
    }),
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(await read());
        },
      });
    },
    labelledGauge(name, help, label, read) {
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        async collect() {
          for (const [value, n] of Object.entries(await read())) this.set({ [label]: value }, n);
        },
      });
    },
  };
}

/** A stored plan's exits into orders_planner_exits_total and orders_planner_search_exits_total. */
export function countPlannerExits(metrics: Metrics, plan: PlanMetrics): void {
  if (plan.exit) metrics.plannerExits.inc({ exit: plan.exit });
  for (const [exit, n] of Object.entries(plan.search_exits ?? {})) if (n > 0) metrics.plannerSearchExits.inc({ exit }, n);
}
