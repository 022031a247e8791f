// The runs a benchmark makes side by side: the embedded stores always; with --servers the same run on
// the test servers (scripts/test-servers/test-servers start exports MONGODB_URL and KAFKA_BROKERS): the
// read models, checkpoints and delivery store on a fresh MongoDB database, notifications to Kafka; with
// --baseline-build DIR the same run on another checkout's build (DIR/dist/src/main.js), so that what a
// change costs or saves is measured in one run, next to the build before it.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '../../test/support/mongodb.js';

export interface ServerRun {
  label: string;
  /** Added to the service's environment (which otherwise never inherits the server variables). */
  env: Record<string, string>;
  /** The service's entry point: this build's unless the run is another build's. */
  script: string;
}

export interface RunOptions {
  servers: boolean;
  /** A checkout whose `npm run build` has run: its service runs next to this one. */
  baselineBuild?: string | undefined;
}

/** `--servers` and `--baseline-build DIR` as a benchmark's argv gives them. */
export function runOptions(args: string[]): RunOptions {
  const i = args.indexOf('--baseline-build');
  return { servers: args.includes('--servers'), baselineBuild: i >= 0 ? args[i + 1] : undefined };
}

const thisBuild = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export async function serverRuns({ servers, baselineBuild }: RunOptions): Promise<ServerRun[]> {
  const runs: ServerRun[] = [{ label: 'embedded (SQLite)', env: {}, script: thisBuild }];
  if (baselineBuild) {
    const script = join(resolve(baselineBuild), 'dist/src/main.js');
    if (!existsSync(script)) throw new Error(`--baseline-build ${baselineBuild}: no ${script} (run npm run build there first)`);
    runs.push({ label: `baseline build ${baselineBuild}`, env: {}, script });
  }
  if (!servers) return runs;
  const { MONGODB_URL: url, KAFKA_BROKERS: brokers } = process.env;
  if (!url || !brokers)
    throw new Error('--servers needs MONGODB_URL and KAFKA_BROKERS: eval "$(scripts/test-servers/test-servers start)" first');
  const suffix = randomUUID().slice(0, 8);
  const database = `bench_${suffix}`;
  runs.push({
    label: 'FerretDB + Kafka',
    env: { MONGODB_URL: databaseUrl(url, database), KAFKA_BROKERS: brokers, ORDERS_KAFKA_TOPIC: `orders.bench-${suffix}` },
    script: thisBuild,
  });
  return runs;
}
