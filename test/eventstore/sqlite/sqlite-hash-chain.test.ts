// The hash chain on the embedded store (issue 26): the hashed log contract, then what only this file has
// to get right: every append is chained onto the last event of the one log, inside its write transaction,
// across batches and across processes; verifyChain names the first event that breaks it and how, on a real
// events.db changed behind the store's back; a log from before the chain is chained from its first event.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import t from 'tap';
import { NO_STREAM, ANY } from '../../../src/eventstore/event-store.js';
import { GENESIS, eventHash, preimage } from '../../../src/eventstore/hash-chain.js';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { verifyChain } from '../../../src/eventstore/verify-chain.js';
import { tempDir } from '../../support/eventstore-temp-dir.js';
import { TAMPERINGS, tamper } from '../../support/tamper-events.js';
import { hashedLogContract } from '../hashed-log-contract.js';

const CHILD = fileURLToPath(new URL('../../support/append-under-load.js', import.meta.url));

hashedLogContract(t, 'sqlite', async () => {
  const { dir, remove } = await tempDir('hashed-contract');
  const store = openSqliteEventStore(dir);
  return {
    store,
    cleanup: async () => {
      await store.close();
      await remove();
    },
  };
});

/** A log of 3 streams, 4 events each, appended in interleaved batches. */
async function writeLog(dir: string): Promise<void> {
  const store = openSqliteEventStore(dir);
  for (let round = 0; round < 4; round++) {
    await Promise.all(
      ['a', 'b', 'c'].map((stream) => store.append(stream, [{ type: 'Noted', data: { stream, round, quantity: 27 } }], ANY)),
    );
  }
  await store.close();
}

async function verdictOf(dir: string) {
  const store = openSqliteEventStore(dir);
  try {
    return await verifyChain(store, { pageSize: 5 });
  } finally {
    await store.close();
  }
}

function withFile(dir: string, change: (db: Database.Database) => void): void {
  const db = new Database(join(dir, 'events.db'));
  change(db);
  db.close();
}

t.test('each event is hashed onto the one before it in the log, whatever its stream and batch', async (t) => {
  const { dir, remove } = await tempDir('chain');
  t.teardown(remove);
  await writeLog(dir);
  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  const events = await store.readHashed();
  t.equal(events.length, 12);
  let previous = GENESIS;
  for (const event of events) {
    t.equal(event.hash, eventHash(previous, event), `position ${event.position}`);
    previous = event.hash!;
  }
  t.match(
    preimage(GENESIS, events[0]!),
    /^0{64}\nNoted\na\n0\n\d{16}\n\{"stream":"a","round":0,"quantity":27\}$/,
    'the preimage is the documented text',
  );
  const verdict = await verifyChain(store, { pageSize: 5 });
  t.same(verdict, { ok: true, head: { position: 12n, hash: previous }, events: 12 });
  const fromMiddle = await verifyChain(store, { from: { position: 6n, hash: events[5]!.hash! } });
  t.same(
    fromMiddle,
    { ok: true, head: { position: 12n, hash: previous }, events: 6 },
    'from a checkpoint only the events after it are walked',
  );
  const stream = await store.readStreamHashed('b');
  t.same(
    stream.map((event) => event.previousHash),
    [events[0]!.hash, events[3]!.hash, events[6]!.hash, events[9]!.hash],
    "a stream's events come with the hash of the log's event before each",
  );
  await t.rejects(store.append('line\nbreak', [{ type: 'Noted', data: {} }], NO_STREAM), /line break/);
});

const expected = {
  changed: { position: 7n, reason: /does not match its hash/ },
  removed: { position: 8n, reason: /position 7 is missing/ },
  inserted: { position: 7n, stream: 'forged' },
  reordered: { position: 7n, reason: /chained after the event at position 8/ },
};
for (const how of TAMPERINGS) {
  t.test(`events.db ${how} at position 7: caught and named "${how}"`, async (t) => {
    const { dir, remove } = await tempDir(`chain-${how}`);
    t.teardown(remove);
    await writeLog(dir);
    tamper(dir, how, 7);
    t.match(await verdictOf(dir), { ok: false, kind: how, ...expected[how] });
  });
}

