// Background jobs behind the foreground gate wait while this thread's event loop is saturated, start once
// it has room, and never wait longer than their bound. The loop is saturated for real: back-to-back
// 20 ms stretches of synchronous work, timers still running between them as they do under requests.
import t from 'tap';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { foregroundGate } from '../../src/workers/foreground-gate.js';

/** A stretch of saturation: `endedAt` is set (and `ended` resolves) when it is over. */
interface Busy {
  ended: Promise<void>;
  endedAt: number | undefined;
}

/** Keeps the event loop busy for `forMs`, starting in 150 ms' time: the gate's first window is then saturated. */
async function saturate(forMs: number): Promise<Busy> {
  const until = performance.now() + forMs;
  const busy: Busy = { ended: Promise.resolve(), endedAt: undefined };
  busy.ended = new Promise<void>((resolve) => {
    const spin = (): void => {
      const stretch = performance.now() + 20;
      while (performance.now() < stretch);
      if (performance.now() < until) setImmediate(spin);
      else {
        busy.endedAt = performance.now();
        resolve();
      }
    };
    setImmediate(spin);
  });
  await sleep(150);
  return busy;
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
  const busy = await saturate(700);
  await gate();
  const startedAt = performance.now();
  t.ok(busy.endedAt !== undefined && startedAt >= busy.endedAt, 'the job started after the busy stretch ended');
  t.ok(startedAt - (busy.endedAt ?? 0) < 5000, 'and soon after it');
});

t.test('a job never waits longer than its bound', async (t) => {
  const gate = foregroundGate({ maxWaitMs: 300 });
  const busy = await saturate(2000);
  const calledAt = performance.now();
  await gate();
  const waited = performance.now() - calledAt;
  t.equal(busy.endedAt, undefined, 'started while the loop was still saturated');
  t.ok(waited >= 290, `waited its bound (${waited.toFixed(0)} ms)`);
  await busy.ended;
});

t.test('a bound of 0 lets every job through at once', async (t) => {
  const gate = foregroundGate({ maxWaitMs: 0 });
  const busy = await saturate(600);
  await gate();
  t.equal(busy.endedAt, undefined, 'started while the loop was saturated');
  await busy.ended;
});
