import t from 'tap';
import { getHeapStatistics } from 'node:v8';
import { readFileSync } from 'node:fs';
import { fullCollection, releaseHeapWhenIdle } from '../../src/memory/release-heap-when-idle.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const GROWN = 32 * 1024 * 1024;

t.test('collects when the event loop is idle and the heap has grown since, once', async (t) => {
  let collections = 0;
  const stop = releaseHeapWhenIdle({ checkMs: 50, idleBelow: 0.5, grownBytes: GROWN }, () => collections++);
  t.teardown(stop);
  // The first collection counts from an empty heap: grow it past the threshold first.
  const start = getHeapStatistics().total_heap_size;
  const held: { i: number; text: string }[] = [];
  for (let i = 0; getHeapStatistics().total_heap_size < Math.max(start, GROWN) + GROWN; i++)
    held.push({ i, text: `object ${i} `.repeat(16) });
  await sleep(400);
  t.equal(collections, 1, `one collection once idle, with ${held.length} objects on the heap`);
  await sleep(400);
  t.equal(collections, 1, 'none more while the heap stays as it is');
});

t.test('does not collect while the event loop is busy', async (t) => {
  let collections = 0;
  const stop = releaseHeapWhenIdle({ checkMs: 50, idleBelow: 0.5, grownBytes: 0 }, () => collections++);
  t.teardown(stop);
  const until = Date.now() + 400;
  while (Date.now() < until) {
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const end = performance.now() + 5;
        while (performance.now() < end);
        resolve();
      }),
    );
  }
  t.equal(collections, 0, 'busy throughout');
  await sleep(300);
  t.ok(collections >= 1, 'idle afterwards');
});

t.test('the collection it runs gives freed pages back to the system, not only to V8', async (t) => {
  const anonMiB = () => Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
  let garbage: { n: number; s: string }[] | undefined = [];
  for (let i = 0; i < 2_000_000; i++) garbage.push({ n: i, s: `x${i}` });
  const grown = anonMiB();
  garbage = undefined;
  fullCollection()();
  const after = anonMiB();
  // a plain gc() leaves the freed pages resident in V8's pool: this process stays near `grown`
  t.ok(grown - after > 100, `resident anonymous memory ${grown.toFixed(0)} MiB, after the collection ${after.toFixed(0)} MiB`);
});
