// Whether an unprivileged user can reach a path: every directory on the way must let that user through
// (search permission for its owner, its group or the others, whichever class the user falls in). The
// test servers run PostgreSQL as `postgres` when started by root, and a checkout inside a folder only
// root may enter (`mktemp -d` makes them 0700) would leave its cluster out of that user's reach.
import { statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface Account {
  uid: number;
  gid: number;
}

/** True when `account` can search every existing directory from the root down to `path` (itself included). */
export function reachableBy(path: string, account: Account): boolean {
  const chain: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    chain.push(at);
    if (dirname(at) === at) break;
  }
  return chain.every((directory) => {
    let stat: Stats;
    try {
      stat = statSync(directory);
    } catch {
      return true; // not made yet: it will be made, by and for whoever makes it
    }
    const searchBit = stat.uid === account.uid ? 0o100 : stat.gid === account.gid ? 0o010 : 0o001;
    return (stat.mode & searchBit) !== 0;
  });
}
