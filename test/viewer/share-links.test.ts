// Share tokens, the secret they are signed with, and the settings that shape viewer links.
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signShareToken, verifyShareToken } from '../../src/viewer/share-token.js';
import { loadShareSecret, SHARE_SECRET_FILE } from '../../src/viewer/share-secret.js';
import { shareLinks } from '../../src/viewer/share-links.js';
import { configFromEnv } from '../../src/config.js';

const secret = Buffer.alloc(32, 7);
const now = Date.parse('2026-11-24T00:00:00Z');
const inAnHour = now / 1000 + 3600;

t.test('a token verifies for its order until it expires, and for nothing else', async (t) => {
  const token = signShareToken(secret, 'SO-000001', inAnHour);
  t.match(token, /^\d+\.[A-Za-z0-9_-]{43}$/);
  t.ok(verifyShareToken(secret, 'SO-000001', token, now));
  t.notOk(verifyShareToken(secret, 'SO-000001', token, inAnHour * 1000), 'expired at its expiry');
  t.notOk(verifyShareToken(secret, 'SO-000002', token, now), 'another order');
  t.notOk(verifyShareToken(Buffer.alloc(32, 8), 'SO-000001', token, now), 'another secret');
  t.notOk(verifyShareToken(secret, 'SO-000001', `${inAnHour + 1}.${token.split('.')[1]}`, now), 'expiry changed');
  for (const bad of [
    undefined,
    ['a', 'b'],
    '',
    `${token}A`,
    token.slice(1),
    `0.${token.split('.')[1]}`,
    `${'9'.repeat(20)}.${token.split('.')[1]}`,
  ]) {
    t.notOk(verifyShareToken(secret, 'SO-000001', bad, now), `refused: ${JSON.stringify(bad)?.slice(0, 40)}`);
  }
});

t.test('links are absolute, carry no key, and live the configured number of days', async (t) => {
  let clock = now;
  const links = shareLinks({ secret, publicUrl: () => 'https://orders.example.com/base', validDays: 30, now: () => clock });
  const url = new URL(links.viewerUrl('SO-000042'));
  t.equal(`${url.origin}${url.pathname}`, 'https://orders.example.com/base/plans/SO-000042');
  const token = url.searchParams.get('token');
  t.equal(Number(token?.split('.')[0]), now / 1000 + 30 * 86_400);
  clock = now + 29 * 86_400_000;
  t.ok(links.verify('SO-000042', token));
  clock = now + 30 * 86_400_000;
  t.notOk(links.verify('SO-000042', token), 'expired after 30 days');
});

t.test('without ORDERS_SHARE_SECRET a secret is made once in the data directory and kept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'share-secret-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = loadShareSecret(undefined, dir);
  t.equal(first.length, 32);
  t.equal(statSync(join(dir, SHARE_SECRET_FILE)).mode & 0o777, 0o600, 'readable by the service only');
  t.same(loadShareSecret(undefined, dir), first, 'the same secret after a restart');
  t.same(loadShareSecret('x'.repeat(32), dir), Buffer.from('x'.repeat(32)), 'ORDERS_SHARE_SECRET wins');
  t.throws(() => loadShareSecret('too short', dir), /at least 32 characters/);
  writeFileSync(join(dir, SHARE_SECRET_FILE), 'not hex');
  t.throws(() => loadShareSecret(undefined, dir), /not a share secret/);
  t.equal(readFileSync(join(dir, SHARE_SECRET_FILE), 'utf8'), 'not hex', 'a damaged secret is never replaced silently');
});

t.test('ORDERS_PUBLIC_URL and ORDERS_SHARE_LINK_DAYS', async (t) => {
  t.equal(configFromEnv({}).publicUrl, undefined);
  t.equal(configFromEnv({}).shareLinkDays, 30);
  t.equal(configFromEnv({ ORDERS_PUBLIC_URL: 'https://orders.example.com/' }).publicUrl, 'https://orders.example.com');
  t.equal(configFromEnv({ ORDERS_PUBLIC_URL: 'http://10.1.2.3:8000/orders/' }).publicUrl, 'http://10.1.2.3:8000/orders');
  for (const bad of [
    'orders.example.com',
    'ftp://orders.example.com',
    'https://orders.example.com/?a=1',
    'https://user:pw@orders.example.com',
  ]) {
    t.throws(() => configFromEnv({ ORDERS_PUBLIC_URL: bad }), /ORDERS_PUBLIC_URL/, bad);
  }
  t.equal(configFromEnv({ ORDERS_SHARE_LINK_DAYS: '7' }).shareLinkDays, 7);
  t.throws(() => configFromEnv({ ORDERS_SHARE_LINK_DAYS: '0' }), /ORDERS_SHARE_LINK_DAYS/);
});
