// The production stack of the chaos harness, all of it the harness's own: PostgreSQL (the log with the
// replicas' leases beside it, and FerretDB's data), FerretDB (the MongoDB-protocol read models, checkpoints and delivery state),
// Kafka, and Toxiproxy in front of each of them; replicas of the service on hosts of their own
// (network.ts) that reach every server only over TCP through its proxy: one proxy per replica for the
// log and for MongoDB, so one replica can be cut from them alone, and one for the broker, whose
// advertised address is the proxy's. Every process is started and stopped by its PID.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';
import { startServiceProcess, type ServiceProcess } from '../e2e/service-process.js';
import { testSeed } from '../support/seed.js';
import {
  ferretDbServer,
  freePort,
  kafkaServer,
  postgresServer,
  prepareFerretDb,
  prepareKafka,
  prepareToxiproxy,
  toxiproxyServer,
  type FerretDbServer,
  type KafkaServer,
  type PostgresServer,
  type ToxiproxyServer,
} from '../support/servers/test-servers.js';
import { makeHosts, type Hosts } from './network.js';
import { toxiproxyClient, type Toxiproxy } from './toxiproxy.js';

// kafkajs's 1 ms idle timer off for this process's own clients too (kafkajs-idle-timer.ts)
stopKafkajsIdleTimer();

export const TOPIC = 'orders.packing-instructions';

/** A replica's counters, as last scraped from its /metrics. */
export interface Counters {
  stored: number;
  failed: number;
  discarded: number;
  /** Runs whose order was amended or cancelled while they planned: not a second planning. */
  superseded: number;
  readModelWrites: number;
  cpuSeconds: number;
  projecting: number;
}

/** One process of a replica slot: a slot is restarted as a new incarnation with the same data directory. */
export interface Incarnation {
  slot: number;
  process: ServiceProcess;
  startedAt: number;
  /** Set when it was killed: when, and when its counters were last read before that. */
  killedAt?: number;
  counters: Counters;
  countersAt: number;
}

