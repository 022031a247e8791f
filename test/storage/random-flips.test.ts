// Random bytes flipped anywhere in any one file of a stopped service's data directory, several seeds,
// then a real start. Whatever the damage hits (a page header, a row, free space, the schema, the share
// secret), the service either refuses to start with one line and a non-zero exit, or serves every order,
// list page and pallet list exactly as before; an answer may be a 503 (the truth cannot be read just
// now), never a 500 and never different data.
import t from 'tap';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { eventually, removeDataDir, startTestService, tempDataDir } from '../support/service.js';
import { startChild, stopChild } from './support/service-child.js';
import { everythingServed, seededRandom, type Answers } from './support/served.js';

const REFERENCES = ['FLIP-1', 'FLIP-2', 'FLIP-3', 'FLIP-4', 'FLIP-5'];
const DATABASES = ['events.db', 'read-models.db', 'checkpoints.db', 'notifications.db'];
const FILES = [...DATABASES, 'share-secret'];

const original = tempDataDir();
t.teardown(() => removeDataDir(original));
let before: Answers;
t.before(async () => {
  const service = await startTestService({ dataDir: original, key: ACME_KEY });
  for (const reference of REFERENCES) {
    const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference }) });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  }
  for (const reference of REFERENCES) {
    await eventually(async () => (await service.request('GET', `/api/v1/orders/pallet-contents/?order=${reference}`)).status === 200);
  }
  await service.stop();
  writeFileSync(join(original, 'seed.json'), JSON.stringify(testSeed()));
  // Every page into the main files, so that a flip lands in bytes SQLite will read.
  for (const file of DATABASES) {
    const db = new Database(join(original, file));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
  const started = await startChild(copyOfData());
  if (!('child' in started)) throw new Error(`did not start: ${started.stderr}`);
  before = await everythingServed(started.url, REFERENCES);
  await stopChild(started.child);
});

function copyOfData(): string {
  const dir = tempDataDir();
  cpSync(original, dir, { recursive: true });
  t.teardown(() => removeDataDir(dir));
  return dir;
}

for (const file of FILES) {
  for (const [seed, flips] of [[11, 1], [12, 8], [13, 64], [14, 2], [15, 4]] as const) {
    t.test(`${file}, seed ${seed}: ${flips} random bytes flipped anywhere: one line and an exit, or exactly what was served before`, async (t) => {
      const dir = copyOfData();
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
        if (got.startsWith('503 ')) t.pass(`${request}: 503, the truth not readable now`);
        else t.equal(got, answer, `${request}: as before the damage`);
      }
      t.same(Object.values(after).filter((answer) => answer.startsWith('500')), [], 'never a 500');
      t.equal(await stopChild(started.child), 0, 'stops cleanly');
    });
  }
}
