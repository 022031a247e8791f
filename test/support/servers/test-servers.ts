// The real servers the suite runs against, on loopback: Apache Kafka (one KRaft node, from its Maven
// Central jars), FerretDB (a MongoDB wire-protocol server on SQLite, built from the Go module proxy) and
// PostgreSQL (Debian's packages, run as the unprivileged `postgres` user).
// `scripts/test-servers` starts one of each for developers and .ci/run; tests that kill or stop a server
// (test/e2e/production-stack.test.ts) start their own with the same functions.
//
// Every process started here is remembered by its PID and stopped by it, never by name. Downloads and
// builds land in a cache (ORDERS_TEST_SERVERS_CACHE, default ~/.cache/orders-test-servers), keyed by
// what they were built from, so a second start takes seconds; each is bounded in time.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, closeSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { reachableBy } from './reachable-by.js';

/** The version docker-compose.yml deploys (apache/kafka:3.9.1): what runs in tests is what ships. */
export const KAFKA_VERSION = '3.9.1';
export const FERRETDB_VERSION = '1.24.2';

const repository = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const kafkaPom = join(repository, 'scripts/test-servers/kafka/pom.xml');
const ferretDbSource = join(repository, 'scripts/test-servers/ferretdb');
const toxiproxySource = join(repository, 'scripts/test-servers/toxiproxy');
export const TOXIPROXY_VERSION = '2.12.0';

export function cacheDir(): string {
  return process.env.ORDERS_TEST_SERVERS_CACHE || join(homedir(), '.cache', 'orders-test-servers');
}

/** A download or build that failed or ran out of time: its message says which and what to do. */
export class ServerSetupError extends Error {}

function run(command: string, args: string[], options: { cwd?: string; timeoutMs: number; what: string; env?: NodeJS.ProcessEnv }): void {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: options.timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
    throw new ServerSetupError(
      `${options.what}: no result within ${options.timeoutMs / 1000} s (${command} ${args.join(' ')}); is the registry reachable?`,
    );
  }
  if (result.error) throw new ServerSetupError(`${options.what}: could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
    throw new ServerSetupError(`${options.what}: ${command} exited ${result.status}:\n${output}`);
  }
}

function digest(...files: string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

/** The broker's jars, downloaded once by Maven into the cache (a partial download is never used). */
export function prepareKafka(timeoutMs = 10 * 60_000): string {
  const libs = join(cacheDir(), `kafka-${KAFKA_VERSION}-${digest(kafkaPom)}`, 'libs');
  if (existsSync(join(libs, `kafka_2.13-${KAFKA_VERSION}.jar`))) return libs;
  const partial = `${libs}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  run('mvn', ['-q', '-B', '-f', kafkaPom, 'dependency:copy-dependencies', `-DoutputDirectory=${partial}`, '-DincludeScope=runtime'], {
    timeoutMs,
    what: `downloading Kafka ${KAFKA_VERSION} from Maven Central`,
  });
  rmSync(libs, { recursive: true, force: true });
  renameSync(partial, libs);
  return libs;
}

/** FerretDB's server: the ten-line Go main in scripts/test-servers/ferretdb, built once into the cache. */
export function prepareFerretDb(timeoutMs = 10 * 60_000): string {
  const binary = join(
    cacheDir(),
    `ferretdb-${FERRETDB_VERSION}-${digest(...['main.go', 'go.mod', 'go.sum'].map((f) => join(ferretDbSource, f)))}`,
    'ferretdb',
  );
  if (existsSync(binary)) return binary;
  const partial = `${binary}.partial-${process.pid}`;
  mkdirSync(join(binary, '..'), { recursive: true });
  run('go', ['build', '-o', partial, '.'], {
    cwd: ferretDbSource,
    timeoutMs,
    what: `building FerretDB ${FERRETDB_VERSION} from the Go module proxy`,
    env: { ...process.env, CGO_ENABLED: '0' },
  });
  renameSync(partial, binary);
  return binary;
}

/** Toxiproxy's server, built once into the cache from the module that pins it (scripts/test-servers/toxiproxy). */
export function prepareToxiproxy(timeoutMs = 10 * 60_000): string {
  const binary = join(
    cacheDir(),
    `toxiproxy-${TOXIPROXY_VERSION}-${digest(...['tools.go', 'go.mod', 'go.sum'].map((f) => join(toxiproxySource, f)))}`,
    'toxiproxy-server',
  );
  if (existsSync(binary)) return binary;
  const partial = `${binary}.partial-${process.pid}`;
  mkdirSync(join(binary, '..'), { recursive: true });
  run('go', ['build', '-o', partial, 'github.com/Shopify/toxiproxy/v2/cmd/server'], {
    cwd: toxiproxySource,
    timeoutMs,
    what: `building Toxiproxy ${TOXIPROXY_VERSION} from the Go module proxy`,
    env: { ...process.env, CGO_ENABLED: '0' },
  });
  renameSync(partial, binary);
  return binary;
}

