import t from 'tap';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

const niceOf = (stat: string) => Number(readFileSync(stat, 'utf8').split(') ')[1]!.split(' ')[16]);

t.test(
  'a worker thread lowers its own priority and only its own',
  { skip: process.platform !== 'linux' && 'setpriority per thread is Linux-only' },
  async (t) => {
    const before = niceOf('/proc/thread-self/stat');
    const target = Math.min(19, before + 7); // 19 is the nicest there is
    t.ok(target > before, 'this test runs below the nicest niceness');
    const worker = new Worker(new URL('./support/niceness-worker.js', import.meta.url), { workerData: { niceness: target } });
    const [reply] = (await once(worker, 'message')) as [{ lowered: boolean; nice: number }];
    await worker.terminate();
    t.same(reply, { lowered: true, nice: target }, 'the worker runs nicer');
    t.equal(niceOf('/proc/thread-self/stat'), before, 'the main thread as it was');
    t.equal(niceOf('/proc/self/stat'), before, 'and the process too');
  },
);
