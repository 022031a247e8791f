// The follower loop of the SQL logs (src/eventstore/sql/polling-subscription.ts) against a source that answers
// what a test says: a subscription to every type is never moved past an event it was not handed, even
// when a read comes back short of the head it was told of; a type-filtered one skips what it does not want.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { RecordedEvent } from '../../../src/eventstore/event-store.js';
import { PollingSubscription, type SubscriptionSource } from '../../../src/eventstore/sql/polling-subscription.js';

const event = (position: number, type = 'A'): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  stream: `s-${position}`,
  type,
  data: {},
  revision: 0n,
  position: BigInt(position),
  recordedAt: new Date(0),
});

/** A log of `events`; reads whose number is in `short` see only the positions below `visibleBelow`, as a read that came too soon would. */
function source(events: RecordedEvent[], short: Set<number>, visibleBelow: bigint): SubscriptionSource & { reads: number } {
  const state = {
    reads: 0,
    durableHead: async () => events.at(-1)!.position,
    readPage: (after: bigint, upTo: bigint, limit: number, types: readonly string[] | undefined) => {
      state.reads += 1;
      const seen = short.has(state.reads) ? events.filter((e) => e.position < visibleBelow) : events;
      return seen.filter((e) => e.position > after && e.position <= upTo && (!types || types.includes(e.type))).slice(0, limit);
    },
  };
  return state;
}

function follow(from: SubscriptionSource, types?: string[]): { seen: RecordedEvent[]; stop(): Promise<void> } {
  const seen: RecordedEvent[] = [];
  const subscription = new PollingSubscription(
    from,
    { handle: (events) => void seen.push(...events), ...(types ? { types } : {}) },
    { pollIntervalMs: 5, pageSize: 500 },
    () => {},
  );
  return { seen, stop: () => subscription.stop() };
}

t.test('every type: a read that comes back empty or short of the head leaves the rest for the next look', async (t) => {
  const events = [1, 2, 3, 4, 5].map((p) => event(p));
  for (const [name, short, visibleBelow] of [
    ['empty', new Set([1]), 1n],
    ['short', new Set([1]), 3n],
    ['short twice', new Set([1, 2]), 4n],
  ] as const) {
    const follower = follow(source(events, short, visibleBelow));
    await sleep(100);
    await follower.stop();
    t.strictSame(
      follower.seen.map((e) => e.position),
      [1n, 2n, 3n, 4n, 5n],
      `${name}: every event, once, in order`,
    );
  }
});

t.test('a type filter: events of other types are passed over, and those it wants arrive once', async (t) => {
  const events = [event(1, 'A'), event(2, 'B'), event(3, 'A'), event(4, 'B')];
  const logged = source(events, new Set(), 0n);
  const follower = follow(logged, ['A']);
  await sleep(100);
  await follower.stop();
  t.strictSame(
    follower.seen.map((e) => e.position),
    [1n, 3n],
  );
  // Caught up, it reads nothing again at each look: the cursor moved past the B events to the head.
  const reads = logged.reads;
  t.equal(reads, 1, 'one read while nothing new came');
});

t.test('wakeOn: a commit of only the other types waits for the next look; one of these wakes it, and both arrive in order', async (t) => {
  for (const wakeOn of [['A'], undefined]) {
    const events = [event(1, 'A')];
    const logged: SubscriptionSource = {
      durableHead: async () => events.at(-1)!.position,
      readPage: (after, upTo, limit, types) =>
        events.filter((e) => e.position > after && e.position <= upTo && (!types || types.includes(e.type))).slice(0, limit),
    };
    const seen: bigint[] = [];
    // a poll far away: only a wake brings what is committed
    const subscription = new PollingSubscription(
      logged,
      { handle: (page) => void seen.push(...page.map((e) => e.position)), types: ['A', 'B'], ...(wakeOn ? { wakeOn } : {}) },
      { pollIntervalMs: 60_000, pageSize: 500 },
      () => {},
    );
    await sleep(30);
    events.push(event(2, 'B'));
    subscription.wake(new Set(['B']));
    await sleep(30);
    if (wakeOn) {
      t.strictSame(seen, [1n], 'wakeOn A: the B commit did not wake it');
      events.push(event(3, 'A'));
      subscription.wake(new Set(['A']));
      await sleep(30);
      t.strictSame(seen, [1n, 2n, 3n], 'the A commit brought the B event and itself, in order');
    } else t.strictSame(seen, [1n, 2n], 'without wakeOn, the B commit woke it');
    await subscription.stop();
  }
});