/** A loopback port nobody listens on now (bound, noted, closed). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccepts) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolveAccepts(true);
    });
    socket.once('error', () => resolveAccepts(false));
  });
}

/** One server process: started, killed or stopped by its PID, and started again on the same data and port. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number | undefined;
  /** Where its output goes. */
  readonly logFile: string;
  /** The signal that stops it cleanly (PostgreSQL: SIGINT, its fast shutdown; SIGTERM waits for every client to leave). */
  readonly stopSignal: NodeJS.Signals;
  /** Starts it (again) and waits until it answers; resolves with how long that took. */
  start(): Promise<number>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL, as a crash: resolves once the process has exited. */
  kill(): Promise<void>;
}

interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  logFile: string;
  port: number;
  /** Ready once the port accepts and, when given, the log holds this line. */
  readyLine?: string;
  readyTimeoutMs: number;
  /** Outlives the process that started it (scripts/test-servers start): own process group, not waited for. */
  detached?: boolean;
  stopSignal?: NodeJS.Signals;
  /** Run as this user and group (root starts PostgreSQL as `postgres`: it refuses to run as root). */
  uid?: number;
  gid?: number;
}

function serverProcess(spec: ProcessSpec): ServerProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const signal = async (name: NodeJS.Signals, graceMs: number) => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    process.kill(current.pid!, name);
    const timer = setTimeout(() => {
      if (current.exitCode === null && current.signalCode === null) process.kill(current.pid!, 'SIGKILL');
    }, graceMs);
    await exited;
    clearTimeout(timer);
  };
  return {
    name: spec.name,
    get pid() {
      return child?.pid;
    },
    logFile: spec.logFile,
    stopSignal: spec.stopSignal ?? 'SIGTERM',
    async start() {
      const started = Date.now();
      const log = openSync(spec.logFile, 'a');
      const logStart = existsSync(spec.logFile) ? readFileSync(spec.logFile).length : 0;
      child = spawn(spec.command, spec.args, {
        stdio: ['ignore', log, log],
        detached: spec.detached ?? false,
        ...(spec.uid === undefined ? {} : { uid: spec.uid, gid: spec.gid }),
      });
      closeSync(log);
      if (spec.detached) child.unref();
      const current = child;
      exited = new Promise((resolveExit) => current.once('exit', () => resolveExit()));
      while (Date.now() - started < spec.readyTimeoutMs) {
        if (current.exitCode !== null || current.signalCode !== null) break;
        const logged = !spec.readyLine || readFileSync(spec.logFile).subarray(logStart).includes(spec.readyLine);
        if (logged && (await accepts(spec.port))) return Date.now() - started;
        await sleep(100);
      }
      const tail = readFileSync(spec.logFile, 'utf8').split('\n').slice(-20).join('\n');
      await signal('SIGKILL', 0);
      throw new ServerSetupError(
        `${spec.name} did not answer on 127.0.0.1:${spec.port} within ${spec.readyTimeoutMs / 1000} s (exit ${current.exitCode ?? current.signalCode ?? 'none'}); last lines of ${spec.logFile}:\n${tail}`,
      );
    },
    stop: (graceMs = 10_000) => signal(spec.stopSignal ?? 'SIGTERM', graceMs),
    kill: () => signal('SIGKILL', 0),
  };
}

export interface KafkaServer extends ServerProcess {
  /** host:port for KAFKA_BROKERS. */
  readonly brokers: string;
}

/**
 * A single-node KRaft broker on loopback, its data in `dir` (formatted on first use). `advertised`: the
 * host:port clients are told to use, when they reach the broker through a proxy.
 */
