// scripts/test-servers: start the suite's Kafka, FerretDB and PostgreSQL for a developer or .ci/run, print the
// variables to export, and stop exactly those processes later, by the PIDs it wrote down.
//
//   eval "$(scripts/test-servers start)"   # the `export` lines go to stdout, progress to stderr
//   npm test
//   scripts/test-servers stop
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ferretDbServer, kafkaServer, postgresServer, prepareFerretDb, prepareKafka, ServerSetupError } from './test-servers.js';

const repository = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const home = process.env.ORDERS_TEST_SERVERS_DIR || join(repository, '.test-servers');
const stateFile = join(home, 'state.json');

interface State {
  servers: { name: string; pid: number; signal?: NodeJS.Signals }[];
  env: Record<string, string>;
}

const say = (line: string) => process.stderr.write(`test-servers: ${line}\n`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopPid(name: string, pid: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, signal);
  for (let waited = 0; waited < 15_000 && alive(pid); waited += 100) await sleep(100);
  if (alive(pid)) {
    say(`${name} (pid ${pid}) still running 15 s after ${signal}: SIGKILL`);
    process.kill(pid, 'SIGKILL');
  }
  say(`stopped ${name} (pid ${pid})`);
}

async function stop(): Promise<void> {
  if (!existsSync(stateFile)) {
    say('nothing to stop (no state file)');
    return;
  }
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
  for (const { name, pid, signal } of [...state.servers].reverse()) await stopPid(name, pid, signal);
  rmSync(stateFile);
}

async function start(): Promise<void> {
  if (existsSync(stateFile)) {
    say('servers from an earlier start are still recorded: stopping them first');
    await stop();
  }
  // Fresh data on every start: the suite creates what it needs and assumes nothing is left over.
  rmSync(join(home, 'kafka'), { recursive: true, force: true });
  rmSync(join(home, 'ferretdb'), { recursive: true, force: true });
  rmSync(join(home, 'postgres'), { recursive: true, force: true });
  mkdirSync(home, { recursive: true });

  let began = Date.now();
  const libs = prepareKafka();
  say(`Kafka jars ready in ${((Date.now() - began) / 1000).toFixed(1)} s (${libs})`);
  began = Date.now();
  const binary = prepareFerretDb();
  say(`FerretDB binary ready in ${((Date.now() - began) / 1000).toFixed(1)} s (${binary})`);

  const kafka = await kafkaServer(join(home, 'kafka'), { libs, detached: true });
  const postgres = await postgresServer(join(home, 'postgres'), { detached: true });
  // FerretDB keeps its data in that PostgreSQL (FerretDB's production backend) rather than in SQLite files.
  const ferretDb = await ferretDbServer(join(home, 'ferretdb'), { binary, detached: true, postgresqlUrl: postgres.urlOf('ferretdb') });
  const state: State = { servers: [], env: { KAFKA_BROKERS: kafka.brokers, MONGODB_URL: ferretDb.url, POSTGRES_URL: postgres.url } };
  try {
    // PostgreSQL before FerretDB, which keeps its data there; stopped in the reverse order.
    for (const server of [kafka, postgres, ferretDb]) {
      const took = await server.start();
      state.servers.push({ name: server.name, pid: server.pid!, signal: server.stopSignal });
      writeFileSync(stateFile, JSON.stringify(state, null, 2));
      say(`${server.name} answered in ${(took / 1000).toFixed(1)} s (pid ${server.pid}, log ${server.logFile})`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  for (const [name, value] of Object.entries(state.env)) process.stdout.write(`export ${name}=${value}\n`);
}

const command = process.argv[2];
try {
  if (command === 'start') await start();
  else if (command === 'stop') await stop();
  else {
    say('usage: scripts/test-servers start|stop');
    process.exit(2);
  }
} catch (error) {
  say(error instanceof ServerSetupError ? error.message : String((error as Error).stack ?? error));
  process.exit(1);
}
