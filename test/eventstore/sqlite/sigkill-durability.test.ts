// An acknowledged append must survive the process being killed outright. A child process appends under
// load and prints each append as soon as it is acknowledged; it gets SIGKILL mid-stream; the parent then
// reopens the file and checks that every acknowledged event is there and that the log is consistent.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { exactly } from '../../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { tempDir } from '../../support/eventstore-temp-dir.js';

const CHILD = fileURLToPath(new URL('../../support/append-under-load.js', import.meta.url));
const WRITERS = 64;
const KILL_AFTER_ACKS = 3000;

interface Ack {
  stream: string;
  nextRevision: bigint;
  count: number;
}

t.test('every acknowledged append survives SIGKILL', async (t) => {
  const { dir, remove } = await tempDir('sigkill');
  t.teardown(remove);

  const child = spawn(process.execPath, [CHILD, dir, String(WRITERS)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: Ack[] = [];
  let stderr = '';
  let partial = '';
  let killed = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [stream, revision, count] = line.split(' ');
      acks.push({ stream: stream!, nextRevision: BigInt(revision!), count: Number(count) });
    }
    if (!killed && acks.length >= KILL_AFTER_ACKS) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  // 'close' comes after stdout has ended, so every line the child managed to write has been read.
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  t.equal(signal, 'SIGKILL', `the child died of our SIGKILL (code ${code}, stderr: ${stderr.trim() || 'empty'})`);
  t.equal(partial, '', 'no half-written ack line');

  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  const log = await store.readAll();

  // The log is consistent: positions rise, ids are unique, each stream's revisions run 0, 1, 2, ...
  t.ok(
    log.every((e, i) => i === 0 || e.position > log[i - 1]!.position),
    'positions strictly increase',
  );
  t.equal(new Set(log.map((e) => e.id)).size, log.length, 'event ids are unique');
  const streams = new Map<string, bigint[]>();
  for (const e of log) {
    const revisions = streams.get(e.stream);
    if (revisions) revisions.push(e.revision);
    else streams.set(e.stream, [e.revision]);
  }
  const gaps = [...streams].filter(([, revisions]) => revisions.some((r, i) => r !== BigInt(i)));
  t.strictSame(
    gaps.map(([name]) => name),
    [],
    'revisions are contiguous from 0 in every stream',
  );

  // Every acknowledged append is stored, whole: its last revision is there, so (contiguity) all of it is.
  const missing = acks.filter((ack) => BigInt(streams.get(ack.stream)?.length ?? 0) <= ack.nextRevision);
  t.strictSame(missing.slice(0, 5), [], `all ${acks.length} acknowledged appends are stored`);
  // Beyond its last ack a writer can have committed at most the one append it had in flight (<= 3 events).
  const lastAcked = new Map(acks.map((ack) => [ack.stream, ack.nextRevision])); // acks of a stream arrive in order
  const overshoot = [...streams].filter(([name, revisions]) => BigInt(revisions.length - 1) - (lastAcked.get(name) ?? -1n) > 3n);
  t.strictSame(
    overshoot.map(([name]) => name),
    [],
    'nothing stored beyond the one in-flight append per writer',
  );

  const ackedEvents = acks.reduce((sum, ack) => sum + ack.count, 0);
  t.ok(log.length >= ackedEvents, 'stored >= acknowledged');
  t.comment(
    `acknowledged: ${acks.length} appends / ${ackedEvents} events; stored after SIGKILL: ${log.length} events ` +
      `(${log.length - ackedEvents} committed but not yet acknowledged when killed); ${streams.size} streams`,
  );

  // The recovered file takes writes again.
  const [name, revisions] = [...streams][0]!;
  const next = await store.append(name, [{ type: 'AfterRecovery', data: {} }], exactly(revisions.at(-1)!));
  t.equal(next.nextRevision, revisions.at(-1)! + 1n, 'appends continue after recovery');
});
