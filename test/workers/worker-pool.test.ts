import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { JobTimeoutError, WorkerPool } from '../../src/workers/worker-pool.js';

t.test('a job past its hard limit fails with JobTimeoutError and its worker is replaced', async (t) => {
  const pool = new WorkerPool(new URL('./support/spinning-worker.js', import.meta.url), 1);
  t.teardown(() => pool.close());
  t.equal(await pool.run<number>({ spin: false, value: 1 }, 5000), 2, 'the worker is up');
  const t0 = performance.now();
  await t.rejects(pool.run({ spin: true, value: 1 }, 300), JobTimeoutError);
  const ms = performance.now() - t0;
  t.ok(ms >= 290 && ms < 1500, `the stuck job was cut off near its limit (${ms.toFixed(0)} ms)`);
  t.equal(await pool.run<number>({ spin: false, value: 21 }, 5000), 42, 'the fresh worker takes the next job');
});

t.test('a worker that cannot start fails the jobs instead of respawning forever', async (t) => {
  const pool = new WorkerPool(new URL('./support/failing-worker.js', import.meta.url), 2);
  t.teardown(() => pool.close());
  await t.rejects(pool.run({ spin: false, value: 1 }, 5000), /failed to start: no planner.wasm/);
  await t.rejects(pool.run({ spin: false, value: 2 }, 5000), /failed to start/);
});

t.test('jobs queue behind a busy pool and all complete', async (t) => {
  const pool = new WorkerPool(new URL('./support/spinning-worker.js', import.meta.url), 2);
  t.teardown(() => pool.close());
  const results = await Promise.all([1, 2, 3, 4, 5].map((v) => pool.run<number>({ spin: false, value: v }, 5000)));
  t.same(results, [2, 4, 6, 8, 10]);
});

t.test("company groups take turns for the workers: one group's queue does not stand in front of another's job", async (t) => {
  const pool = new WorkerPool(new URL('./support/spinning-worker.js', import.meta.url), 1);
  t.teardown(() => pool.close());
  await pool.run({ spin: false, value: 0 }, 5000); // the worker is up: the first job below starts at once
  const done: string[] = [];
  const job = (group: string, value: number): Promise<void> =>
    pool.run<number>({ spin: false, value }, 5000, group).then(() => {
      done.push(`${group}${value}`);
    });
  await Promise.all([job('A', 1), job('A', 2), job('A', 3), job('A', 4), job('B', 1), job('A', 5), job('B', 2)]);
  t.strictSame(done, ['A1', 'B1', 'A2', 'B2', 'A3', 'A4', 'A5'], "B waits for the job running, not for A's queue");
});

t.test('close() with time to finish lets the running job end and answer, then stops the worker', async (t) => {
  const pool = new WorkerPool(new URL('./support/compressing-worker.js', import.meta.url), 1);
  await pool.run({ ms: 0 }, 5000); // the worker is up
  const running = pool.run<number>({ ms: 300 }, 5000);
  const queued = t.rejects(pool.run<number>({ ms: 0 }, 5000), /worker pool closed/, 'a queued job is failed, not started');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const t0 = performance.now();
  await pool.close(5000);
  const ms = performance.now() - t0;
  t.ok((await running) > 0, 'the running job answered');
  await queued;
  t.ok(ms >= 150 && ms < 4000, `close waited for the job, not for its whole allowance (${ms.toFixed(0)} ms)`);
  await t.rejects(pool.run({ ms: 0 }, 5000), /closed/);
});

t.test('close() without time to finish fails the running job at once', async (t) => {
  const pool = new WorkerPool(new URL('./support/spinning-worker.js', import.meta.url), 1);
  await pool.run({ spin: false, value: 0 }, 5000);
  const running = t.rejects(pool.run({ spin: true, value: 0 }, 60_000), /worker pool closed/);
  await pool.close();
  await running;
});

t.test('a pool closed while its worker compresses does not abort the process (Node 24 does when a thread dies inside zlib)', async (t) => {
  const script = fileURLToPath(new URL('./support/close-while-compressing.js', import.meta.url));
  const child = spawnSync(process.execPath, [script], {
    env: { ...process.env, CLOSE_FINISH_MS: '5000', ROUNDS: '30' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  t.equal(child.signal, null, `no signal (stderr: ${child.stderr.slice(0, 300)})`);
  t.equal(child.status, 0);
  t.match(child.stdout, /closed 30 pools, 30 jobs finished/);
});
