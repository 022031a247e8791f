// The signing key: made on first start into the data directory and kept, or given by ORDERS_AUDIT_KEY;
// anything else is refused with one line naming it and what to do, as the share secret is.
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { AUDIT_KEY_FILE, AuditKeyRejected, loadAuditKey } from '../../src/audit/audit-key.js';
import { removeDataDir, tempDataDir } from '../support/service.js';

t.test('made on first start into the data directory, the same one at the next', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => removeDataDir(dir));
  const first = loadAuditKey(undefined, dir);
  t.equal(statSync(join(dir, AUDIT_KEY_FILE)).mode & 0o777, 0o600, 'readable by the service only');
  const again = loadAuditKey(undefined, dir);
  t.equal(again.publicKeyPem, first.publicKeyPem);
  t.match(first.publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n/);
  t.match(first.fingerprint, /^[0-9a-f]{64}$/);
  const signature = sign(null, Buffer.from('text'), first.privateKey);
  t.ok(verify(null, Buffer.from('text'), again.publicKeyPem, signature), 'what one signs, the other public key checks');
});

t.test('ORDERS_AUDIT_KEY: that key, and no file made', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => removeDataDir(dir));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const key = loadAuditKey(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, dir);
  t.equal(key.publicKeyPem, publicKey.export({ type: 'spki', format: 'pem' }));
  t.throws(() => readFileSync(join(dir, AUDIT_KEY_FILE)), { code: 'ENOENT' });
  t.throws(
    () => loadAuditKey('not a key', dir),
    new AuditKeyRejected(
      'ORDERS_AUDIT_KEY is not an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519); set a valid one (every replica the same)',
    ),
  );
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  t.throws(() => loadAuditKey(rsa, dir), AuditKeyRejected, 'another kind of key');
});

t.test('a file that is not a key, or cannot be read: one line naming it and what to do', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => removeDataDir(dir));
  writeFileSync(join(dir, AUDIT_KEY_FILE), 'garbage\n');
  t.throws(() => loadAuditKey(undefined, dir), {
    name: 'AuditKeyRejected',
    message: new RegExp(`^${join(dir, AUDIT_KEY_FILE)} is not an Ed25519 private key in PKCS#8 PEM; delete it to have a new one made`),
  });
  const other = tempDataDir();
  t.teardown(() => removeDataDir(other));
  mkdirSync(join(other, AUDIT_KEY_FILE));
  t.throws(() => loadAuditKey(undefined, other), {
    name: 'AuditKeyRejected',
    message: /cannot be read or written as an audit key \(EISDIR\); move it aside/,
  });
});
