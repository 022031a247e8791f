// The projector with a lease, as replicas sharing one read model run it: one projects, the others read
// its checkpoint, and one takes over when the holder stops renewing. Two projectors in one process on
// one data directory (their own connections to every file, as two processes would have).
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { WorkLeaseStore } from '../../../src/leases/work-lease-store.js';
import { openSqliteWorkLeaseStore } from '../../../src/leases/sqlite-work-leases.js';
import { NO_STREAM, type EventStore, type ProgressSignals } from '../../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { startProjector, type Projector } from '../../../src/orders/read-model/projector.js';
import { openSqliteOrderReadModel } from '../../../src/orders/read-model/sqlite-order-read-model.js';
import { tempDir } from '../../support/eventstore-temp-dir.js';
import { submitted } from './order-read-model-contract.js';

type TapTest = Parameters<Parameters<typeof t.test>[0]>[0];

const LEASE_MS = 600;

async function replicas(t: TapTest) {
  const { dir, remove } = await tempDir('projector-lease');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 20 });
  const opened: { close(): Promise<void> }[] = [store];
  t.teardown(async () => {
    for (const item of opened.reverse()) await item.close();
    await remove();
  });
  const lines: string[] = [];
  const start = async (
    holder: string,
    wrap: (leases: WorkLeaseStore) => WorkLeaseStore = (leases) => leases,
    signals?: ProgressSignals,
  ) => {
    const leases = wrap(openSqliteWorkLeaseStore(dir));
    const sqlite = openSqliteOrderReadModel(dir);
    let checkpointReads = 0;
    const readModel = {
      ...sqlite,
      checkpoint: () => {
        checkpointReads += 1;
        return sqlite.checkpoint();
      },
    };
    let writes = 0;
    const projector = await startProjector(
      signals ? withProgress(store, signals) : store,
      readModel,
      (message) => void lines.push(`${holder}: ${message}`),
      {
        lease: { store: leases, key: 'projector:orders', holder, leaseMs: LEASE_MS },
        checkpointPollMs: 10,
        onApplied: (events) => (writes += events),
      },
    );
    opened.push(leases, readModel, { close: () => projector.stop() });
    return { projector, readModel, writes: () => writes, checkpointReads: () => checkpointReads };
  };
  let next = 0;
  const submit = async () => {
    next += 1;
    const { data, type } = submitted(next, 'g', `R-${next}`);
    return (await store.append(`order:g:R-${next}`, [{ type, data }], NO_STREAM)).position;
  };
  return { start, submit, lines };
}

