// The planning reactor's backlog (src/planning/planning-backlog.ts): an order another replica holds is
// looked at again later, unless its result reaches this replica first; then it is finished without being
// handed out again, and the checkpoint moves past it.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { PlanningBacklog, type WaitingOrder } from '../../src/planning/planning-backlog.js';

const order = (n: number, orderId = n, version = 0): WaitingOrder => ({
  position: BigInt(n),
  stream: `order:G:R-${orderId}`,
  group: 'G',
  orderId,
  version,
});

/** The next order handed out within `ms`, or undefined. */
async function nextWithin(backlog: PlanningBacklog, ms: number): Promise<WaitingOrder | undefined> {
  return Promise.race([backlog.next(), sleep(ms).then(() => undefined)]);
}

t.test('held elsewhere, then its result arrives: finished, never handed out again', async (t) => {
  const backlog = new PlanningBacklog(100);
  await backlog.admit(order(1));
  const first = await backlog.next();
  t.equal(first?.orderId, 1);
  backlog.release();
  backlog.lookAgainIn(first!, 40);
  t.equal(backlog.counts().orders, 1, 'waiting to be looked at again');
  t.equal(backlog.resolve(1, 0), 1n, 'the checkpoint moves past it');
  t.equal(backlog.counts().orders, 0);
  t.equal(await nextWithin(backlog, 100), undefined, 'not handed out after the look-again pause');
  backlog.stop();
});

t.test('held elsewhere, no result: handed out again after the pause', async (t) => {
  const backlog = new PlanningBacklog(100);
  await backlog.admit(order(1));
  const first = await backlog.next();
  backlog.release();
  backlog.lookAgainIn(first!, 20);
  const again = await nextWithin(backlog, 500);
  t.equal(again?.orderId, 1);
  t.notOk(again?.resolved, 'still to be planned');
  backlog.stop();
});

t.test("still queued when its result arrives: handed out marked resolved, and the checkpoint is the worker's to move", async (t) => {
  const backlog = new PlanningBacklog(100);
  await backlog.admit(order(1));
  await backlog.admit(order(2));
  t.equal(backlog.resolve(2, 0), undefined, 'nothing finished yet: the order is in the queue');
  t.equal(backlog.resolve(7, 0), undefined, 'an order this backlog does not hold changes nothing');
  const first = await backlog.next();
  const second = await backlog.next();
  t.notOk(first?.resolved);
  t.equal(second?.orderId, 2);
  t.ok(second?.resolved);
  t.equal(backlog.finished(second!), undefined, 'order 1 is not finished yet');
  t.equal(backlog.finished(first!), 2n, 'both finished: the checkpoint is past both');
  backlog.stop();
});

t.test('taken for later (a new order another replica took the submit of): not handed out before its time', async (t) => {
  const backlog = new PlanningBacklog(100);
  const taken = performance.now();
  await backlog.admit(order(1), 60);
  await backlog.admit(order(2));
  t.equal((await nextWithin(backlog, 30))?.orderId, 2, 'an order taken for now goes first');
  backlog.release();
  t.equal(backlog.counts().orders, 1, 'the other is counted as waiting');
  const later = await nextWithin(backlog, 500);
  const waited = performance.now() - taken;
  t.equal(later?.orderId, 1, 'handed out once its time came');
  t.ok(waited >= 55, `and not before (${waited.toFixed(0)} ms)`);
  t.notOk(later?.resolved);
  backlog.stop();
});

t.test('taken for later, and its result arrives meanwhile: finished without a worker, the checkpoint past it', async (t) => {
  const backlog = new PlanningBacklog(100);
  await backlog.admit(order(1), 40);
  t.equal(backlog.resolve(1, 0), 1n, 'the checkpoint moves past it');
  t.equal(await nextWithin(backlog, 100), undefined, 'never handed out');
  backlog.stop();
});

t.test('an amend taken while the order still waits: the earlier entry is resolved, the order handed out once to plan', async (t) => {
  const backlog = new PlanningBacklog(100);
  await backlog.admit(order(1, 7, 0));
  await backlog.admit(order(5, 7, 1));
  const first = await backlog.next();
  t.match(first, { position: 1n, resolved: true }, 'the submit entry needs no planner');
  backlog.release();
  t.equal(backlog.finished(first!), 1n);
  const second = await backlog.next();
  t.match(second, { position: 5n, version: 1 }, 'the amend entry plans the order as it stands');
  t.notOk(second?.resolved);
  backlog.release();
  t.equal(backlog.resolve(7, 0), undefined, 'a result for the version as submitted resolves no amend');
  t.equal(backlog.finished(second!), 5n);
  backlog.stop();
});

t.test('an amend taken while the order is held elsewhere: the held entry is finished without waiting out its pause', async (t) => {
  const backlog = new PlanningBacklog(100);
  await backlog.admit(order(1, 7, 0));
  const first = await backlog.next();
  backlog.release();
  backlog.lookAgainIn(first!, 10_000);
  await backlog.admit(order(3, 7, 1));
  const handed = [await nextWithin(backlog, 100), await nextWithin(backlog, 100)];
  t.match(handed, [
    { position: 1n, resolved: true },
    { position: 3n, version: 1 },
  ]);
  backlog.stop();
});

t.test('a cancel resolves every version of the order', async (t) => {
  const backlog = new PlanningBacklog(100);
  await backlog.admit(order(1, 7, 2));
  backlog.resolve(7, Number.POSITIVE_INFINITY);
  t.match(await backlog.next(), { resolved: true });
  backlog.stop();
});
