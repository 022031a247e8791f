// The low-water mark (src/checkpoints/low-water-mark.ts): the checkpoint of a consumer that finishes out of order.
import t from 'tap';
import { LowWaterMark } from '../../src/checkpoints/low-water-mark.js';

t.test('the low-water mark is the last position up to which everything begun is finished', async (t) => {
  const marks = new LowWaterMark();
  for (const p of [10n, 20n, 30n, 40n]) marks.begin(p);
  t.equal(marks.finish(30n), undefined, 'out of order: 10 and 20 are still open');
  t.equal(marks.finish(10n), 10n);
  t.equal(marks.finish(40n), undefined);
  t.equal(marks.finish(20n), 40n, 'the gap closes: everything up to 40 is finished');
});

t.test('the mark holds its place across many positions', async (t) => {
  const marks = new LowWaterMark();
  for (let p = 1n; p <= 5000n; p++) marks.begin(p);
  const moved: bigint[] = [];
  for (let p = 2n; p <= 5000n; p++) {
    const mark = marks.finish(p);
    if (mark !== undefined) moved.push(mark);
  }
  t.strictSame(moved, [], 'nothing moves while position 1 is open');
  t.equal(marks.finish(1n), 5000n);
  for (let p = 5001n; p <= 5003n; p++) marks.begin(p);
  t.equal(marks.finish(5001n), 5001n, 'and goes on after a trim');
});
