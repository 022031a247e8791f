// Random bytes flipped anywhere in any one file of a stopped service's data directory, several seeds,
// then a real start. Whatever the damage hits (a page header, a row, free space, the schema, the share
// secret), the service either refuses to start with one line and a non-zero exit, or serves every order,
// list page and pallet list exactly as before; an answer may be a 503 (the truth cannot be read just
// now), never a 500 and never different data; for read-models.db, derived from the log, not a 503 either.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild, stopChild } from './support/service-child.js';
import { everythingServed, plannedDataDir, seededRandom, type Answers } from './support/served.js';

const REFERENCES = ['FLIP-1', 'FLIP-2', 'FLIP-3', 'FLIP-4', 'FLIP-5'];
const FILES = ['events.db', 'read-models.db', 'checkpoints.db', 'notifications.db', 'share-secret'];

let copyOfData: (t: { teardown(fn: () => void): void }) => string;
let before: Answers;
t.before(async () => {
  ({ copyOf: copyOfData, before } = await plannedDataDir(t, REFERENCES));
});

for (const file of FILES) {
  for (const [seed, flips] of [
    [11, 1],
    [12, 8],
    [13, 64],
    [14, 2],
    [15, 4],
  ] as const) {
    t.test(
      `${file}, seed ${seed}: ${flips} random bytes flipped anywhere: one line and an exit, or exactly what was served before`,
      async (t) => {
        const dir = copyOfData(t);
        const path = join(dir, file);
        const bytes = readFileSync(path);
        const next = seededRandom(seed * 1000 + FILES.indexOf(file));
        const offsets: number[] = [];
        for (let i = 0; i < flips; i++) {
          const at = Math.floor(next() * bytes.length);
          bytes[at]! ^= 1 + Math.floor(next() * 255);
          offsets.push(at);
        }
        writeFileSync(path, bytes);
        t.comment(`flipped at ${offsets.slice(0, 8).join(', ')}${offsets.length > 8 ? ', ...' : ''} of ${bytes.length} bytes`);

        const started = await startChild(dir);
        if (!('child' in started)) {
          const lines = started.stderr.trim().split('\n');
          t.equal(lines.length, 1, `refused with one line: ${started.stderr.trim()}`);
          t.notMatch(started.stderr, /^\s+at /m, 'no stack trace');
          t.not(started.exitCode, 0, 'a non-zero exit');
          return;
        }
        const after = await everythingServed(started.url, REFERENCES);
        for (const [request, answer] of Object.entries(before)) {
          const got = after[request]!;
          // The read model is derived: while it is rebuilt, its answers come from the log (read-model-flips.test.ts).
          if (got.startsWith('503 ') && file !== 'read-models.db') t.pass(`${request}: 503, the truth not readable now`);
          else t.equal(got, answer, `${request}: as before the damage`);
        }
        t.same(
          Object.values(after).filter((answer) => answer.startsWith('500')),
          [],
          'never a 500',
        );
        t.equal(await stopChild(started.child), 0, 'stops cleanly');
      },
    );
  }
}
