// On a Node older than 22.14, better-sqlite3 13 crashes the process with a segmentation fault when it
// opens a database. The service, replay and verify-history each say so in one line and exit 1 instead,
// before anything is opened. Run with this machine's older Node (Debian's Node 20) where there is one.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { removeDataDir, tempDataDir } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';

const OLD_NODE = '/usr/bin/node';
const version = existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
const old = version !== '' && (major < 22 || (major === 22 && minor < 14));

for (const command of ['main', 'replay', 'verify-history']) {
  t.test(
    `${command} on Node ${version || '(none)'}: one line and exit 1, no crash`,
    { skip: old ? false : `no Node older than 22.14 at ${OLD_NODE} (found ${version || 'none'})` },
    async (t) => {
      const dataDir = tempDataDir();
      t.teardown(() => removeDataDir(dataDir));
      const script = fileURLToPath(new URL(`../../src/${command}.js`, import.meta.url));
      const run = spawnSync(OLD_NODE, [script], {
        env: embeddedEnv({ ORDERS_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }),
        encoding: 'utf8',
        timeout: 30_000,
      });
      t.equal(run.status, 1, 'exit 1, not a signal');
      t.equal(run.signal, null);
      t.same(run.stderr.trim().split('\n'), [
        `Node.js ${version.replace(/^v/, '')} is not supported: use Node.js 24 LTS (or 22.14 and later); see README.md, "Run it".`,
      ]);
    },
  );
}