/** The store with announcements carried by `signals` (the PostgreSQL log's NOTIFY, here in process). */
function withProgress(store: EventStore, signals: ProgressSignals): EventStore {
  return new Proxy(store, {
    get(target, name) {
      if (name === 'progress') return signals;
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Announcements between replicas in one process; `deliver` false loses every one of them. */
function progressBus(deliver: () => boolean): ProgressSignals & { announced: bigint[] } {
  const listeners = new Set<(position: bigint) => void>();
  const announced: bigint[] = [];
  return {
    announced,
    listening: true,
    async announce(_name, position) {
      announced.push(position);
      if (deliver()) for (const heard of listeners) heard(position);
    },
    listen(_name, heard) {
      listeners.add(heard);
      return () => void listeners.delete(heard);
    },
  };
}

const within = (projector: Projector, position: bigint, ms = 3_000) =>
  Promise.race([projector.waitFor(position).then(() => true), sleep(ms).then(() => false)]);

t.test('two replicas: one projects, the other shows what it projected; every event is written once', async (t) => {
  const { start, submit } = await replicas(t);
  const a = await start('a');
  const b = await start('b');
  t.equal(a.projector.projecting, true, 'the first replica holds the lease and projects');
  t.equal(b.projector.projecting, false, 'the second reads');
  for (let i = 0; i < 20; i++) {
    const position = await submit();
    // Read-your-writes on the replica that does not project: its waitFor follows the checkpoint.
    t.ok(await within(b.projector, position), `order ${i + 1} visible through the replica that does not project`);
    t.ok((await b.readModel.getById(i + 1)) !== undefined, `order ${i + 1} is in the read model`);
  }
  t.equal(a.writes(), 20, 'the projecting replica wrote each event once');
  t.equal(b.writes(), 0, 'the other wrote nothing');
});

t.test(
  'the holder stops renewing (its work lease store fails): the other takes over within the lease and the read model misses nothing',
  async (t) => {
    const { start, submit, lines } = await replicas(t);
    let failing = false;
    // Replica a's work lease store stops answering, as a partition from it would.
    const unreachableWhenFailing = (inner: WorkLeaseStore): WorkLeaseStore => ({
      acquire: (...args) => (failing ? Promise.reject(new Error('work lease store unreachable')) : inner.acquire(...args)),
      release: (...args) => inner.release(...args),
      releaseAll: (...args) => inner.releaseAll(...args),
      holderOf: (...args) => inner.holderOf(...args),
      close: () => inner.close(),
    });
    const a = await start('a', unreachableWhenFailing);
    const b = await start('b');
    t.equal(a.projector.projecting, true);
    for (let i = 0; i < 5; i++) t.ok(await within(b.projector, await submit()));
    failing = true;
    const failedAt = Date.now();
    while (!b.projector.projecting && Date.now() - failedAt < 5 * LEASE_MS) await sleep(20);
    const tookOver = Date.now() - failedAt;
    t.equal(b.projector.projecting, true, `the other replica projects now (after ${tookOver} ms)`);
    t.ok(tookOver <= 2 * LEASE_MS, `within two leases (${tookOver} ms)`);
    t.equal(a.projector.projecting, false, 'the holder that could not renew stepped down');
    for (let i = 0; i < 5; i++) t.ok(await within(a.projector, await submit()), "the stepped-down replica shows the new holder's writes");
    for (let id = 1; id <= 10; id++) t.ok((await a.readModel.getById(id)) !== undefined, `order ${id} in the read model`);
    t.equal(a.writes() + b.writes(), 10, `every event written once in all (a ${a.writes()}, b ${b.writes()})`);
    t.ok(
      lines.some((line) => line.startsWith('b: ') && line.includes('projects the read model now')),
      'the takeover is logged',
    );
  },
);

t.test('a clean stop lets the lease go: the other replica projects at its next try, not after the lease', async (t) => {
  const { start, submit } = await replicas(t);
  const a = await start('a');
  const b = await start('b');
  await a.projector.stop();
  const stoppedAt = Date.now();
  while (!b.projector.projecting && Date.now() - stoppedAt < 5 * LEASE_MS) await sleep(10);
  t.equal(b.projector.projecting, true);
  t.ok(Date.now() - stoppedAt <= LEASE_MS / 3 + 300, `taken over ${Date.now() - stoppedAt} ms after the stop`);
  t.ok(await within(b.projector, await submit()));
});

t.test(
  "announcements: the replica that does not project learns the read model's position from the holder, not by reading its checkpoint; a lost announcement costs only time",
  async (t) => {
    let deliver = true;
    const bus = progressBus(() => deliver);
    const { start, submit } = await replicas(t);
    const a = await start('a', undefined, bus);
    const b = await start('b', undefined, bus);
    t.equal(b.projector.projecting, false);
    const readsBefore = b.checkpointReads();
    for (let i = 0; i < 20; i++) {
      const position = await submit();
      t.ok(await within(b.projector, position), `order ${i + 1} visible through the replica that does not project`);
    }
    const reads = b.checkpointReads() - readsBefore;
    t.ok(bus.announced.length > 0, `the holder announced (${bus.announced.length} times)`);
    t.ok(reads < 20, `20 waits answered with ${reads} checkpoint reads (at 10 ms a read each wait would take several)`);
    t.equal(a.writes(), 20, 'the holder wrote each event once');

    deliver = false;
    for (let i = 0; i < 3; i++) {
      const position = await submit();
      t.ok(await within(b.projector, position), `announcements lost: order ${21 + i} still visible, through the checkpoint`);
    }
  },
);
