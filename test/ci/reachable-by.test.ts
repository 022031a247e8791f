// The test servers' PostgreSQL runs as `postgres` when root starts it; a checkout in a folder that user
// cannot enter (`mktemp -d` makes them 0700) has its cluster put elsewhere (test-servers.ts). Whether a
// user can reach a path is decided by each directory on the way and the user's class on it.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { reachableBy } from '../support/servers/reachable-by.js';

const me = { uid: process.getuid!(), gid: process.getgid!() };
// Neither this process's user nor its group.
const stranger = { uid: me.uid + 4242, gid: me.gid + 4242 };

t.test('a folder only its owner may enter: reachable for the owner, not for another user, below it or at it', async (t) => {
  const top = mkdtempSync(join(tmpdir(), 'reachable-'));
  t.teardown(() => rmSync(top, { recursive: true, force: true }));
  const inside = join(top, 'repo', '.test-servers', 'postgres');
  mkdirSync(inside, { recursive: true });
  chmodSync(top, 0o700);
  t.ok(reachableBy(inside, me), 'the owner');
  t.notOk(reachableBy(inside, stranger), 'another user, below it');
  t.notOk(reachableBy(top, stranger), 'another user, at it');
  t.ok(reachableBy(join(inside, 'not-made-yet'), me), 'a path not made yet counts as its existing part');

  chmodSync(top, 0o711);
  t.ok(reachableBy(inside, stranger), 'search permission for the others lets another user through');
  chmodSync(top, 0o701);
  t.ok(reachableBy(inside, stranger), 'search alone is enough');
  t.notOk(reachableBy(inside, { uid: stranger.uid, gid: me.gid }), 'a member of its group is judged by the group bits, here none');
  chmodSync(top, 0o710);
  t.ok(reachableBy(inside, { uid: stranger.uid, gid: me.gid }), 'the group bits let a member through');
  t.notOk(reachableBy(inside, stranger), 'but not the others');
});
