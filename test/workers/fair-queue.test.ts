import t from 'tap';
import { FairQueue } from '../../src/workers/fair-queue.js';

const drain = <T>(queue: FairQueue<T>): T[] => {
  const out: T[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) out.push(item);
  return out;
};

t.test('groups are served in turn, each in its own order', async (t) => {
  const queue = new FairQueue<string>();
  for (let i = 1; i <= 4; i++) queue.push('A', `a${i}`);
  queue.push('B', 'b1');
  queue.push('B', 'b2');
  queue.push('C', 'c1');
  t.equal(queue.length, 7);
  t.strictSame(Object.fromEntries(queue.depths()), { A: 4, B: 2, C: 1 });
  t.strictSame(drain(queue), ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  t.equal(queue.length, 0);
  t.equal(queue.shift(), undefined);
});

t.test('a group arriving while another floods goes before the group just served', async (t) => {
  const queue = new FairQueue<string>();
  for (let i = 1; i <= 5; i++) queue.push('A', `a${i}`);
  t.equal(queue.shift(), 'a1');
  t.equal(queue.shift(), 'a2');
  queue.push('B', 'b1');
  t.equal(queue.shift(), 'b1', 'the newcomer waits for nothing but the order being planned');
  queue.push('B', 'b2');
  t.strictSame(drain(queue), ['a3', 'b2', 'a4', 'a5'], 'then they take turns: B was served after A');
});

t.test('a group that sends one job at a time, each as the last starts, still waits behind a newcomer', async (t) => {
  const queue = new FairQueue<string>();
  queue.push('A', 'a1');
  t.equal(queue.shift(), 'a1', 'A has nothing else waiting');
  queue.push('A', 'a2');
  queue.push('B', 'b1');
  t.equal(queue.shift(), 'b1', 'B never served goes before A, whose a1 was just served');
  t.equal(queue.shift(), 'a2');
});

t.test('a long line keeps its order while its front is trimmed', async (t) => {
  const queue = new FairQueue<number>();
  for (let i = 0; i < 5000; i++) queue.push('A', i);
  const out = drain(queue);
  t.equal(out.length, 5000);
  t.ok(
    out.every((v, i) => v === i),
    'every item once, in order',
  );
});

t.test('an item put back goes before the rest of its group, and keeps the groups in turn', async (t) => {
  const queue = new FairQueue<string>();
  for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
  queue.push('b', 'b1');
  t.equal(queue.shift(), 'a1');
  queue.pushFront('a', 'a1');
  t.equal(queue.length, 4);
  t.strictSame(drain(queue), ['b1', 'a1', 'a2', 'a3'], "b's turn first (a was served last), then a1 before a's later items");
  queue.pushFront('c', 'c1');
  t.strictSame(drain(queue), ['c1'], 'a group with no line gets one');
});
