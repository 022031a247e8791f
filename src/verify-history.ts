// npm run verify-history: walks the whole log and checks its hash chain (eventstore/verify-chain.ts).
// Prints the head digest and the event count and exits 0, or names the first event that breaks the chain
// and how (changed, removed, inserted, reordered) and exits 1. A log written before the chain existed is
// chained from its first event by its first verification (docs/auditing.md says what that proves).
// Uses ORDERS_DATA_DIR and the backend variables like the service; safe while the service runs.
import { configFromEnv } from './config.js';
import { refuseUnsupportedNode } from './node-version.js';
import { describeBackends, openEventStore, storageNames } from './backends.js';
import { describeVerdict, verifyChain } from './eventstore/verify-chain.js';
import { isDamage } from './storage/damaged-storage.js';

refuseUnsupportedNode();

async function main(): Promise<number> {
  const config = configFromEnv();
  const store = await openEventStore(config);
  try {
    const started = performance.now();
    const legacy = await store.chainLegacyEvents();
    if (legacy > 0) console.log(`${legacy} events written before the hash chain existed were chained now, from the first event of the log`);
    const verdict = await verifyChain(store);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(
      `${describeVerdict(verdict, storageNames(config).log)} (${describeBackends(config)}; ${store.chainScope === 'log' ? 'one chain over the log' : 'one chain per stream'}; ${seconds} s)`,
    );
    return verdict.ok ? 0 : 1;
  } finally {
    await store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exitCode = await main();
  } catch (error) {
    if (!isDamage(error)) throw error;
    console.error(`verify-history stopped: ${(error as Error).message}; a damaged events.db must be restored from a backup.`);
    process.exitCode = 2;
  }
}
