// Singleton work's lease (src/leases/singleton-lease.ts) on the real SQLite work lease store: one holder
// at a time, a clean stop hands it over at once, a work lease store that fails makes the holder step down no
// later than its lease, and a replica unable to do the work keeps it through a stall but not a lease.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { WorkLeaseStore } from '../../src/leases/work-lease-store.js';
import { holdSingletonLease, whileLeased } from '../../src/leases/singleton-lease.js';
import { openSqliteWorkLeaseStore } from '../../src/leases/sqlite-work-leases.js';
import { tempDir } from '../support/eventstore-temp-dir.js';

type TapTest = Parameters<Parameters<typeof t.test>[0]>[0];
const LEASE_MS = 300;

async function workLeaseStores(t: TapTest): Promise<() => WorkLeaseStore> {
  const { dir, remove } = await tempDir('singleton-lease');
  const opened: WorkLeaseStore[] = [];
  t.teardown(async () => {
    for (const store of opened) await store.close();
    await remove();
  });
  return () => {
    const store = openSqliteWorkLeaseStore(dir);
    opened.push(store);
    return store;
  };
}

const until = async (condition: () => boolean, ms = 3_000) => {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await sleep(10);
  return condition();
};

t.test('one holder at a time; a clean stop hands the work over at the next try', async (t) => {
  const open = await workLeaseStores(t);
  const started: string[] = [];
  const work = (name: string) =>
    whileLeased({ store: open(), key: 'singleton:x', holder: name, leaseMs: LEASE_MS, log: () => {} }, async () => {
      started.push(name);
      return { stop: async () => void started.push(`${name} stopped`) };
    });
  const a = await work('a');
  const b = await work('b');
  t.ok(a.current() !== undefined && b.current() === undefined, 'the first takes it, the second waits');
  await sleep(LEASE_MS * 2);
  t.strictSame(started, ['a'], 'renewed: nobody else took it');
  await a.stop();
  t.ok(await until(() => b.current() !== undefined, LEASE_MS), 'b took it within a third of a lease of the release');
  t.strictSame(started, ['a', 'a stopped', 'b']);
  await b.stop();
});

t.test('a holder whose work lease store fails steps down before its lease could have been taken over', async (t) => {
  const open = await workLeaseStores(t);
  let failing = false;
  const inner = open();
  const flaky: WorkLeaseStore = {
    ...inner,
    acquire: (...args) => (failing ? Promise.reject(new Error('unreachable')) : inner.acquire(...args)),
    release: (...args) => inner.release(...args),
  };
  const changes: boolean[] = [];
  const lease = await holdSingletonLease({
    store: flaky,
    key: 'singleton:y',
    holder: 'a',
    leaseMs: LEASE_MS,
    log: () => {},
    onChange: (held) => void changes.push(held),
  });
  t.equal(lease.held, true);
  failing = true;
  const failedAt = Date.now();
  t.ok(await until(() => !lease.held), 'stepped down');
  t.ok(Date.now() - failedAt <= LEASE_MS + 50, `within its lease (${Date.now() - failedAt} ms)`);
  const other = await holdSingletonLease({
    store: open(),
    key: 'singleton:y',
    holder: 'b',
    leaseMs: LEASE_MS,
    log: () => {},
    onChange: () => {},
  });
  t.ok(await until(() => other.held, LEASE_MS * 3), 'another replica takes it once it ran out');
  t.strictSame(changes, [true, false]);
  await other.release();
  await lease.release();
});

t.test(
  'unable: a stall shorter than a lease keeps the work, a whole lease of it lets it go, and an unable replica takes nothing',
  async (t) => {
    const open = await workLeaseStores(t);
    let able = true;
    const lease = await holdSingletonLease({
      store: open(),
      key: 'singleton:z',
      holder: 'a',
      leaseMs: LEASE_MS,
      log: () => {},
      onChange: () => {},
      able: async () => able,
    });
    t.equal(lease.held, true);
    able = false;
    await sleep(LEASE_MS / 2);
    t.equal(lease.held, true, 'half a lease unable: still held (a stall is not an outage)');
    able = true;
    await sleep(LEASE_MS);
    t.equal(lease.held, true, 'able again: kept');
    able = false;
    t.ok(await until(() => !lease.held, LEASE_MS * 3), 'a whole lease unable: let go');
    const other = await holdSingletonLease({
      store: open(),
      key: 'singleton:z',
      holder: 'b',
      leaseMs: LEASE_MS,
      log: () => {},
      onChange: () => {},
      able: async () => false,
    });
    await sleep(LEASE_MS);
    t.equal(other.held, false, 'an unable replica does not take it, though it is free');
    await other.release();
    await lease.release();
  },
);