t.test(
  'a log written before the chain existed: the column is added, its events chained from the first on first verification',
  async (t) => {
    const { dir, remove } = await tempDir('chain-legacy');
    t.teardown(remove);
    withFile(dir, (db) => {
      db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL, revision INTEGER NOT NULL CHECK (revision >= 0),
      type TEXT NOT NULL, data TEXT NOT NULL CHECK (json_valid(data)), recorded_at INTEGER NOT NULL, UNIQUE (stream, revision)) STRICT`);
      for (let i = 0; i < 3; i++)
        db.prepare(
          "INSERT INTO events (id, stream, revision, type, data, recorded_at) VALUES (?, 'old', ?, 'Noted', ?, 1700000000000000)",
        ).run(`old-${i}`, i, JSON.stringify({ i }));
    });
    const store = openSqliteEventStore(dir);
    t.teardown(() => store.close());
    t.same(
      (await store.readHashed()).map((event) => event.hash),
      [null, null, null],
      'old rows keep NULL',
    );
    t.equal(await store.chainLegacyEvents(), 3);
    t.equal(await store.chainLegacyEvents(), 0, 'once');
    await store.append('new', [{ type: 'Noted', data: {} }], NO_STREAM);
    t.match(await verifyChain(store), { ok: true, events: 4 });
  },
);

t.test('an append onto a legacy log chains it first', async (t) => {
  const { dir, remove } = await tempDir('chain-legacy-append');
  t.teardown(remove);
  await writeLog(dir);
  withFile(dir, (db) => db.exec('UPDATE events SET hash = NULL'));
  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  await store.append('new', [{ type: 'Noted', data: {} }], NO_STREAM);
  t.match(await verifyChain(store), { ok: true, events: 13 });
});

t.test('a hash removed after hashed events is not legacy: appends fail and verification names it', async (t) => {
  const { dir, remove } = await tempDir('chain-hash-removed');
  t.teardown(remove);
  await writeLog(dir);
  withFile(dir, (db) => db.exec('UPDATE events SET hash = NULL WHERE position >= 11'));
  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  await t.rejects(store.append('new', [{ type: 'Noted', data: {} }], NO_STREAM), /the last event, at position 12, has no hash/);
  t.match(await verifyChain(store), { ok: false, kind: 'changed', position: 11n, reason: /has no hash/ });
});

t.test('three processes appending to one data directory at once make one unbroken chain', async (t) => {
  const { dir, remove } = await tempDir('chain-processes');
  t.teardown(remove);
  const children = ['p1-', 'p2-', 'p3-'].map((prefix) =>
    spawn(process.execPath, [CHILD, dir, '16', prefix], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const acks = children.map(() => 0);
  const stderr = children.map(() => '');
  // until each has 500 acknowledged, or one has ended (then the check below says what it printed)
  await new Promise<void>((resolve) =>
    children.forEach((child, i) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr[i] += chunk));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        acks[i]! += chunk.split('\n').length - 1;
        if (acks.every((count) => count >= 500)) resolve();
      });
      child.once('exit', () => resolve());
    }),
  );
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined)));
  t.ok(
    acks.every((count) => count >= 500),
    `each process had 500 appends acknowledged (${acks.join(', ')}; ${stderr.join(' ').trim() || 'no errors'})`,
  );
  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  const events = await store.readHashed();
  t.same(new Set(events.map((event) => event.stream.slice(0, 3))), new Set(['p1-', 'p2-', 'p3-']));
  const processChanges = events.filter((event, i) => i > 0 && event.stream.slice(0, 3) !== events[i - 1]!.stream.slice(0, 3)).length;
  t.ok(processChanges > 3, `the processes' batches interleave in the log (${processChanges} changes of writer)`);
  t.same(await verifyChain(store), {
    ok: true,
    head: { position: events.at(-1)!.position, hash: events.at(-1)!.hash },
    events: events.length,
  });
});
