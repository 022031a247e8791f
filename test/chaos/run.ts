// npm run chaos [-- --orders 40 --concurrency 6 --partition-s 20 --faults latency,partition --keep]
// The long run of the chaos harness (harness.ts): every fault, bigger bursts. Prints what happened in
// each phase and the checker's verdict; exits 1 on any violation.
import { report, runChaos } from './harness.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};

const started = Date.now();
const run = await runChaos({
  replicas: 3,
  ordersPerPhase: Number(option('orders', '40')),
  concurrency: Number(option('concurrency', '6')),
  partitionMs: Number(option('partition-s', '20')) * 1000,
  settleMs: 180_000,
  ...(args.includes('--faults') ? { faults: option('faults', '').split(',') } : {}),
  keepDir: args.includes('--keep'),
  ...(args.includes('--log-level') ? { env: { LOG_LEVEL: option('log-level', 'warn') } } : {}),
  say: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`),
});
for (const line of report(run)) console.log(line);
process.exitCode = run.result.ok ? 0 : 1;
