// Given subscriptions opened through the set, when one stops of itself, then it is no longer woken nor
// stopped again; when the set stops all, it resolves only once each one's stop has.
import t from 'tap';
import { LiveSubscriptions } from '../../src/eventstore/live-subscriptions.js';

class Played {
  stops = 0;
  finish: (() => void) | undefined;
  constructor(
    readonly name: string,
    readonly stopped: () => void,
  ) {}
  stop(): Promise<void> {
    this.stops++;
    return new Promise<void>((resolve) => {
      this.finish = () => {
        this.stopped();
        resolve();
      };
    });
  }
}

t.test('one that stopped of itself leaves the set; stopAll waits for every other', async (t) => {
  const live = new LiveSubscriptions<Played>();
  const a = live.open((stopped) => new Played('a', stopped));
  const b = live.open((stopped) => new Played('b', stopped));
  t.same(
    [...live].map((s) => s.name),
    ['a', 'b'],
    'both are running',
  );
  a.stopped(); // a failure of its own ended it
  t.same(
    [...live].map((s) => s.name),
    ['b'],
    'only b is woken after a commit',
  );
  let allStopped = false;
  const stopping = live.stopAll().then(() => (allStopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(a.stops, 0, 'a is not stopped again');
  t.equal(b.stops, 1, 'b is told to stop');
  t.notOk(allStopped, 'and stopAll waits while its handler runs');
  b.finish!();
  await stopping;
  t.ok(allStopped);
  t.same([...live], [], 'nothing is left running');
});