export interface Cluster {
  hosts: Hosts;
  proxies: Toxiproxy;
  postgres: PostgresServer;
  ferretDb: FerretDbServer;
  kafka: KafkaServer;
  /** The log, straight (not through a proxy): for the checker. */
  logUrl: string;
  /** The broker through its proxy, as the replicas reach it. */
  brokers: string;
  /** Proxy names: the log's and MongoDB's per replica, the broker's. */
  logProxy(slot: number): string;
  mongoProxy(slot: number): string;
  readonly kafkaProxy: string;
  /** The live incarnation of each slot (undefined while killed). */
  live(): (Incarnation | undefined)[];
  /** Every incarnation that ran, killed ones included: their counters sum to the cluster's. */
  incarnations(): readonly Incarnation[];
  startReplica(slot: number): Promise<Incarnation>;
  /** Reads its counters, then SIGKILL in the same turn: what it did after the read is bounded by the kill's time. */
  killReplica(slot: number): Promise<Incarnation>;
  scrape(): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  dir: string;
  replicas: number;
  /** Added to every replica's environment. */
  env?: Record<string, string>;
  say(line: string): void;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { dir, say } = options;
  const stops: (() => Promise<void> | void)[] = [];
  // What must not outlive the harness when it is cut short (a test runner's timeout sends SIGTERM): every
  // process it started, killed by its PID, and the namespaces, synchronously, on the way out.
  const emergency: (() => void)[] = [];
  const onExit = () => {
    for (const step of emergency.reverse()) {
      try {
        step();
      } catch {
        // gone already
      }
    }
  };
  const onSignal = () => {
    onExit();
    process.exit(1);
  };
  process.once('exit', onExit);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const killOnExit = (server: { pid: number | undefined }, signal: NodeJS.Signals = 'SIGKILL') =>
    emergency.push(() => {
      if (server.pid) process.kill(server.pid, signal);
    });
  const stop = async () => {
    for (const step of stops.reverse()) {
      try {
        await step();
      } catch (error) {
        say(`stopping: ${(error as Error).message}`);
      }
    }
    process.removeListener('exit', onExit);
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  };
  try {
    const hosts = makeHosts(options.replicas);
    stops.push(() => hosts.remove());
    emergency.push(() => hosts.remove());
    say(
      hosts.kind === 'netns'
        ? `hosts: ${options.replicas} network namespaces joined by a bridge at ${hosts.serverSide}; the servers' proxies listen there`
        : `hosts: loopback, one port and data directory per replica (${hosts.reason})`,
    );

    const [libs, ferretBinary, toxiproxyBinary] = [prepareKafka(), prepareFerretDb(), prepareToxiproxy()];
    const toxiproxy: ToxiproxyServer = await toxiproxyServer(join(dir, 'toxiproxy'), { binary: toxiproxyBinary });
    await toxiproxy.start();
    stops.push(() => toxiproxy.stop());
    killOnExit(toxiproxy);
    const proxies = toxiproxyClient(toxiproxy.api);

    // The broker's JVM starts while PostgreSQL and FerretDB do: the longest start of the three runs beside
    // the other two. quickRestart: the kill-broker fault's restart waits for the broker, not for the old
    // session's 9 s to run out.
    const kafkaPort = await freePort();
    const kafkaAddress = `${hosts.serverSide}:${await freePort()}`;
    const kafka = await kafkaServer(join(dir, 'kafka'), { libs, port: kafkaPort, advertised: kafkaAddress, quickRestart: true });
    stops.push(() => kafka.stop());
    killOnExit(kafka);
    await proxies.createProxy('kafka', kafkaAddress, `127.0.0.1:${kafkaPort}`);
    const kafkaStarted = kafka.start();
    // Awaited below; a failure here is not left unhandled while the others start.
    kafkaStarted.catch(() => {});

    const postgres = await postgresServer(join(dir, 'postgres'));
    await postgres.start();
    stops.push(() => postgres.stop());
    // SIGQUIT: PostgreSQL's immediate shutdown, which takes its backends down with it.
    killOnExit(postgres, 'SIGQUIT');
    const ferretDb = await ferretDbServer(join(dir, 'ferretdb'), { binary: ferretBinary, postgresqlUrl: postgres.urlOf('ferretdb') });
    await ferretDb.start();
    stops.push(() => ferretDb.stop());
    killOnExit(ferretDb);
    await kafkaStarted;

    const pgPort = Number(new URL(postgres.url).port);
    const ferretPort = Number(new URL(ferretDb.url).port);
    const logProxy = (slot: number) => `log-r${slot + 1}`;
    const mongoProxy = (slot: number) => `mongo-r${slot + 1}`;
    const endpoints: { log: string; mongo: string }[] = [];
    for (let slot = 0; slot < options.replicas; slot++) {
      const log = `${hosts.serverSide}:${await freePort()}`;
      const mongo = `${hosts.serverSide}:${await freePort()}`;
      await proxies.createProxy(logProxy(slot), log, `127.0.0.1:${pgPort}`);
      await proxies.createProxy(mongoProxy(slot), mongo, `127.0.0.1:${ferretPort}`);
      endpoints.push({ log, mongo });
    }
    await createTopic(kafkaAddress);

    // What replicas of one deployment share: master data, the secret of viewer links, the audit key.
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeed()));
    const shareSecret = randomBytes(32).toString('base64url');
    const auditKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

    const all: Incarnation[] = [];
    emergency.push(() => {
      for (const incarnation of all)
        if (incarnation.killedAt === undefined && incarnation.process.child.pid) process.kill(incarnation.process.child.pid, 'SIGKILL');
    });
    const live: (Incarnation | undefined)[] = Array.from({ length: options.replicas }, () => undefined);

    const scrapeOne = async (incarnation: Incarnation): Promise<void> => {
      const counters = await readCounters(incarnation.process);
      incarnation.counters = counters;
      incarnation.countersAt = Date.now();
    };

    const startReplica = async (slot: number): Promise<Incarnation> => {
      const host = hosts.replica(slot);
      const dataDir = join(dir, `replica-${slot + 1}`);
      mkdirSync(dataDir, { recursive: true });
      const process = await startServiceProcess(
        {
          PORT: String(host.port),
          HOST: host.address,
          ORDERS_DATA_DIR: dataDir,
          ORDERS_SEED_FILE: seedFile,
          POSTGRES_URL: `postgres://postgres@${endpoints[slot]!.log}/orders`,
          MONGODB_URL: `mongodb://${endpoints[slot]!.mongo}/chaos`,
          KAFKA_BROKERS: kafkaAddress,
          ORDERS_SHARE_SECRET: shareSecret,
          ORDERS_AUDIT_KEY: auditKey,
          ORDERS_PLANNER_THREADS: '1',
          ORDERS_PLANNING_LEASE_MS: '3000',
          LOG_LEVEL: 'warn',
          ...options.env,
        },
        host.netns ? { netns: host.netns } : {},
      );
      const incarnation: Incarnation = { slot, process, startedAt: Date.now(), counters: zero(), countersAt: 0 };
      all.push(incarnation);
      live[slot] = incarnation;
      return incarnation;
    };

    const cluster: Cluster = {
      hosts,
      proxies,
      postgres,
      ferretDb,
      kafka,
      logUrl: postgres.url,
      brokers: kafkaAddress,
      logProxy,
      mongoProxy,
      kafkaProxy: 'kafka',
      live: () => [...live],
      incarnations: () => all,
      startReplica,
      async killReplica(slot) {
        const incarnation = live[slot];
        if (!incarnation) throw new Error(`replica ${slot + 1} is not running`);
        await scrapeOne(incarnation).catch(() => {});
        incarnation.process.child.kill('SIGKILL');
        incarnation.killedAt = Date.now();
        live[slot] = undefined;
        await new Promise<void>((resolve) =>
          incarnation.process.child.exitCode !== null || incarnation.process.child.signalCode !== null
            ? resolve()
            : incarnation.process.child.once('exit', () => resolve()),
        );
        return incarnation;
      },
      async scrape() {
        await Promise.all(live.filter((i): i is Incarnation => i !== undefined).map((i) => scrapeOne(i).catch(() => {})));
      },
      stop,
    };
    // Replicas after the servers, stopped before them (SIGTERM, as an orchestrator would); what each
    // process said is kept beside its data directory.
    stops.push(async () => {
      await Promise.all(live.map((incarnation) => incarnation?.process.stop()));
      all.forEach((incarnation, i) => writeFileSync(join(dir, `replica-${incarnation.slot + 1}.${i}.log`), incarnation.process.output()));
    });
    // The first alone, since it makes the log's schema; then the others together.
    // Settled, all of them, before a failure is thrown: a replica still starting when another failed
    // would be left running after the stop below.
    await startReplica(0);
    const started = await Promise.allSettled(Array.from({ length: options.replicas - 1 }, (_, i) => startReplica(i + 1)));
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}

