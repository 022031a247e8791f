// The hosts of the chaos harness: one network namespace per replica, each joined to a bridge in the
// harness's own namespace by a veth pair. A namespace has no route but its /24, so a replica can reach
// the bridge's address (where Toxiproxy listens in front of every server) and nothing else: no
// loopback of the machine, no other host. Made with `ip` (iproute2), which needs root; without it the
// harness says so and runs the replicas on loopback instead, each with its own port and data directory.
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

export interface Hosts {
  /** `netns`: one namespace per replica; `loopback`: the fallback without root. */
  readonly kind: 'netns' | 'loopback';
  /** Why it is loopback, when it is. */
  readonly reason?: string;
  /** The address the servers' proxies listen on, reachable from every replica. */
  readonly serverSide: string;
  /** Replica i's address (0-based) and the namespace to run it in, if any. */
  replica(i: number): { address: string; port: number; netns?: string };
  remove(): void;
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Namespaces when root may make them, else loopback (and the reason). */
export function makeHosts(count: number): Hosts {
  if (process.getuid?.() !== 0) return loopbackHosts(count, 'not root: network namespaces need CAP_SYS_ADMIN');
  try {
    return namespaceHosts(count);
  } catch (error) {
    return loopbackHosts(count, `making network namespaces failed (${(error as Error).message.split('\n')[0]})`);
  }
}

function loopbackHosts(count: number, reason: string): Hosts {
  const base = 20_000 + randomInt(0, 20_000);
  return {
    kind: 'loopback',
    reason,
    serverSide: '127.0.0.1',
    replica: (i) => {
      if (i >= count) throw new RangeError(`replica ${i} of ${count}`);
      return { address: '127.0.0.1', port: base + i };
    },
    remove() {},
  };
}

function namespaceHosts(count: number): Hosts {
  // A subnet and names of this run's own: two runs at once do not meet.
  const tag = randomInt(0, 46_656).toString(36).padStart(3, '0');
  const subnet = `10.213.${randomInt(1, 250)}`;
  const bridge = `chb${tag}`;
  const namespaces = Array.from({ length: count }, (_, i) => `chaos-${tag}-r${i + 1}`);
  const made: (() => void)[] = [];
  const remove = () => {
    for (const undo of made.reverse()) {
      try {
        undo();
      } catch {
        // already gone
      }
    }
    made.length = 0;
  };
  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    made.push(() => ip('link', 'del', bridge));
    ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    namespaces.forEach((ns, i) => {
      const veth = `${bridge}v${i + 1}`;
      ip('netns', 'add', ns);
      made.push(() => ip('netns', 'del', ns));
      // The pair's other end is created inside the namespace, as its eth0; deleting the namespace removes both.
      ip('link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      ip('link', 'set', veth, 'master', bridge);
      ip('link', 'set', veth, 'up');
      ip('-n', ns, 'addr', 'add', `${subnet}.${11 + i}/24`, 'dev', 'eth0');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
    });
  } catch (error) {
    remove();
    throw error;
  }
  return {
    kind: 'netns',
    serverSide: `${subnet}.1`,
    replica: (i) => {
      const ns = namespaces[i];
      if (!ns) throw new RangeError(`replica ${i} of ${count}`);
      return { address: `${subnet}.${11 + i}`, port: 8000, netns: ns };
    },
    remove,
  };
}
