// followLog with a store whose subscription fails: it subscribes again from the checkpoint, after
// pauses that double with each failure in a row, with jitter, and start again small once a batch is
// delivered. And followLog with a linger: events that come while it lingers are handled as one batch.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { ANY, type EventStore, type RecordedEvent, type SubscribeOptions } from '../../src/eventstore/event-store.js';
import { followLog } from '../../src/eventstore/follow-log.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/eventstore-temp-dir.js';

function event(position: bigint): RecordedEvent {
  return { id: `e${position}`, stream: 's', type: 'T', data: {}, revision: position, position, recordedAt: new Date() };
}

t.test('a failing subscription is resubscribed from the checkpoint with exponential backoff and jitter', async (t) => {
  const subscribedAfter: (bigint | undefined)[] = [];
  const subscribedAt: number[] = [];
  let failuresLeft = 4;
  // Fails four times in a row, then delivers one batch and fails once more.
  const store = {
    subscribe(options: SubscribeOptions) {
      subscribedAfter.push(options.after);
      subscribedAt.push(performance.now());
      setTimeout(async () => {
        if (failuresLeft > 0) {
          failuresLeft--;
          return options.onError?.(new Error('connection reset'));
        }
        failuresLeft = 1;
        await options.handle([event((options.after ?? 0n) + 1n)]);
        options.onError?.(new Error('server restarted'));
      }, 1);
      return { stop: async () => {} };
    },
  } as unknown as EventStore;

  let checkpoint: bigint | undefined;
  const logged: string[] = [];
  const jitter = [0, 1, 0.5, 1, 0, 0.99];
  const follower = await followLog({
    store,
    name: 'test consumer',
    loadCheckpoint: async () => checkpoint,
    async handle(events) {
      checkpoint = events.at(-1)!.position;
    },
    retryDelayMs: 40,
    maxRetryDelayMs: 200,
    log: (message) => logged.push(message),
    random: () => jitter.shift() ?? 0,
  });
  while (subscribedAfter.length < 7) await new Promise((resolve) => setTimeout(resolve, 10));
  await follower.stop();

  t.strictSame(
    subscribedAfter.slice(0, 7),
    [undefined, undefined, undefined, undefined, undefined, 1n, 1n],
    'each time from the checkpoint of the moment',
  );
  // Ceilings 40, 80, 160, 200 (capped), then 40 again after the delivered batch, 80; jitter picks within the upper half.
  const expected = [20, 80, 120, 200, 20, 80];
  t.strictSame(
    logged.slice(0, 6).map((line) => Number(/in (\d+) ms/.exec(line)?.[1])),
    expected,
    'the pauses logged',
  );
  for (let i = 0; i < 5; i++) {
    const pause = subscribedAt[i + 1]! - subscribedAt[i]!;
    t.ok(pause >= expected[i]! - 2, `pause ${i + 1} is at least ${expected[i]} ms (${pause.toFixed(0)})`);
  }
  t.match(logged[0], /test consumer: reading the log failed; resubscribing from the checkpoint in 20 ms/);
});

t.test('with lingerMs, the first event after a quiet spell is handled at once and the next ones wait to come together', async (t) => {
  const { dir, remove } = await tempDir('linger');
  const store = openSqliteEventStore(dir);
  t.teardown(async () => {
    await store.close();
    await remove();
  });
  const LINGER_MS = 1000;
  const batches: { positions: bigint[]; at: number }[] = [];
  const follower = await followLog({
    store,
    name: 'lingering consumer',
    loadCheckpoint: async () => undefined,
    async handle(events) {
      batches.push({ positions: events.map((event) => event.position), at: performance.now() });
    },
    retryDelayMs: 100,
    lingerMs: LINGER_MS,
    log: () => {},
  });
  const until = async (done: () => boolean) => {
    while (!done()) await sleep(5);
  };
  const appendedAt = performance.now();
  await store.append('s-1', [{ type: 'T', data: {} }], ANY);
  await until(() => batches.length === 1);
  t.ok(
    batches[0]!.at - appendedAt < LINGER_MS / 2,
    `the first is handled without waiting (${(batches[0]!.at - appendedAt).toFixed(0)} ms)`,
  );
  // Each its own commit, each durable before the next: without the linger each would be a batch of its own.
  for (const stream of ['s-2', 's-3', 's-4']) await store.append(stream, [{ type: 'T', data: {} }], ANY);
  await until(() => batches.flatMap((batch) => batch.positions).length === 4);
  t.strictSame(
    batches.map((batch) => batch.positions.length),
    [1, 3],
    'the three that came during the linger are one batch',
  );
  t.ok(
    batches[1]!.at - batches[0]!.at >= LINGER_MS - 50,
    `the second batch came after the linger (${(batches[1]!.at - batches[0]!.at).toFixed(0)} ms)`,
  );

  // A stop does not wait out a linger in progress.
  const stopping = performance.now();
  await follower.stop();
  t.ok(performance.now() - stopping < LINGER_MS / 2, `stopped during the linger in ${(performance.now() - stopping).toFixed(0)} ms`);
});