export async function kafkaServer(
  dir: string,
  options: {
    libs?: string;
    port?: number;
    detached?: boolean;
    advertised?: string;
    autoCreateTopics?: boolean;
    quickRestart?: boolean;
  } = {},
): Promise<KafkaServer> {
  const libs = options.libs ?? prepareKafka();
  const port = options.port ?? (await freePort());
  const controllerPort = await freePort();
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'server.properties');
  writeFileSync(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://${options.advertised ?? `127.0.0.1:${port}`}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      'inter.broker.listener.name=PLAINTEXT',
      `log.dirs=${join(dir, 'data')}`,
      'num.partitions=1',
      // One node: the internal topics can have one replica only.
      'offsets.topic.replication.factor=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      // As on many production clusters when false: a topic exists only once someone creates it.
      `auto.create.topics.enable=${options.autoCreateTopics ?? true}`,
      // A node killed and started at once registers again only after its old session ran out (9 s by default);
      // 1.5 s is five missed heartbeats of a broker that shares its process with its controller.
      ...(options.quickRestart ? ['broker.session.timeout.ms=1500', 'broker.heartbeat.interval.ms=300'] : []),
      '',
    ].join('\n'),
  );
  // A broker restarted again and again starts its JVM faster: C1 only (C2's compiler threads compete with the
  // start for the cores), and the broker's classes from a class-data archive, written by a graceful stop
  // (`stop`, not `kill`) into the cache and used from then on. Each shortens a restart; both, the most
  // (docs/production-backends.md, Tests).
  const archive = options.quickRestart ? classDataArchive(libs) : undefined;
  const startFaster = archive
    ? [
        '-XX:TieredStopAtLevel=1',
        existsSync(archive.file) ? `-XX:SharedArchiveFile=${archive.file}` : `-XX:ArchiveClassesAtExit=${archive.partial}`,
      ]
    : [];
  const java = (flags: string[], mainClass: string, ...args: string[]) => [
    '-Xms128m',
    '-Xmx512m',
    '-XX:+UseSerialGC',
    ...flags,
    '-cp',
    `${libs}/*`,
    mainClass,
    ...args,
  ];
  if (!existsSync(join(dir, 'data', 'meta.properties'))) {
    // The controller ports of the config change on each start; the formatted storage does not keep them.
    run(
      'java',
      java([], 'kafka.tools.StorageTool', 'format', '--ignore-formatted', '--cluster-id', 'b3JkZXJzLXRlc3QtMDAwMQ', '--config', config),
      {
        timeoutMs: 60_000,
        what: 'formatting the Kafka storage',
      },
    );
  }
  const process_ = serverProcess({
    name: `Kafka ${KAFKA_VERSION}`,
    command: 'java',
    args: java(startFaster, 'kafka.Kafka', config),
    logFile: join(dir, 'server.log'),
    port,
    readyLine: 'Kafka Server started',
    readyTimeoutMs: 90_000,
    detached: options.detached ?? false,
  });
  const stop = process_.stop.bind(process_);
  return Object.assign(process_, {
    brokers: options.advertised ?? `127.0.0.1:${port}`,
    async stop(graceMs?: number) {
      await stop(graceMs);
      // A partial archive is never used: only one a JVM finished writing as it exited.
      if (archive && existsSync(archive.partial)) renameSync(archive.partial, archive.file);
    },
  }) as KafkaServer;
}

/** Where the broker's class-data archive is kept: by the jars and the JVM it was written with. */
function classDataArchive(libs: string): { file: string; partial: string } {
  const jvm = spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr;
  const file = join(libs, '..', `broker-classes-${createHash('sha256').update(jvm).digest('hex').slice(0, 12)}.jsa`);
  return { file, partial: `${file}.partial-${process.pid}` };
}

export interface FerretDbServer extends ServerProcess {
  /** mongodb:// URL of the `orders` database, for MONGODB_URL. */
  readonly url: string;
}

/** FerretDB on loopback, its databases in SQLite files in `dir`, or in a PostgreSQL database (`postgresqlUrl`). */
export async function ferretDbServer(
  dir: string,
  options: { binary?: string; port?: number; detached?: boolean; postgresqlUrl?: string } = {},
): Promise<FerretDbServer> {
  const binary = options.binary ?? prepareFerretDb();
  const port = options.port ?? (await freePort());
  mkdirSync(join(dir, 'data'), { recursive: true });
  const backend = options.postgresqlUrl ? ['--postgresql-url', options.postgresqlUrl] : ['--sqlite-dir', join(dir, 'data')];
  const process_ = serverProcess({
    name: `FerretDB ${FERRETDB_VERSION}${options.postgresqlUrl ? ' on PostgreSQL' : ''}`,
    command: binary,
    args: ['--listen', `127.0.0.1:${port}`, ...backend],
    logFile: join(dir, 'server.log'),
    port,
    readyTimeoutMs: 30_000,
    detached: options.detached ?? false,
  });
  return Object.assign(process_, { url: `mongodb://127.0.0.1:${port}/orders` }) as FerretDbServer;
}

