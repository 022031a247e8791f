// The faults, one per phase, each injected while a burst of orders is being submitted: the phase's burst
// starts, the fault comes a moment later, and it is healed before or after the burst ends as a real one
// would be. What each does to which process or proxy is all here.
import type { Cluster } from './cluster.js';

export interface FaultContext {
  cluster: Cluster;
  /** The phase's burst of submits; resolves when each has its final answer. */
  burst(): Promise<void>;
  say(line: string): void;
  /** How long the partition lasts. */
  partitionMs: number;
}

export interface Fault {
  name: string;
  what: string;
  run(context: FaultContext): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function replicaCount(cluster: Cluster): number {
  return cluster.live().length;
}

export const FAULTS: readonly Fault[] = [
  {
    name: 'latency',
    what: '200 ms added to every answer of the log, on every replica',
    async run({ cluster, burst }) {
      const proxies = Array.from({ length: replicaCount(cluster) }, (_, slot) => cluster.logProxy(slot));
      for (const proxy of proxies)
        await cluster.proxies.addToxic(proxy, { name: 'slow', type: 'latency', attributes: { latency: 200, jitter: 20 } });
      try {
        await burst();
      } finally {
        for (const proxy of proxies) await cluster.proxies.removeToxic(proxy, 'slow');
      }
    },
  },
  {
    name: 'reset-storm',
    what: 'every connection to the log and to MongoDB reset, every 400 ms for 6 s',
    async run({ cluster, burst }) {
      const proxies = Array.from({ length: replicaCount(cluster) }, (_, slot) => [cluster.logProxy(slot), cluster.mongoProxy(slot)]).flat();
      const storm = (async () => {
        await sleep(500);
        for (let elapsed = 0; elapsed < 6_000; elapsed += 400) {
          for (const proxy of proxies)
            await cluster.proxies.addToxic(proxy, { name: 'reset', type: 'reset_peer', attributes: { timeout: 0 } });
          await sleep(100);
          for (const proxy of proxies) await cluster.proxies.removeToxic(proxy, 'reset');
          await sleep(300);
        }
      })();
      await Promise.all([burst(), storm]);
    },
  },
  {
    name: 'partition',
    what: 'replica 1 cut from the log (no byte through in either direction, connections left open)',
    async run({ cluster, burst, say, partitionMs }) {
      const proxy = cluster.logProxy(0);
      const cut = (async () => {
        await sleep(500);
        await cluster.proxies.addToxic(proxy, { name: 'cut-up', type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } });
        await cluster.proxies.addToxic(proxy, { name: 'cut-down', type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } });
        say(`replica 1 cut from the log for ${partitionMs / 1000} s`);
        await sleep(partitionMs);
        await cluster.proxies.removeToxic(proxy, 'cut-up');
        await cluster.proxies.removeToxic(proxy, 'cut-down');
        say('replica 1 reaches the log again');
      })();
      await Promise.all([burst(), cut]);
    },
  },
  {
    name: 'kill-replica',
    what: 'SIGKILL of the replica that projects the read model, mid-burst; started again 5 s later',
    async run({ cluster, burst, say }) {
      const kill = (async () => {
        await sleep(1_500);
        await cluster.scrape();
        const live = cluster.live();
        const victim = live.findIndex((incarnation) => incarnation?.counters.projecting === 1);
        const slot = victim >= 0 ? victim : 1;
        const killed = await cluster.killReplica(slot);
        say(`replica ${slot + 1} (pid ${killed.process.child.pid}${victim >= 0 ? ', projecting the read model' : ''}) killed with SIGKILL`);
        await sleep(5_000);
        const started = await cluster.startReplica(slot);
        say(`replica ${slot + 1} started again (pid ${started.process.child.pid})`);
      })();
      await Promise.all([burst(), kill]);
    },
  },
  {
    name: 'kill-broker',
    what: 'SIGKILL of the Kafka broker mid-burst; started again 5 s later',
    async run({ cluster, burst, say }) {
      const kill = (async () => {
        await sleep(1_000);
        await cluster.kafka.kill();
        say('the broker killed with SIGKILL');
        await sleep(5_000);
        const took = await cluster.kafka.start();
        say(`the broker answers again (${(took / 1000).toFixed(1)} s to start)`);
      })();
      await Promise.all([burst(), kill]);
    },
  },
  {
    name: 'restart-postgres',
    what: "PostgreSQL stopped (fast shutdown: every connection closed) mid-burst, started again 3 s later; FerretDB's data is there too",
    async run({ cluster, burst, say }) {
      const restart = (async () => {
        await sleep(1_000);
        await cluster.postgres.stop();
        say('PostgreSQL stopped');
        await sleep(3_000);
        const took = await cluster.postgres.start();
        say(`PostgreSQL answers again (${(took / 1000).toFixed(1)} s to start)`);
      })();
      await Promise.all([burst(), restart]);
    },
  },
];
