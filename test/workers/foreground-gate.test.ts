// Background jobs behind the foreground gate wait while this thread's event loop is saturated, start once
// it has room, and never wait longer than their bound. The loop is saturated for real: back-to-back
// 20 ms stretches of synchronous work, timers still running between them as they do under requests.
import t from 'tap';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { foregroundGate } from '../../src/workers/foreground-gate.js';

/** Keeps the event loop busy until the returned stop() is called (or `forMs` has passed); resolves `ended` then. */
function saturate(forMs: number): { ended: Promise<number> } {
  const until = performance.now() + forMs;
  let done!: (at: number) => void;
  const ended = new Promise<number>((resolve) => {
    done = resolve;
  });
  const spin = (): void => {
    const stretch = performance.now() + 20;
    while (performance.now() < stretch);
    if (performance.now() < until) setImmediate(spin);
    else done(performance.now());
  };
  setImmediate(spin);
  return { ended };
}

t.test('on an idle loop a job starts at once', async (t) => {
  const gate = foregroundGate({ maxWaitMs: 5000 });
  await sleep(150);
  const order: string[] = [];
  const timer = sleep(50).then(() => order.push('timer'));
  await gate();
  order.push('job');
  await timer;
  t.same(order, ['job', 'timer']);
});

t.test('a job waits while the loop is saturated and starts once it has room', async (t) => {
  const gate = foregroundGate({ maxWaitMs: 10_000 });
  const busy = saturate(700);
  await sleep(150); // the first window: saturated
  let busyEndedAt: number | undefined;
  void busy.ended.then((at) => {
    busyEndedAt = at;
  });
  await gate();
  const startedAt = performance.now();
  t.ok(busyEndedAt !== undefined && startedAt >= busyEndedAt, 'the job started after the busy stretch ended');
  t.ok(startedAt - (busyEndedAt ?? 0) < 5000, 'and soon after it');
});

t.test('a job never waits longer than its bound', async (t) => {
  const gate = foregroundGate({ maxWaitMs: 300 });
  const busy = saturate(2000);
  await sleep(150);
  let ended = false;
  void busy.ended.then(() => {
    ended = true;
  });
  const calledAt = performance.now();
  await gate();
  const waited = performance.now() - calledAt;
  t.notOk(ended, 'started while the loop was still saturated');
  t.ok(waited >= 290, `waited its bound (${waited.toFixed(0)} ms)`);
  await busy.ended;
});

t.test('a bound of 0 lets every job through at once', async (t) => {
  const gate = foregroundGate({ maxWaitMs: 0 });
  const busy = saturate(600);
  await sleep(150);
  let ended = false;
  void busy.ended.then(() => {
    ended = true;
  });
  await gate();
  t.notOk(ended, 'started while the loop was saturated');
  await busy.ended;
});
