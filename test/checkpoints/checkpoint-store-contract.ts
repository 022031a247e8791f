// The behaviour every CheckpointStore adapter must have, run against each of them. Each test opens its
// own store and uses consumer names unique to it, so the suite also holds against a shared server.
import { randomUUID } from 'node:crypto';
import type { CheckpointStore } from '../../src/checkpoints/checkpoint-store.js';
import type { TapTest } from '../eventstore/event-store-contract.js';

export interface OpenedCheckpointStore {
  store: CheckpointStore;
  /** Another store on the same storage, as after a restart. */
  reopen(): Promise<CheckpointStore>;
  /** Closes what open() opened and removes what it created. */
  cleanup(): Promise<void>;
}

export function checkpointStoreContract(t: TapTest, name: string, open: () => Promise<OpenedCheckpointStore>): void {
  t.test(`${name}: checkpoint store contract`, async (t) => {
    const test = (
      title: string,
      body: (t: TapTest, opened: OpenedCheckpointStore, consumer: (suffix: string) => string) => Promise<void>,
    ) =>
      t.test(title, async (t) => {
        const opened = await open();
        t.teardown(opened.cleanup);
        const prefix = `contract-${randomUUID().slice(0, 8)}-`;
        await body(t, opened, (suffix) => prefix + suffix);
      });

    test('a consumer that never saved has no checkpoint', async (t, { store }, consumer) => {
      t.equal(await store.load(consumer('never')), undefined);
    });

    test('load returns the position last saved', async (t, { store }, consumer) => {
      const c = consumer('planning');
      await store.save(c, 1n);
      t.equal(await store.load(c), 1n);
      await store.save(c, 42n);
      t.equal(await store.load(c), 42n);
      await store.save(c, 43n);
      await store.save(c, 1_000n);
      t.equal(await store.load(c), 1_000n);
    });

    test('positions are exact beyond 2^53, up to 2^63 - 1, and 0 is a position', async (t, { store }, consumer) => {
      for (const position of [0n, 2n ** 53n + 1n, 9_007_199_254_740_993n * 1_000n + 7n, 2n ** 63n - 1n]) {
        const c = consumer(`p${position}`);
        await store.save(c, position);
        t.equal(await store.load(c), position, `${position}`);
      }
    });

    test('consumers are independent, whatever their names', async (t, { store }, consumer) => {
      const names = ['a', 'a.b', '$dollar', 'ünï 🚚', 'with/slash', ''].map((suffix) => consumer(suffix));
      await Promise.all(names.map((c, i) => store.save(c, BigInt(i * 10 + 1))));
      t.strictSame(
        await Promise.all(names.map((c) => store.load(c))),
        names.map((_, i) => BigInt(i * 10 + 1)),
      );
      await store.save(names[0]!, 999n);
      t.equal(await store.load(names[1]!), 11n, 'saving one consumer leaves the others alone');
    });

    test('concurrent saves of different consumers all land', async (t, { store }, consumer) => {
      const names = Array.from({ length: 20 }, (_, i) => consumer(`c${i}`));
      await Promise.all(names.map((c, i) => store.save(c, BigInt(i + 1))));
      t.strictSame(
        await Promise.all(names.map((c) => store.load(c))),
        names.map((_, i) => BigInt(i + 1)),
      );
    });

    test('replicas starting together: stores on one storage bind it to the log and save a new consumer at once, and none fails', async (t, {
      store,
      reopen,
    }, consumer) => {
      const others = await Promise.all([reopen(), reopen(), reopen()]);
      try {
        const all = [store, ...others];
        // Several rounds: the race for the first insert of a document is won at random.
        for (let round = 0; round < 5; round++) {
          const c = consumer(`together-${round}`);
          const results = await Promise.allSettled(all.flatMap((s, i) => [s.bindToLog(`log-${round}`), s.save(c, BigInt(round * 10 + i))]));
          t.strictSame(
            results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
            [],
            `round ${round}: every bind and save answered`,
          );
          t.equal(await store.logIdentity(), `log-${round}`, `round ${round}: bound to the log`);
          t.ok((await store.load(c)) !== undefined, `round ${round}: the consumer has a checkpoint`);
        }
      } finally {
        await Promise.all(others.map((s) => s.close()));
      }
    });

    test('a saved checkpoint survives closing and reopening', async (t, { store, reopen }, consumer) => {
      const c = consumer('durable');
      await store.save(c, 123_456_789_012_345_678n);
      await store.close();
      const again = await reopen();
      try {
        t.equal(await again.load(c), 123_456_789_012_345_678n);
        await again.save(c, 123_456_789_012_345_679n);
        t.equal(await again.load(c), 123_456_789_012_345_679n);
      } finally {
        await again.close();
      }
    });
  });
}
