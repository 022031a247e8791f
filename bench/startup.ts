// npm run bench:startup -- [--orders 1000,100000] [--rounds 5]: how long a restart takes with N orders
// already stored and projected, from process start to the banner and to /readyz 200, with and without
// ORDERS_STARTUP_QUICK_CHECK; and what quick_check of each SQLite file costs. The first start of each size (which projects every
// order) is not measured: a restart is what an operator waits for.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { DEMO_SEED_FILE } from '../src/config.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import type { LaneDocument } from '../src/master-data/master-data-document.js';
import { loadOrders } from './load-orders.js';
import { measureNoise } from './lib/machine-noise.js';
import { startScriptEnv } from './lib/start-script-env.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const sizes = option('orders', '1000,100000').split(',').map(Number);
const rounds = Number(option('rounds', '5'));
const main = fileURLToPath(new URL('../src/main.js', import.meta.url));

function startService(dataDir: string, quickCheck = true): Promise<{ child: ChildProcess; bannerMs: number; readyMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      ...startScriptEnv(main),
      PORT: '0',
      HOST: '127.0.0.1',
      ORDERS_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ORDERS_STARTUP_QUICK_CHECK: String(quickCheck),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    child.stdout!.on('data', async (chunk: Buffer) => {
      const before = output;
      output += chunk.toString();
      const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (!url || /listening on/.test(before)) return;
      const bannerMs = performance.now() - t0;
      for (;;) {
        if ((await fetch(`${url}/readyz`)).status === 200) break;
        await new Promise((wait) => setTimeout(wait, 20));
      }
      resolve({ child, bannerMs, readyMs: performance.now() - t0 });
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const noise = measureNoise();
console.log(`machine noise: ${noise.meanMs.toFixed(1)} ms per workload, cv ${(noise.cv * 100).toFixed(1)} %`);
const demo = JSON.parse(readFileSync(DEMO_SEED_FILE, 'utf8'));
const lane = demo.company_groups[0].lanes[0];
const laneDocument: LaneDocument = { ...lane, items: lane.items.map((item: { upright?: boolean }) => ({ upright: false, ...item })) };

for (const size of sizes) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  try {
    const store = openSqliteEventStore(dataDir);
    await loadOrders(store, size, demo.company_groups[0].name, laneDocument);
    await store.close();
    // The first start projects every order (and plans none: they are loaded planned); wait until caught up.
    await stop((await startService(dataDir)).child);

    // Alternating, so that a change in the machine's load falls on both alike.
    const banner: number[] = [];
    const ready: number[] = [];
    const bannerUnchecked: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = await startService(dataDir);
      banner.push(started.bannerMs);
      ready.push(started.readyMs);
      await stop(started.child);
      const unchecked = await startService(dataDir, false);
      bannerUnchecked.push(unchecked.bannerMs);
      await stop(unchecked.child);
    }
    const checks = ['events.db', 'read-models.db', 'checkpoints.db', 'notifications.db'].map((file) => {
      const db = new Database(join(dataDir, file), { readonly: true });
      const t0 = performance.now();
      db.pragma('quick_check(3)');
      const ms = performance.now() - t0;
      db.close();
      return `${file} ${(statSync(join(dataDir, file)).size / 2 ** 20).toFixed(0)} MiB: quick_check ${ms.toFixed(0)} ms`;
    });
    console.log(
      `${size} orders: restart to banner median ${median(banner).toFixed(0)} ms (${banner.map((v) => v.toFixed(0)).join(', ')}), to /readyz 200 median ${median(ready).toFixed(0)} ms; with ORDERS_STARTUP_QUICK_CHECK=false to banner median ${median(bannerUnchecked).toFixed(0)} ms (${bannerUnchecked.map((v) => v.toFixed(0)).join(', ')}); ${checks.join('; ')}`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