function zero(): Counters {
  return { stored: 0, failed: 0, discarded: 0, superseded: 0, readModelWrites: 0, cpuSeconds: 0, projecting: 0 };
}

/** The topic, made by the operator before anything consumes it (3 partitions, the broker's one replica). */
async function createTopic(brokers: string): Promise<void> {
  const admin = new Kafka({ clientId: 'chaos-harness', brokers: [brokers], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

export async function readCounters(process: ServiceProcess): Promise<Counters> {
  const response = await fetch(`${process.url}/metrics`, { signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  const sum = (name: string, labels = '') => {
    let total = 0;
    for (const line of text.split('\n')) {
      const match = /^([a-z_]+)(\{[^}]*\})? ([\d.e+-]+)$/.exec(line);
      if (match?.[1] === name && (match[2] ?? '').includes(labels)) total += Number(match[3]);
    }
    return total;
  };
  return {
    stored: sum('orders_planner_runs_total', 'outcome="stored"'),
    failed: sum('orders_planner_runs_total', 'outcome="failed"'),
    discarded: sum('orders_planner_runs_total', 'outcome="discarded"'),
    superseded: sum('orders_planner_runs_total', 'outcome="superseded"'),
    readModelWrites: sum('orders_read_model_writes_total'),
    cpuSeconds: sum('process_cpu_seconds_total'),
    projecting: sum('orders_projector_lease_held'),
  };
}
