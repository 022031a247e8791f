// `npm start` sets glibc's malloc threshold before it runs the service (docs/configuration.md), the image
// sets the same, and the benchmarks start the service with what its build's start script sets, so that
// what they measure is what users run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startScriptEnv } from '../../bench/lib/start-script-env.js';
import { startServiceProcess } from '../../bench/lib/service-process.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const main = join(repo, 'dist/src/main.js');
const TUNABLE = 'glibc.malloc.mmap_threshold=131072';

/** A build laid out as `npm run build` leaves it, with `start` as its start script. */
function buildWithStart(start: string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'start-env-'));
  mkdirSync(join(dir, 'dist/src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: start === undefined ? {} : { start } }));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'dist/src/main.js');
}

t.test('the assignments that open a start script, and nothing after the command', async (t) => {
  t.strictSame(startScriptEnv(buildWithStart('A=1 B_2=x=y node dist/src/main.js C=3')), { A: '1', B_2: 'x=y' });
  t.strictSame(startScriptEnv(buildWithStart('node dist/src/main.js')), {}, 'a build before the variable: none');
  t.strictSame(startScriptEnv(buildWithStart(undefined)), {}, 'no start script: none');
});

t.test("this build's npm start and its image set the same malloc threshold", async (t) => {
  t.strictSame(startScriptEnv(main), { GLIBC_TUNABLES: TUNABLE });
  const dockerfile = readFileSync(join(repo, 'Dockerfile'), 'utf8');
  const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  t.match(runtimeStage, new RegExp(`\\bGLIBC_TUNABLES=${TUNABLE.replaceAll('.', '\\.')}\\b`), 'the image the service runs in');
});

t.test('a benchmark starts the service with it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'start-env-service-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { child } = await startServiceProcess(main, { PORT: '0', HOST: '127.0.0.1', ORDERS_DATA_DIR: join(dir, 'data') }, dir, 'service');
  t.teardown(() => child.kill('SIGKILL'));
  const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
  t.ok(environ.includes(`GLIBC_TUNABLES=${TUNABLE}`), 'in the service process');
});
