// Given the service's metrics, sampling the event loop every EVENT_LOOP_SAMPLE_MS (100 ms, not
// prom-client's 10: fewer wake-ups of an idle service), when the event loop is blocked, then the lag
// series still show the block.
import t from 'tap';
import { createMetrics, EVENT_LOOP_SAMPLE_MS } from '../../src/observability/metrics.js';

// prom-client sets every lag series when the registry is read whole (the lag gauge's collect sets them all).
const valuesOf = async (metrics: ReturnType<typeof createMetrics>): Promise<Map<string, number>> => {
  const lines = (await metrics.registry.metrics()).split('\n').filter((l) => l.startsWith('nodejs_eventloop_lag'));
  return new Map(lines.map((l) => [l.split(' ')[0]!, Number(l.split(' ')[1])]));
};

t.test('a 400 ms block of the event loop shows in the lag maximum', async (t) => {
  const metrics = createMetrics();
  await new Promise((resolve) => setTimeout(resolve, 3 * EVENT_LOOP_SAMPLE_MS));
  const until = performance.now() + 400;
  while (performance.now() < until); // blocked
  await new Promise((resolve) => setTimeout(resolve, 2 * EVENT_LOOP_SAMPLE_MS));
  const lag = await valuesOf(metrics);
  const max = lag.get('nodejs_eventloop_lag_max_seconds') ?? 0;
  t.ok(max >= 0.25, `nodejs_eventloop_lag_max_seconds ${max}: the block was seen`);
  t.ok(max < 5, 'and in seconds');
});
