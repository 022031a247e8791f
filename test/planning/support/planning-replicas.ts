// Planning replicas as real processes on one data directory (the log, and the claims in checkpoints.db),
// or with their checkpoints and claims on MongoDB: what the replicas tests and bench:replicas share.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { startServiceProcess, type ServiceProcess } from '../../e2e/service-process.js';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { ACME_KEY, testSeed } from '../../support/seed.js';
import { SINGLETON_PREFIX } from '../../../src/leases/singleton-lease.js';
import { WORK_LEASES } from '../../../src/leases/mongodb-work-leases.js';

export interface ReplicaOptions {
  dataDir: string;
  /** MongoDB URL naming the test's own database: checkpoints, read models and claims there. */
  mongodbUrl?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** The master data document; default: the tests' seed. */
  seed?: unknown;
}

/** Starts `count` replicas one after the other (each switches the shared files to WAL on its start). */
export async function startReplicas(count: number, options: ReplicaOptions): Promise<ServiceProcess[]> {
  const seedFile = join(options.dataDir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(options.seed ?? testSeed()));
  const replicas: ServiceProcess[] = [];
  for (let i = 0; i < count; i++) {
    replicas.push(
      await startServiceProcess({
        ORDERS_DATA_DIR: options.dataDir,
        ORDERS_SEED_FILE: seedFile,
        ORDERS_PLANNER_THREADS: '1',
        // three replicas' projectors writing one FerretDB database on a busy machine can trail the log by
        // more than the default 5 s; a submit is about planning here, not about how soon it is visible
        ORDERS_VISIBLE_WITHIN_MS: '30000',
        ...(options.mongodbUrl ? { MONGODB_URL: options.mongodbUrl } : {}),
        ...options.env,
      }),
    );
  }
  return replicas;
}

/** Submits the orders round-robin to the replicas, a few at a time; answers their order ids (and fills `sentAt` with each request's start). */
export async function submitRoundRobin(
  replicas: readonly ServiceProcess[],
  orders: readonly Record<string, unknown>[],
  atOnce = 6,
  key = ACME_KEY,
  sentAt: number[] = [],
): Promise<number[]> {
  const ids: number[] = [];
  const submit = async (i: number) => {
    sentAt[i] = performance.now();
    const response = await replicas[i % replicas.length]!.request('POST', '/api/v1/orders/submit-order/', { key, body: orders[i] });
    // 503 with an order id: stored in the log, only not yet in the read model (which trails the log on a
    // busy FerretDB); planning follows the log, so for these tests the order is submitted
    const stored = response.status === 201 || (response.status === 503 && typeof response.body?.order_id === 'number');
    if (!stored) throw new Error(`submit ${i}: ${response.status} ${JSON.stringify(response.body)}`);
    ids[i] = response.body.order_id as number;
  };
  for (let i = 0; i < orders.length; i += atOnce) {
    await Promise.all(Array.from({ length: Math.min(atOnce, orders.length - i) }, (_, k) => submit(i + k)));
  }
  return ids;
}

/** A counter or gauge from a replica's /metrics, summed over the label values that match. */
export async function metric(replica: ServiceProcess, name: string, labels = ''): Promise<number> {
  const text = String((await replica.request('GET', '/metrics')).body);
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || line.startsWith('#')) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? ([\d.e+-]+)$/.exec(line);
    if (match?.[1] === name && (match[2] ?? '').includes(labels)) sum += Number(match[3]);
  }
  return sum;
}

/** Planner runs of one replica by outcome. */
export async function plannerRuns(replica: ServiceProcess): Promise<{ stored: number; failed: number; discarded: number }> {
  const [stored, failed, discarded] = await Promise.all(
    ['stored', 'failed', 'discarded'].map((outcome) => metric(replica, 'orders_planner_runs_total', `outcome="${outcome}"`)),
  );
  return { stored: stored!, failed: failed!, discarded: discarded! };
}

/** Per order stream: how many OrderPlanned / OrderPlanningFailed the log holds. */
export async function resultsPerOrder(dataDir: string): Promise<Map<string, number>> {
  const store = openSqliteEventStore(dataDir);
  try {
    const results = new Map<string, number>();
    let after: bigint | undefined;
    for (;;) {
      const events = await store.readAll(after, 1000);
      if (events.length === 0) break;
      for (const event of events) {
        if (event.type === 'OrderSubmitted') results.set(event.stream, results.get(event.stream) ?? 0);
        if (event.type === 'OrderPlanned' || event.type === 'OrderPlanningFailed')
          results.set(event.stream, (results.get(event.stream) ?? 0) + 1);
      }
      after = events.at(-1)!.position;
    }
    return results;
  } finally {
    await store.close();
  }
}

// The same store holds the leases of singleton work (the projector, the notifications, the scrubber): not planning.
const isPlanningClaim = (key: string) => !key.startsWith(SINGLETON_PREFIX);

/** The keys a process holds planning claims on now (its holder id carries its pid), read from the work lease store itself. */
export async function claimsHeldBy(pid: number, options: ReplicaOptions): Promise<string[]> {
  const now = Date.now();
  if (options.mongodbUrl) {
    const client = await new MongoClient(options.mongodbUrl).connect();
    try {
      const rows = await client
        .db()
        .collection<{ _id: string; holder: string; lease_until: number }>(WORK_LEASES)
        .find({ holder: { $regex: `:${pid}:` }, lease_until: { $gt: now } })
        .toArray();
      return rows.map((row) => row._id).filter(isPlanningClaim);
    } finally {
      await client.close();
    }
  }
  const db = new Database(join(options.dataDir, 'checkpoints.db'), { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    return db
      .prepare<[string, number], { key: string }>("SELECT key FROM work_claims WHERE holder LIKE '%:' || ? || ':%' AND lease_until > ?")
      .all(String(pid), now)
      .map((row) => row.key)
      .filter(isPlanningClaim);
  } finally {
    db.close();
  }
}
