// The HTTP latency histogram, observed once per request. prom-client's Histogram.observe takes a
// labels object per call, validates it and hashes it into a string key (sorting the label names):
// on a retrieve that was a measurable share of the whole request (docs/benchmarks.md).
// Here a request's cell is found through three small maps keyed by route, method and status, and
// counted in place; prom-client still renders it, from get(), in the text a prom-client Histogram
// gives: the same series, names and label order (le first on the buckets).
import type { Registry } from 'prom-client';

type Label = 'method' | 'route' | 'status';

/** One line of the text format, as prom-client's registry reads a metric's values. */
interface SeriesValue {
  metricName: string;
  labels: Record<string, string>;
  value: number;
}

interface Cell {
  labels: Record<Label, string>;
  /** Per bucket (the last one +Inf), not cumulative. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export interface HttpDurationOptions {
  name: string;
  help: string;
  /** Upper bounds in seconds, ascending. */
  buckets: readonly number[];
  registers: readonly Registry[];
}

export class HttpDurationHistogram {
  readonly name: string;
  readonly help: string;
  readonly #buckets: readonly number[];
  readonly #bucketLabels: readonly string[];
  // route -> method -> status -> cell
  #cells = new Map<string, Map<string, Map<number, Cell>>>();

  constructor(options: HttpDurationOptions) {
    this.name = options.name;
    this.help = options.help;
    this.#buckets = [...options.buckets];
    this.#bucketLabels = [...this.#buckets.map(String), '+Inf'];
    // prom-client's types admit only its own classes here; the registry itself asks only for name and get().
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#cells.get(route);
    if (!byMethod) this.#cells.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let cell = byStatus.get(status);
    if (!cell) {
      cell = { labels: { method, route, status: String(status) }, counts: new Float64Array(this.#buckets.length + 1), sum: 0, count: 0 };
      byStatus.set(status, cell);
    }
    let bucket = 0;
    while (bucket < this.#buckets.length && seconds > this.#buckets[bucket]!) bucket++;
    cell.counts[bucket]! += 1;
    cell.sum += seconds;
    cell.count += 1;
  }

  /** What the registry renders: cumulative buckets, then _sum and _count, per label set. */
  get(): { name: string; help: string; type: 'histogram'; values: SeriesValue[]; aggregator: 'sum' } {
    const values: SeriesValue[] = [];
    for (const byMethod of this.#cells.values()) {
      for (const byStatus of byMethod.values()) {
        for (const cell of byStatus.values()) {
          let cumulative = 0;
          cell.counts.forEach((count, i) => {
            cumulative += count;
            values.push({ metricName: `${this.name}_bucket`, labels: { le: this.#bucketLabels[i]!, ...cell.labels }, value: cumulative });
          });
          values.push({ metricName: `${this.name}_sum`, labels: { ...cell.labels }, value: cell.sum });
          values.push({ metricName: `${this.name}_count`, labels: { ...cell.labels }, value: cell.count });
        }
      }
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' };
  }

  reset(): void {
    this.#cells = new Map();
  }
}
