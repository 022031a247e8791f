// The window's timer survives the process. The service is a real process killed
// with SIGKILL while a window is open, and again just after a window closed or was planned; each
// time it restarts on the same data directory, and in the end every order is planned exactly once,
// the three under one parent.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACME_KEY } from '../support/seed.js';
import { eventually, removeDataDir, tempDataDir } from '../support/service.js';
import { allEvents } from '../support/events.js';
import { consolidationSeed, thirdOfA40ft } from './support.js';
import { embeddedEnv } from '../support/embedded-env.js';

const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));

function startChild(dataDir: string, env: Record<string, string> = {}): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, [main], {
    // The restarted process is a new claim holder: the killed one's claim on the window runs out in a second.
    env: embeddedEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      LOG_LEVEL: 'silent',
      ORDERS_PLANNING_LEASE_MS: '1000',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code, signal) => reject(new Error(`service exited early (${code ?? signal}): ${output}`)));
  });
  return { child, url };
}

const kill = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

async function submitThree(url: string, prefix: string): Promise<void> {
  for (let i = 1; i <= 3; i++) {
    const response = await fetch(`${url}/api/v1/orders/submit-order/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(thirdOfA40ft(`${prefix}-${i}`)),
    });
    if (response.status !== 201) throw new Error(`${prefix}-${i}: ${response.status} ${await response.text()}`);
  }
}

/** Per order stream: how many OrderPlanned; and the parents written. */
async function outcome(dataDir: string) {
  const events = await allEvents(dataDir);
  const planned = new Map<string, number>();
  for (const e of events) if (e.type === 'OrderPlanned') planned.set(e.stream, (planned.get(e.stream) ?? 0) + 1);
  const parents = events.filter((e) => e.type === 'OrderSubmitted' && (e.data as { consolidated_orders?: string[] }).consolidated_orders);
  const children = events
    .filter((e) => e.type === 'OrderSubmitted' && !(e.data as { consolidated_orders?: string[] }).consolidated_orders)
    .map((e) => e.stream);
  const into = events.filter((e) => e.type === 'OrderPlanned' && (e.data as { consolidated_into?: string }).consolidated_into).length;
  return { events, planned, parents, children, into };
}

// The last case reads the log back one event per batch after the restart: the window, whose time ran
// out while the process was down, must wait until its orders further on in the log are read back.
const cases = [
  ...(['the window is open', 'the window has closed', 'the window is planned'] as const).map((killWhen) => ({
    killWhen,
    pageSize: undefined,
  })),
  { killWhen: 'the window is open' as const, pageSize: 1 },
];
for (const { killWhen, pageSize } of cases) {
  const reading = pageSize === undefined ? '' : `, read back ${pageSize} event per batch`;
  t.test(`SIGKILL when ${killWhen}${reading}: after a restart every order is planned once, together`, async (t) => {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(consolidationSeed(undefined, 2)));
    let running = startChild(dataDir);
    t.teardown(async () => {
      running.child.kill('SIGKILL');
      removeDataDir(dataDir);
    });
    await submitThree(await running.url, 'R');
    if (killWhen === 'the window is open') {
      await kill(running.child);
      // the window's 2 s run out while the service is down
      await new Promise((resolve) => setTimeout(resolve, 2500));
    } else {
      const type = killWhen === 'the window has closed' ? 'ConsolidationClosed' : 'ConsolidationPlanned';
      await eventually(async () => (await allEvents(dataDir)).some((e) => e.type === type), 20_000, 5);
      await kill(running.child);
    }
    running = startChild(dataDir, pageSize === undefined ? {} : { ORDERS_LOG_PAGE_SIZE: String(pageSize) });
    await running.url;
    await eventually(async () => {
      const o = await outcome(dataDir);
      return o.children.every((s) => o.planned.get(s) === 1) && o.parents.length === 1 && o.planned.size === 4;
    }, 30_000);
    // a moment for anything that would come twice
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const o = await outcome(dataDir);
    t.equal(o.children.length, 3);
    t.ok(
      o.children.every((s) => o.planned.get(s) === 1),
      'each order planned exactly once',
    );
    t.equal(o.parents.length, 1, 'one parent');
    t.equal(o.into, 3, 'all three children planned into it');
    t.equal(o.events.filter((e) => e.type === 'ConsolidationPlanned').length, 1, 'the window planned once');

    // orders after the restart open a window of their own, whatever the log replayed
    await submitThree(await running.url, 'AFTER');
    await eventually(async () => {
      const after = await outcome(dataDir);
      return after.children.length === 6 && after.children.every((s) => after.planned.get(s) === 1) && after.parents.length === 2;
    }, 30_000);
    const after = await outcome(dataDir);
    t.ok(
      after.children.every((s) => after.planned.get(s) === 1),
      'the later orders are planned once too',
    );
    t.equal(after.parents.length, 2, 'under a second parent');
    await kill(running.child);
  });
}
