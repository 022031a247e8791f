// The service as `npm start` runs it: a real process on loopback, with the environment a test gives it
// on top of the embedded default (embeddedEnv), its output kept for the test's messages.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { embeddedEnv } from '../support/embedded-env.js';
import { waitFor } from '../notifications/support/wait-for.js';

const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  request(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers; bytes: Buffer }>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `netns`: run it in that network namespace (`ip netns exec` replaces itself by the service: the pid is the service's). */
export async function startServiceProcess(env: NodeJS.ProcessEnv, options: { netns?: string } = {}): Promise<ServiceProcess> {
  const [command, args] = options.netns
    ? (['ip', ['netns', 'exec', options.netns, process.execPath, main]] as const)
    : ([process.execPath, [main]] as const);
  const child = spawn(command, [...args], {
    env: embeddedEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const found = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (found) resolve(found);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`service exited before listening (${code ?? signal}):\n${output}`)));
  });
  return {
    url,
    child,
    output: () => output,
    async request(method, path, { key, body, headers = {} } = {}) {
      const response = await fetch(url + path, {
        method,
        headers: {
          ...(key ? { authorization: `Api-Key ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(60_000),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      let parsed: unknown = bytes.toString('utf8');
      if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(parsed as string);
      return { status: response.status, body: parsed, headers: response.headers, bytes };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

/** waitFor with a slower poll: each check here is HTTP requests to a whole service. */
export const until = (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> =>
  waitFor(what, check, timeoutMs, 100);
