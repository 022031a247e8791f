// The service as a process on a data directory, for the storage tests: either it starts (its URL, and
// its output so far) or it refuses to (its exit code and what it printed), never a hang.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedEnv } from '../../support/embedded-env.js';

const main = fileURLToPath(new URL('../../../src/main.js', import.meta.url));

export type Started = { child: ChildProcess; url: URL; output: () => string } | { exitCode: number | null; stdout: string; stderr: string };

export function startChild(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const child = spawn(process.execPath, [main], {
    env: embeddedEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      LOG_LEVEL: 'info',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(stdout)?.[1];
      if (url) resolve({ child, url: new URL(url), output: () => stdout });
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** SIGTERM; resolves with the exit code once its output is all read ('close', not 'exit'). */
export async function stopChild(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  return exited;
}
