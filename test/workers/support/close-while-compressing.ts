// Run as a child process by worker-pool.test.ts: ROUNDS times, a pool of one compressing worker is
// closed while its job runs, with CLOSE_FINISH_MS for that job to finish. Node 24 aborts the whole
// process when a worker is terminated inside zlib, so this process surviving is what is tested.
// (A test runner loading it without CLOSE_FINISH_MS, as one given the whole folder does, does nothing.)
import { WorkerPool } from '../../../src/workers/worker-pool.js';

const finishMs = process.env.CLOSE_FINISH_MS;
if (finishMs !== undefined) {
  const rounds = Number(process.env.ROUNDS ?? 30);
  let finished = 0;
  for (let round = 0; round < rounds; round++) {
    const pool = new WorkerPool(new URL('./compressing-worker.js', import.meta.url), 1);
    await pool.run({ ms: 0 }, 10_000); // the worker is up
    const job = pool.run<number>({ ms: 40 }, 10_000).then(
      () => (finished += 1),
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 30)); // somewhere inside the job
    await pool.close(Number(finishMs));
    await job;
  }
  console.log(`closed ${rounds} pools, ${finished} jobs finished`);
}
