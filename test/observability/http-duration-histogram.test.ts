// The HTTP latency histogram renders what a prom-client Histogram renders for the same requests:
// the same lines (series order within the family aside, which Prometheus ignores), and /metrics of a
// running service still carries it (test/api/operability.test.ts).
import t from 'tap';
import { Histogram, Registry } from 'prom-client';
import { HttpDurationHistogram } from '../../src/observability/http-duration-histogram.js';

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const name = 'orders_http_request_duration_seconds';
const help = 'HTTP request latency by route and status';

// Interleaved label sets, values on bucket bounds (a bound is inclusive), between them and past the last.
const requests: [string, string, number, number][] = [
  ['GET', '/api/v1/orders/detailed-orders/:id/', 200, 0.0004],
  ['POST', '/api/v1/orders/submit-order/', 201, 0.001],
  ['GET', '/api/v1/orders/detailed-orders/:id/', 404, 0.0025],
  ['GET', '/api/v1/orders/detailed-orders/:id/', 200, 0.0031],
  ['GET', 'unmatched', 404, 3.7],
  ['POST', '/api/v1/orders/submit-order/', 400, 0.5],
  ['GET', '/api/v1/orders/detailed-orders/:id/', 200, 2.5],
  ['GET', '/route/with "quotes" and \\ backslash/', 200, 0.02],
];

const lines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .sort();

t.test('the same text as prom-client for the same observations', async (t) => {
  const theirs = new Registry();
  const reference = new Histogram({ name, help, labelNames: ['method', 'route', 'status'], buckets, registers: [theirs] });
  const ours = new Registry();
  const histogram = new HttpDurationHistogram({ name, help, buckets, registers: [ours] });
  for (const [method, route, status, seconds] of requests) {
    reference.observe({ method, route, status: String(status) }, seconds);
    histogram.observe(method, route, status, seconds);
  }
  const expected = lines(await theirs.metrics());
  t.same(lines(await ours.metrics()), expected);
  t.ok(
    expected.includes(`${name}_count{method="GET",route="/api/v1/orders/detailed-orders/:id/",status="200"} 3`),
    'the reference counted what was observed',
  );
  t.ok(
    expected.includes(`${name}_bucket{le="0.001",method="POST",route="/api/v1/orders/submit-order/",status="201"} 1`),
    'a value on a bound falls in that bucket',
  );
});

t.test('reset forgets every series', async (t) => {
  const registry = new Registry();
  const histogram = new HttpDurationHistogram({ name, help, buckets, registers: [registry] });
  histogram.observe('GET', '/x/', 200, 0.01);
  registry.resetMetrics();
  t.same(lines(await registry.metrics()), [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`].sort());
});
