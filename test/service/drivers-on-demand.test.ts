// The embedded default starts without the servers' drivers: backends.ts and the notifications load
// KurrentDB's, PostgreSQL's, MongoDB's and Kafka's clients only when their variable is set. Loading them
// cost a good part of a start's main thread (docs/benchmarks.md); the server-stack suites run the paths
// that do load them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startServiceProcess, until } from '../e2e/service-process.js';

const DRIVERS = ['@kurrent/kurrentdb-client', '@grpc/grpc-js', 'pg', 'mongodb', 'kafkajs'];
const reporter = new URL('./support/report-packages.js', import.meta.url).href;

t.test('a start on the embedded default loads no server driver, and does load the embedded one', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orders-drivers-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const service = await startServiceProcess({
    ORDERS_DATA_DIR: dataDir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${reporter}`,
  });
  t.teardown(() => service.stop());
  // Ready: every consumer started, so whatever a start loads has been loaded.
  await until('/readyz 200', async () => (await service.request('GET', '/readyz')).status === 200);
  const loaded = [...service.output().matchAll(/^package loaded: (\S+)$/gm)].map((match) => match[1]!);
  t.ok(loaded.includes('better-sqlite3'), 'the report works: better-sqlite3 was loaded');
  t.strictSame(
    DRIVERS.filter((driver) => loaded.includes(driver)),
    [],
    "none of the servers' drivers",
  );
});
