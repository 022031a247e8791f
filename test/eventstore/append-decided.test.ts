import t from 'tap';
import { appendDecided } from '../../src/eventstore/append-decided.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { tempDir } from '../support/eventstore-temp-dir.js';
import type { TapTest } from './event-store-contract.js';

async function storeFor(t: TapTest): Promise<EventStore> {
  const { dir, remove } = await tempDir('append-decided');
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    await remove();
  });
  return store;
}

// A counter that stops at a cap: each command reads the count and appends the next increment
// only while it is below the cap, so a command decided on a stale read must be decided again.
let decisions = 0;
const increment = (store: EventStore, stream: string, cap: number) =>
  appendDecided(store, stream, (history) => {
    decisions += 1;
    const count = history.length;
    return count < cap
      ? { events: [{ type: 'Incremented', data: { to: count + 1 } }], outcome: count + 1 }
      : { events: [], outcome: count };
  });

t.test('concurrent commands on one stream: every conflict is decided again on what the stream holds', async (t) => {
  const store = await storeFor(t);
  decisions = 0;
  const outcomes = await Promise.all(Array.from({ length: 8 }, () => increment(store, 'counter-1', 5)));
  const events = await store.readStream('counter-1');
  t.strictSame(
    events.map((e) => (e.data as { to: number }).to),
    [1, 2, 3, 4, 5],
    'the cap holds: no command appended on a stale read',
  );
  t.strictSame(outcomes.map((o) => o.outcome).sort(), [1, 2, 3, 4, 5, 5, 5, 5], 'each command tells what it decided');
  t.equal(outcomes.filter((o) => o.position === undefined).length, 3, 'the three that appended nothing have no position');
  t.ok(
    outcomes.filter((o) => o.position !== undefined).every((o) => typeof o.position === 'bigint'),
    'the others have their log position',
  );
  t.ok(decisions > 8, `the commands met conflicts and were decided again (${decisions} decisions for 8 commands)`);
});

t.test('a decision with no events appends nothing, even to a stream that does not exist', async (t) => {
  const store = await storeFor(t);
  const result = await appendDecided(store, 'empty-1', () => ({ events: [], outcome: 'rejected' }));
  t.strictSame(result, { outcome: 'rejected', position: undefined });
  t.strictSame(await store.readStream('empty-1'), []);
});
