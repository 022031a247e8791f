// A worker that never answers (a stuck plan), for the pool's time-limit test; and one that
// answers at once, to show the pool still works after it replaced the stuck one.
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (job: { spin: boolean; value: number }) => {
  if (job.spin) for (;;);
  parentPort?.postMessage({ ok: true, result: job.value * 2 });
});
parentPort?.postMessage({ ready: true });