/** Debian's PostgreSQL 15 server binaries. */
export const POSTGRES_BIN = process.env.ORDERS_POSTGRES_BIN || '/usr/lib/postgresql/15/bin';

export interface PostgresServer extends ServerProcess {
  /** libpq URL of the `orders` database, for POSTGRES_URL. */
  readonly url: string;
  /** libpq URL of another database on the same server (made by the caller). */
  urlOf(database: string): string;
}

/**
 * PostgreSQL on loopback, its cluster in `dir/data` (initdb on first use), as the unprivileged `postgres`
 * user when started by root (the server refuses root), over TCP only; in a temporary folder of its own
 * when `postgres` cannot reach `dir`. Trust authentication on loopback:
 * a test server holding test data. fsync and synchronous_commit stay on: the event log's durability is
 * what its tests rely on.
 */
export async function postgresServer(requestedDir: string, options: { port?: number; detached?: boolean } = {}): Promise<PostgresServer> {
  const port = options.port ?? (await freePort());
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : undefined;
  // Where `postgres` cannot reach the directory asked for (a checkout in a 0700 folder), the cluster goes
  // to one of the system's temporary folder named after it: the same one at every start from that folder.
  const dir =
    owner && !reachableBy(requestedDir, owner)
      ? join(tmpdir(), `orders-postgres-${createHash('sha256').update(resolve(requestedDir)).digest('hex').slice(0, 16)}`)
      : requestedDir;
  const data = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const result = spawnSync(
      join(POSTGRES_BIN, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'],
      {
        encoding: 'utf8',
        timeout: 120_000,
        ...(owner ?? {}),
      },
    );
    if (result.status !== 0)
      throw new ServerSetupError(
        `initdb of ${data} failed (exit ${result.status ?? result.error?.message}):\n${result.stdout}\n${result.stderr}`,
      );
  }
  const logFile = join(dir, 'server.log');
  if (owner && !existsSync(logFile)) {
    writeFileSync(logFile, '');
    chownSync(logFile, owner.uid, owner.gid);
  }
  const process_ = serverProcess({
    name: 'PostgreSQL 15',
    command: join(POSTGRES_BIN, 'postgres'),
    // No Unix socket (its default directory belongs to Debian's own cluster); enough connections for
    // several suites' pools and FerretDB at once.
    args: ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', '', '-c', 'max_connections=400', '-c', 'shared_buffers=128MB'],
    logFile,
    port,
    readyLine: 'database system is ready to accept connections',
    readyTimeoutMs: 60_000,
    detached: options.detached ?? false,
    stopSignal: 'SIGINT',
    ...(owner ?? {}),
  });
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const start = process_.start.bind(process_);
  const psql = (database: string, sql: string) =>
    spawnSync(join(POSTGRES_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-qtAc', sql], {
      encoding: 'utf8',
    });
  const server = Object.assign(process_, {
    url: urlOf('orders'),
    urlOf,
    // The databases exist once the server first answers: `orders` for the log, `ferretdb` for FerretDB's data.
    async start() {
      const took = await start();
      for (const database of ['orders', 'ferretdb']) {
        if (psql('postgres', `SELECT 1 FROM pg_database WHERE datname = '${database}'`).stdout.trim() === '1') continue;
        const made = psql('postgres', `CREATE DATABASE ${database}`);
        if (made.status !== 0) throw new ServerSetupError(`CREATE DATABASE ${database} failed: ${made.stderr}`);
      }
      return took;
    },
  }) as PostgresServer;
  return server;
}

export interface ToxiproxyServer extends ServerProcess {
  /** Its HTTP API, http://127.0.0.1:port. */
  readonly api: string;
}

/** Toxiproxy's server: its API on loopback; the proxies it is told to make listen where they are told. */
export async function toxiproxyServer(dir: string, options: { binary?: string; port?: number } = {}): Promise<ToxiproxyServer> {
  const binary = options.binary ?? prepareToxiproxy();
  const port = options.port ?? (await freePort());
  mkdirSync(dir, { recursive: true });
  const process_ = serverProcess({
    name: `Toxiproxy ${TOXIPROXY_VERSION}`,
    command: binary,
    args: ['-host', '127.0.0.1', '-port', String(port)],
    logFile: join(dir, 'server.log'),
    port,
    readyTimeoutMs: 30_000,
  });
  return Object.assign(process_, { api: `http://127.0.0.1:${port}` }) as ToxiproxyServer;
}
