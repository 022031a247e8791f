// Given the scrubber's pace at 50 orders a second, when orders are taken one after another, then none
// starts before its due time (the rate is a bound) and they come in a few batches, not one timer each:
// an idle service's wake-ups cost more than the comparisons they run.
import t from 'tap';
import { ScrubPace } from '../../../src/orders/read-model/scrub-pace.js';

t.test('orders never start before they are due, and go together in batches', async (t) => {
  const intervalMs = 20;
  const pace = new ScrubPace(intervalMs);
  const started = performance.now();
  const starts: number[] = [];
  for (let k = 1; k <= 30; k++) {
    await pace.nextOrder();
    starts.push(performance.now() - started);
  }
  starts.forEach((at, i) =>
    t.ok(at >= (i + 1) * intervalMs - 1, `order ${i + 1} at ${at.toFixed(1)} ms, due at ${(i + 1) * intervalMs} ms`),
  );
  // a wake-up: an order that started more than half an interval after the one before it (one that
  // follows at once can be a few ms late on a busy machine, a timer's at least 200 ms)
  const wakeUps = starts.filter((at, i) => at - (starts[i - 1] ?? 0) > intervalMs / 2).length;
  t.ok(wakeUps <= 8, `30 orders in ${wakeUps} wake-ups (one timer per order would be 30)`);
});

t.test('after a stall, at most a batch of orders catches up', async (t) => {
  const intervalMs = 50;
  const pace = new ScrubPace(intervalMs);
  await pace.nextOrder();
  const stalledUntil = performance.now() + 1000;
  while (performance.now() < stalledUntil); // the event loop blocked for a second: 20 orders' time
  let last = performance.now();
  let atOnce = 0;
  for (let k = 0; k < 20; k++) {
    await pace.nextOrder();
    const now = performance.now();
    if (now - last > intervalMs / 2) break;
    last = now;
    atOnce++;
  }
  t.ok(atOnce <= 6, `${atOnce} orders went at once after the stall (200 ms of orders is 4 at this rate, and the one due)`);
  t.ok(atOnce >= 3, `${atOnce} orders went at once: the stall leaves a batch's credit`);
});

t.test('interrupt ends a pause at once', async (t) => {
  const pace = new ScrubPace(10_000);
  const waiting = pace.nextOrder(); // due in 10 s
  const before = performance.now();
  pace.interrupt();
  await waiting;
  t.ok(performance.now() - before < 50, 'the 10 s pause ended when interrupted');
});
