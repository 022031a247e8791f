// Given the scrubber's pace at 50 orders a second, when orders are taken one after another, then none
// starts before its due time (the rate is a bound) and they come in a few batches, not one timer each:
// an idle service's wake-ups cost more than the comparisons they run.
import t from 'tap';
import { ScrubPace } from '../../../src/orders/read-model/scrub-pace.js';

/** Counts the pauses a pace asks for: a timer (ms > 0) wakes the process, a zero pause does not. */
function countedPauses(pace: ScrubPace): number[] {
  const asked: number[] = [];
  const pause = pace.pause.bind(pace);
  pace.pause = (ms: number) => {
    asked.push(ms);
    return pause(ms);
  };
  return asked;
}

t.test('orders never start before they are due, and go together in batches', async (t) => {
  const intervalMs = 20;
  const pace = new ScrubPace(intervalMs);
  const pauses = countedPauses(pace);
  const started = performance.now();
  const starts: number[] = [];
  for (let k = 1; k <= 30; k++) {
    await pace.nextOrder();
    starts.push(performance.now() - started);
  }
  starts.forEach((at, i) =>
    t.ok(at >= (i + 1) * intervalMs - 1, `order ${i + 1} at ${at.toFixed(1)} ms, due at ${(i + 1) * intervalMs} ms`),
  );
  // Counted from the pauses asked for, not from the clock, so that a busy machine (which makes timers
  // late, and so fewer) cannot make it fail: 600 ms of orders in timers of at least 200 ms.
  const timers = pauses.filter((ms) => ms > 0).length;
  t.ok(timers <= 5, `30 orders in ${timers} timers (one timer per order would be 30)`);
});

t.test('after a stall, at most a batch of orders catches up', async (t) => {
  const intervalMs = 50;
  const pace = new ScrubPace(intervalMs);
  const pauses = countedPauses(pace);
  await pace.nextOrder();
  const stalledUntil = performance.now() + 1000;
  while (performance.now() < stalledUntil); // the event loop blocked for a second: 20 orders' time
  pauses.length = 0;
  for (let k = 0; k < 20; k++) await pace.nextOrder();
  // the orders that went at once: those before the first timer after the stall
  const firstTimer = pauses.findIndex((ms) => ms > 0);
  const atOnce = firstTimer === -1 ? pauses.length : firstTimer;
  t.ok(atOnce <= 6, `${atOnce} orders went at once after the stall (200 ms of orders is 4 at this rate, and the one due)`);
  t.ok(atOnce >= 3, `${atOnce} orders went at once: the stall leaves a batch's credit`);
});

t.test('interrupt ends a pause at once', async (t) => {
  const pace = new ScrubPace(10_000);
  const waiting = pace.nextOrder(); // due in 10 s
  const before = performance.now();
  pace.interrupt();
  await waiting;
  // well under the 10 s pause, with room for a busy machine
  t.ok(performance.now() - before < 1000, 'the 10 s pause ended when interrupted');
});
