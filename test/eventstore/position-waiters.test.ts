// The read-your-writes waiting list: a wait for a position resolves once the consumer reports it (or
// a later one) applied, not before; a rebuild's restart makes new waits wait for the new pass.
import t from 'tap';
import { PositionWaiters } from '../../src/eventstore/position-waiters.js';

const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

t.test('a wait for a position already applied resolves at once', async (t) => {
  const applied = new PositionWaiters(10n);
  t.equal(applied.position, 10n);
  t.ok(await settled(applied.waitFor(10n)));
  t.ok(await settled(applied.waitFor(3n)));
});

t.test('a wait resolves once that position or a later one is applied, and not before', async (t) => {
  const applied = new PositionWaiters();
  t.equal(applied.position, -1n, 'nothing applied yet');
  const five = applied.waitFor(5n);
  const nine = applied.waitFor(9n);
  applied.reached(4n);
  t.notOk(await settled(five), 'position 4 is not 5');
  applied.reached(7n);
  t.ok(await settled(five), 'position 7 is past 5');
  t.notOk(await settled(nine));
  applied.reached(9n);
  t.ok(await settled(nine));
  t.equal(applied.position, 9n);
});

t.test('after a restart a new wait waits for the new pass to get there', async (t) => {
  const applied = new PositionWaiters(20n);
  applied.restart();
  t.equal(applied.position, -1n);
  const twelve = applied.waitFor(12n);
  applied.reached(11n);
  t.notOk(await settled(twelve));
  applied.reached(12n);
  t.ok(await settled(twelve));
});
