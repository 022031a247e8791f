import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { PdfRenderer } from '../../src/packing-instructions/pdf-renderer.js';

const niceOf = (stat: string) => Number(readFileSync(stat, 'utf8').split(') ')[1]!.split(' ')[16]);
const threadsAt = (nice: number) =>
  readdirSync('/proc/self/task').filter((tid) => {
    try {
      return niceOf(`/proc/self/task/${tid}/stat`) === nice;
    } catch {
      return false; // a thread that ended meanwhile
    }
  }).length;

t.test(
  'the PDF render thread starts with the first render, at the niceness it is given; the main thread as it was',
  { skip: process.platform !== 'linux' && 'setpriority per thread is Linux-only' },
  async (t) => {
    const before = niceOf('/proc/thread-self/stat');
    const target = Math.min(19, before + 5);
    t.ok(target > before, 'this test runs below the nicest niceness');
    const already = threadsAt(target);
    const renderer = new PdfRenderer(1, target);
    t.teardown(() => renderer.close());
    await sleep(300);
    t.equal(threadsAt(target), already, 'no render thread before the first render');
    // An order without a plan: the render is refused, by the thread it started.
    await t.rejects(renderer.render([]), 'a stream without a plan is refused');
    const deadline = Date.now() + 20_000;
    while (threadsAt(target) === already && Date.now() < deadline) await sleep(20);
    t.equal(threadsAt(target), already + 1, 'one more thread runs at that niceness: the render thread');
    t.equal(niceOf('/proc/thread-self/stat'), before, 'the main thread as it was');
  },
);
