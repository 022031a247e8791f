// Every refusal to start is one line on stderr, naming the file, what is wrong with it and what to do,
// with a non-zero exit and no stack trace: each file of the data directory damaged in several ways,
// each tried on the real service process.
import t from 'tap';
import { spawn } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { removeDataDir, startTestService, tempDataDir } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';

const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));

const original = tempDataDir();
t.teardown(() => removeDataDir(original));
t.before(async () => {
  const service = await startTestService({ dataDir: original, key: ACME_KEY });
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'REFUSE-1' }) });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  await service.stop();
  writeFileSync(join(original, 'seed.json'), JSON.stringify(testSeed()));
});

/** Runs the service on the directory; a start that listens is stopped at once and reported as such. */
function start(dataDir: string): Promise<{ started: boolean; exitCode: number | null; stderr: string }> {
  const child = spawn(process.execPath, [main], {
    env: embeddedEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      LOG_LEVEL: 'warn',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let started = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!started && /listening on/.test(stdout)) {
      started = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (exitCode) => resolve({ started, exitCode, stderr })));
}

function pageSize(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(2);
    readSync(fd, header, 0, 2, 16);
    return header.readUInt16BE(0) === 1 ? 65536 : header.readUInt16BE(0);
  } finally {
    closeSync(fd);
  }
}

function overwrite(file: string, at: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, at);
  } finally {
    closeSync(fd);
  }
}

// Damage that leaves the file in the directory, in the ways a disk, a copy or a hand breaks it.
const damages: Record<string, (file: string) => void> = {
  'every page but the first overwritten': (file) => {
    const page = pageSize(file);
    overwrite(file, page, Buffer.alloc(statSync(file).size - page, 0x5a));
  },
  'the schema (first page after the header) overwritten': (file) => overwrite(file, 100, Buffer.alloc(pageSize(file) - 100, 0xa5)),
  'not a database at all': (file) => writeFileSync(file, 'this is not a database\n'.repeat(300)),
};

const SQLITE_FILES = ['events.db', 'read-models.db', 'checkpoints.db', 'notifications.db'];

for (const name of SQLITE_FILES) {
  for (const [how, damage] of Object.entries(damages)) {
    t.test(`${name}, ${how}: one line naming it, or a start that rebuilds it`, async (t) => {
      const dir = tempDataDir();
      t.teardown(() => removeDataDir(dir));
      cpSync(original, dir, { recursive: true });
      for (const suffix of ['-wal', '-shm']) rmSync(join(dir, name + suffix), { force: true });
      damage(join(dir, name));
      const { started, exitCode, stderr } = await start(dir);
      if (name === 'read-models.db') return t.ok(started, `derived from the log, rebuilt at start: ${stderr}`);
      t.notOk(started, 'does not start');
      t.not(exitCode, 0, 'exits non-zero');
      t.equal(stderr.trim().split('\n').length, 1, `one line: ${stderr}`);
      t.match(
        stderr,
        new RegExp(`^Not starting: \\S*${name.replace('.', '\\.')} is damaged \\(.*\\): .+`),
        'naming the file, what is wrong and what to do',
      );
    });
  }
}

const secrets: Record<string, (file: string) => void> = {
  'not hex': (file) => writeFileSync(file, 'not a secret at all\n'),
  empty: (file) => writeFileSync(file, ''),
  'a directory': (file) => mkdirSync(file),
};

for (const [how, damage] of Object.entries(secrets)) {
  t.test(`share-secret ${how}: one line naming it and what to do`, async (t) => {
    const dir = tempDataDir();
    t.teardown(() => removeDataDir(dir));
    cpSync(original, dir, { recursive: true });
    rmSync(join(dir, 'share-secret'), { force: true });
    damage(join(dir, 'share-secret'));
    const { started, exitCode, stderr } = await start(dir);
    t.notOk(started, 'does not start');
    t.not(exitCode, 0, 'exits non-zero');
    t.equal(stderr.trim().split('\n').length, 1, `one line: ${stderr}`);
    t.match(stderr, /^Not starting: \S*share-secret .+; (delete|move) it/, 'naming the file, what is wrong and what to do');
  });
}

t.test('a seed file with a field master data does not know: one line naming the file and the field', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => removeDataDir(dir));
  cpSync(original, dir, { recursive: true });
  const seed = testSeed();
  Object.assign(seed.company_groups[0]!.lanes[0]!, { road_profil: 'EU' });
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
  const { started, exitCode, stderr } = await start(dir);
  t.notOk(started, 'does not start');
  t.not(exitCode, 0, 'exits non-zero');
  t.equal(stderr.trim().split('\n').length, 1, `one line: ${stderr}`);
  t.match(stderr, /seed\.json is invalid: .*"road_profil":\["Unknown field\."\]/, 'naming the file and the field');
});
