// The behaviour every LeaseStore adapter must have, run against each of them and each place a store
// keeps leases (the claim store; the delivery store's webhook, e-mail, Kafka and journal leases). Each test opens its own
// store (two, where two replicas are meant) and uses keys unique to it.
import { randomUUID } from 'node:crypto';
import type { LeaseStore } from '../../src/leases/lease-store.js';
import type { TapTest } from '../eventstore/event-store-contract.js';

/** Leases as a test opens them: with what closes their store. */
export type OpenedLeases = LeaseStore & { close(): Promise<void> };

export interface OpenedLeaseStores {
  /** Two stores on the same storage: two replicas. */
  first: OpenedLeases;
  second: OpenedLeases;
}

/** Fresh storage for one test: stores opened on it, and its removal once they are closed. */
export interface LeaseStorage {
  openStore(): OpenedLeases | Promise<OpenedLeases>;
  remove(): Promise<void>;
}

export function leaseStoreContract(t: TapTest, name: string, storage: () => Promise<LeaseStorage>): void {
  t.test(`${name}: lease store contract`, async (t) => {
    const test = (title: string, body: (t: TapTest, opened: OpenedLeaseStores, key: (suffix: string) => string) => Promise<void>) =>
      t.test(title, async (t) => {
        const { openStore, remove } = await storage();
        const opened = { first: await openStore(), second: await openStore() };
        t.teardown(async () => {
          await opened.first.close();
          await opened.second.close();
          await remove();
        });
        const prefix = `claim-${randomUUID().slice(0, 8)}-`;
        await body(t, opened, (suffix) => prefix + suffix);
      });

    test('a free key is taken; another holder is refused while the lease runs, and the holder renews', async (t, {
      first,
      second,
    }, key) => {
      const k = key('order');
      t.equal(await first.acquire(k, 'a', 1000, 2000), true);
      t.equal(await second.acquire(k, 'b', 1500, 2500), false, 'held by a');
      t.equal(await first.acquire(k, 'a', 1900, 3000), true, 'a renews');
      t.equal(await second.acquire(k, 'b', 2500, 3500), false, 'the renewal moved the end past 2500');
    });

    test('an expired lease is taken over, once, and the old holder cannot renew it', async (t, { first, second }, key) => {
      const k = key('order');
      t.equal(await first.acquire(k, 'a', 1000, 2000), true);
      t.equal(await second.acquire(k, 'b', 2000, 3000), true, 'the lease ran out at 2000');
      t.equal(await first.acquire(k, 'a', 2100, 3100), false, 'a lost it');
      t.equal(await first.acquire(k, 'c', 2100, 3100), false, 'and a third holder waits too');
      t.equal(await first.acquire(k, 'c', 3000, 4000), true, 'taken over again when b does not renew');
    });

    test('two holders racing for one expired lease: exactly one gets it', async (t, { first, second }, key) => {
      for (let round = 0; round < 10; round++) {
        const k = key(`race-${round}`);
        t.equal(await first.acquire(k, 'dead', 0, 1000), true);
        const won = await Promise.all([
          first.acquire(k, 'a', 5000, 6000),
          second.acquire(k, 'b', 5000, 6000),
          second.acquire(k, 'c', 5000, 6000),
        ]);
        t.equal(won.filter(Boolean).length, 1, `round ${round}: ${won.join(', ')}`);
      }
      for (let round = 0; round < 10; round++) {
        const k = key(`fresh-${round}`);
        const won = await Promise.all([first.acquire(k, 'a', 5000, 6000), second.acquire(k, 'b', 5000, 6000)]);
        t.equal(won.filter(Boolean).length, 1, `a free key, round ${round}`);
      }
    });

    test('release lets the next claim through at once; only the holder releases', async (t, { first, second }, key) => {
      const k = key('order');
      t.equal(await first.acquire(k, 'a', 1000, 60_000), true);
      await second.release(k, 'b');
      t.equal(await second.acquire(k, 'b', 1100, 60_000), false, 'b releasing what it does not hold changes nothing');
      await first.release(k, 'a');
      t.equal(await second.acquire(k, 'b', 1200, 60_000), true);
    });

    test('releaseAll frees every key of the holder and none of the others', async (t, { first, second }, key) => {
      for (const n of [1, 2, 3]) t.equal(await first.acquire(key(`a${n}`), 'a', 1000, 60_000), true);
      t.equal(await second.acquire(key('b1'), 'b', 1000, 60_000), true);
      await first.releaseAll('a');
      for (const n of [1, 2, 3]) t.equal(await second.acquire(key(`a${n}`), 'c', 1100, 60_000), true, `a${n} is free`);
      t.equal(await first.acquire(key('b1'), 'c', 1100, 60_000), false, "b's claim stands");
    });

    test('a key released after a takeover can be taken over again later', async (t, { first, second }, key) => {
      const k = key('order');
      t.equal(await first.acquire(k, 'a', 0, 1000), true);
      t.equal(await second.acquire(k, 'b', 1000, 2000), true, 'takeover');
      await second.release(k, 'b');
      t.equal(await first.acquire(k, 'c', 2100, 3000), true, 'taken after the release');
      t.equal(await second.acquire(k, 'd', 3000, 4000), true, 'and taken over when c dies');
    });

    test('who holds a key: the holder while its lease runs, no one once it ran out or was let go', async (t, { first, second }, key) => {
      const k = key('order');
      t.equal(await second.holderOf(k, 1000), undefined, 'a key never taken');
      t.equal(await first.acquire(k, 'a', 1000, 2000), true);
      t.equal(await second.holderOf(k, 1999), 'a', 'seen by another replica');
      t.equal(await second.holderOf(k, 2000), undefined, 'the lease ran out at 2000');
      t.equal(await second.acquire(k, 'b', 2000, 3000), true);
      t.equal(await first.holderOf(k, 2500), 'b', 'after a takeover');
      await second.release(k, 'b');
      t.equal(await first.holderOf(k, 2500), undefined, 'after a release');
    });
  });
}
