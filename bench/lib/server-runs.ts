// The runs a benchmark makes side by side: the embedded stores always, and with --servers the same run
// on the test servers (scripts/test-servers/test-servers start exports MONGODB_URL and KAFKA_BROKERS):
// the read models, checkpoints and delivery store on a fresh MongoDB database, notifications to Kafka.
import { randomUUID } from 'node:crypto';
import { databaseUrl } from '../../test/support/mongodb.js';

export interface ServerRun {
  label: string;
  /** Added to the service's environment (which otherwise never inherits the server variables). */
  env: Record<string, string>;
}

export async function serverRuns(withServers: boolean): Promise<ServerRun[]> {
  const runs: ServerRun[] = [{ label: 'embedded (SQLite)', env: {} }];
  if (!withServers) return runs;
  const { MONGODB_URL: url, KAFKA_BROKERS: brokers } = process.env;
  if (!url || !brokers) throw new Error('--servers needs MONGODB_URL and KAFKA_BROKERS: eval "$(scripts/test-servers/test-servers start)" first');
  const suffix = randomUUID().slice(0, 8);
  const database = `bench_${suffix}`;
  runs.push({
    label: 'FerretDB + Kafka',
    env: { MONGODB_URL: databaseUrl(url, database), KAFKA_BROKERS: brokers, ORDERS_KAFKA_TOPIC: `orders.bench-${suffix}` },
  });
  return runs;
}
