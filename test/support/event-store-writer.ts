// A writer in a process of its own, for the contract's "several processes at once": opens the log the
// way the service does (backends.ts, from ORDERS_DATA_DIR or POSTGRES_URL), increments a counter stream
// `count` times by read, decide, append at the revision read, retrying on conflict, and prints what
// it did as one JSON line.
import { openEventStore } from '../../src/backends.js';
import { configFromEnv } from '../../src/config.js';
import { exactly, NO_STREAM, WrongExpectedRevision } from '../../src/eventstore/event-store.js';

const [stream, count, writer] = process.argv.slice(2) as [string, string, string];
const store = await openEventStore(configFromEnv());
let conflicts = 0;
try {
  for (let k = 0; k < Number(count); k++) {
    for (;;) {
      const last = await store.readLastEvent(stream);
      try {
        await store.append(
          stream,
          [{ type: 'Incremented', data: { writer, k, value: last ? Number(last.revision) + 2 : 1 } }],
          last ? exactly(last.revision) : NO_STREAM,
        );
        break;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        conflicts++;
      }
    }
  }
} finally {
  await store.close();
}
process.stdout.write(`${JSON.stringify({ writer, conflicts })}\n`);
