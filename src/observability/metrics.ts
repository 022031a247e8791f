// Prometheus metrics (prom-client), one registry per service instance so that tests can run
// several services in one process.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  plannerDuration: Histogram<'outcome'>;
  /** Read-model documents found not matching their checksum (or the log, by the scrubber) and folded again from the log. */
  readModelRepairs: Counter<'document'>;
  /** One per planner run on this replica: `discarded` when another replica had stored the order's result first. */
  plannerRuns: Counter<'outcome'>;
  /** Registers a gauge whose value is read when /metrics is scraped. */
  gauge(name: string, help: string, read: () => Promise<number> | number): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    // Its _count series is the request counter: a separate counter cost as much again per request.
    httpDuration: new Histogram({
      name: 'orders_http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
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
      help: 'Read-model documents found damaged and repaired from the log, by document (order, pallet contents)',
      labelNames: ['document'],
      registers: [registry],
    }),
    plannerRuns: new Counter({
      name: 'orders_planner_runs_total',
      help: 'Planner runs on this replica by what became of the result: stored, failed (OrderPlanningFailed stored), discarded (another replica had stored one)',
      labelNames: ['outcome'],
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
  };
}
