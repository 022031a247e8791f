// The retry schedule (pauses that double up to a ceiling, with jitter taken off their top) and the
// loop around it: it tries until an attempt succeeds, says what failed and how long it waits, and an
// abort ends it at once, even in the middle of a long pause.
import t from 'tap';
import { backoffDelay, pauseUnlessAborted, retryWithBackoff } from '../../src/storage/retry-with-backoff.js';

t.test('the pauses double from the first one', async (t) => {
  const pauses = [1, 2, 3, 4, 5].map((failures) => backoffDelay(failures, { firstDelayMs: 1000 }));
  t.strictSame(pauses, [1000, 2000, 4000, 8000, 16_000]);
});

t.test('the pauses stop growing at the ceiling: 60 s unless told otherwise', async (t) => {
  t.strictSame(
    [6, 7, 8, 100].map((failures) => backoffDelay(failures, { firstDelayMs: 1000 })),
    [32_000, 60_000, 60_000, 60_000],
  );
  t.strictSame(
    [1, 2, 3, 4, 50].map((failures) => backoffDelay(failures, { firstDelayMs: 40, maxDelayMs: 200 })),
    [40, 80, 160, 200, 200],
  );
  t.equal(backoffDelay(10_000, { firstDelayMs: 1, maxDelayMs: 5000 }), 5000, 'a very long run of failures is still a finite pause');
  t.equal(backoffDelay(1, { firstDelayMs: 500, maxDelayMs: 100 }), 100, 'a first pause above the ceiling is cut to it');
});

t.test('without jitter randomness is never asked for', async (t) => {
  t.equal(
    backoffDelay(3, { firstDelayMs: 10, jitter: 0 }, () => t.fail('random called') as never),
    40,
  );
});

t.test('jitter draws each pause within its share of the top of the doubled pause', async (t) => {
  const schedule = { firstDelayMs: 40, maxDelayMs: 200, jitter: 0.5 };
  // ceilings 40, 80, 160, 200: half jitter picks within [ceiling / 2, ceiling]
  t.strictSame(
    [1, 2, 3, 4].map((failures) => backoffDelay(failures, schedule, () => 0)),
    [20, 40, 80, 100],
    'the lowest draw: the bottom of the range',
  );
  t.strictSame(
    [1, 2, 3, 4].map((failures) => backoffDelay(failures, schedule, () => 0.999_999)),
    [40, 80, 160, 200],
    'the highest draw: the ceiling',
  );
  t.equal(
    backoffDelay(3, schedule, () => 0.5),
    120,
    'a middle draw: the middle',
  );
  const outside: string[] = [];
  const spread = new Set<number>();
  for (let i = 0; i < 400; i++) {
    const failures = 1 + (i % 8);
    const ceiling = Math.min(5000, 100 * 2 ** (failures - 1));
    const pause = backoffDelay(failures, { firstDelayMs: 100, maxDelayMs: 5000, jitter: 0.3 });
    if (pause < Math.floor(ceiling * 0.7) || pause > ceiling) outside.push(`${pause} ms after failure ${failures}`);
    if (failures === 8) spread.add(pause);
  }
  t.strictSame(outside, [], 'Math.random: every pause within [70 %, 100 %] of its ceiling');
  t.ok(spread.size > 10, 'and the pauses differ: the jitter spreads them');
  t.equal(
    backoffDelay(2, { firstDelayMs: 100, jitter: 1 }, () => 0),
    0,
    'full jitter may retry at once',
  );
});

t.test('the loop tries until an attempt succeeds, pausing on the schedule', async (t) => {
  const told: [string, number, number][] = [];
  let calls = 0;
  const started = performance.now();
  const result = await retryWithBackoff(
    async () => {
      calls += 1;
      if (calls < 4) throw new Error(`failure ${calls}`);
      return 'stored';
    },
    { firstDelayMs: 5, maxDelayMs: 12, onFailure: (error, failures, delay) => told.push([(error as Error).message, failures, delay]) },
  );
  t.strictSame(result, { value: 'stored' });
  t.equal(calls, 4);
  t.strictSame(told, [
    ['failure 1', 1, 5],
    ['failure 2', 2, 10],
    ['failure 3', 3, 12],
  ]);
  t.ok(performance.now() - started >= 5 + 10 + 12 - 3, 'it waited the pauses it announced');
});

t.test('a success at once is not a failure', async (t) => {
  t.strictSame(await retryWithBackoff(async () => 7, { firstDelayMs: 1000, onFailure: () => t.fail('told of a failure') }), { value: 7 });
});

t.test('an abort ends a long pause at once, and no further attempt is made', async (t) => {
  const controller = new AbortController();
  let calls = 0;
  const started = performance.now();
  const running = retryWithBackoff(
    async () => {
      calls += 1;
      throw new Error('down');
    },
    { firstDelayMs: 60_000, signal: controller.signal },
  );
  setTimeout(() => controller.abort(), 20);
  t.equal(await running, undefined, 'aborted: no value, and no error either');
  t.equal(calls, 1);
  t.ok(performance.now() - started < 5000, 'it did not wait out the minute');
});

t.test('an attempt that fails because of the abort is not announced as a failure', async (t) => {
  const controller = new AbortController();
  const result = await retryWithBackoff(
    async () => {
      controller.abort();
      throw new Error('cut short by shutdown');
    },
    { firstDelayMs: 10, signal: controller.signal, onFailure: () => t.fail('announced') },
  );
  t.equal(result, undefined);
});

t.test('aborted before it starts, the loop makes no attempt', async (t) => {
  const controller = new AbortController();
  controller.abort();
  t.equal(await retryWithBackoff(async () => t.fail('attempted'), { firstDelayMs: 10, signal: controller.signal }), undefined);
});

t.test('a pause runs its full length unless aborted', async (t) => {
  let started = performance.now();
  await pauseUnlessAborted(30);
  t.ok(performance.now() - started >= 28, 'not aborted: the whole pause');
  const controller = new AbortController();
  started = performance.now();
  const pausing = pauseUnlessAborted(10_000, controller.signal, { unref: true });
  controller.abort();
  await pausing;
  t.ok(performance.now() - started < 1000, 'aborted: over at once');
});
