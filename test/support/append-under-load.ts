// Child process for the SIGKILL durability test: appends without pause from many concurrent writers
// and prints every append the moment its promise resolves, i.e. the moment it is acknowledged.
// Usage: node append-under-load.js <dataDir> <writers> [stream prefix: several processes on one file]
// Each line on stdout: "<stream> <nextRevision> <eventCount>".
import { NO_STREAM, exactly } from '../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';

const [dataDir, writersArg = '64', prefix = ''] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: append-under-load <dataDir> <writers>');

// Never outlive the test that spawned us.
setTimeout(() => process.exit(2), 60_000).unref();
process.stdout.on('error', () => process.exit(3));

const store = openSqliteEventStore(dataDir);

async function writer(w: number): Promise<never> {
  const stream = `${prefix}load-${w}`;
  let revision: bigint | undefined;
  for (let seq = 0; ; seq++) {
    const count = 1 + (seq % 3);
    const events = Array.from({ length: count }, (_, i) => ({ type: 'Loaded', data: { w, seq, i } }));
    const result = await store.append(stream, events, revision === undefined ? NO_STREAM : exactly(revision));
    // stdout to a pipe is synchronous on Linux: once write() returns, the parent can read the line.
    process.stdout.write(`${stream} ${result.nextRevision} ${count}\n`);
    revision = result.nextRevision;
  }
}

for (let w = 0; w < Number(writersArg); w++) {
  writer(w).catch((error: unknown) => {
    process.stderr.write(`writer ${w} failed: ${String(error)}\n`);
    process.exit(1);
  });
}
