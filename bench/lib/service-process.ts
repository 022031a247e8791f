// A service process a benchmark starts on the embedded stores: its start (the log goes to a file, not
// through the benchmark's process), its memory from /proc, and the waits for its read model and for idle.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedEnv } from '../../test/support/embedded-env.js';
import { startScriptEnv } from './start-script-env.js';

export const DEMO_KEY = 'acme-demo-key-0001';

/**
 * Starts `script` with `env`, and what its build's `npm start` sets, and resolves once it prints the URL it
 * listens on; its stdout goes to `<logDir>/<logName>.log`.
 */
export async function startServiceProcess(
  script: string,
  env: Record<string, string>,
  logDir: string,
  logName: string,
): Promise<{ child: ChildProcess; url: string }> {
  const logFile = join(logDir, `${logName}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [script], {
    env: embeddedEnv({ ...startScriptEnv(script), ...env }),
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  for (;;) {
    const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(readFileSync(logFile, 'utf8').slice(0, 65536))?.[1];
    if (url) return { child, url };
    if (exited !== undefined) throw new Error(`${script} exited with ${exited}: ${readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The process's memory in MiB from /proc/<pid>/status: resident (anonymous, file-backed), and its peak. */
export function processMemory(pid: number): { rss: number; anon: number; file: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
  return { rss: mib('VmRSS'), anon: mib('RssAnon'), file: mib('RssFile') + mib('RssShmem'), peak: mib('VmHWM') };
}

export function rssMiB(pid: number): number {
  return processMemory(pid).rss;
}

/** Resolves once the order list counts at least `count` orders. */
export async function waitForOrders(url: string, count: number): Promise<void> {
  for (;;) {
    const response = await fetch(`${url}/api/v1/orders/detailed-orders/?page_size=1`, {
      headers: { authorization: `Api-Key ${DEMO_KEY}` },
    });
    if (response.ok && ((await response.json()) as { count: number }).count >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until the process uses under 5 % of a core for two seconds running. */
export async function waitForIdle(pid: number): Promise<void> {
  const cpuTicks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  let quiet = 0;
  let last = cpuTicks();
  while (quiet < 4) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuTicks();
    quiet = now - last <= 2 ? quiet + 1 : 0; // 100 ticks a second: 2 ticks in 500 ms is 4 %
    last = now;
  }
}
