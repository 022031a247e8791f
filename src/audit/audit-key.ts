// The Ed25519 key the service signs log digests with: ORDERS_AUDIT_KEY when set (a PKCS#8
// PEM private key; every replica that serves digests must have the same one), else one made on first
// start and kept in the data directory, as the share secret is (viewer/share-secret.ts).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { secretFile } from '../storage/secret-file.js';

export const AUDIT_KEY_FILE = 'audit-key.pem';

export interface AuditKey {
  privateKey: KeyObject;
  /** SPKI PEM: what GET /api/v1/audit/public-key serves and openssl reads. */
  publicKeyPem: string;
  /** sha256 of the public key's DER, hex: names the key in each digest. */
  fingerprint: string;
}

/** An audit key the service will not start with: the message names it, what is wrong and what to do. */
export class AuditKeyRejected extends Error {
  override name = 'AuditKeyRejected';
}

export function loadAuditKey(configured: string | undefined, dataDir: string): AuditKey {
  if (configured !== undefined)
    return fromPem(
      configured,
      () =>
        'ORDERS_AUDIT_KEY is not an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519); set a valid one (every replica the same)',
    );
  const { file, text: pem } = secretFile(
    dataDir,
    AUDIT_KEY_FILE,
    () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    (file, reason) =>
      new AuditKeyRejected(
        `${file} cannot be read or written as an audit key (${reason}); move it aside to have a new one made, or set ORDERS_AUDIT_KEY`,
      ),
  );
  return fromPem(
    pem,
    () =>
      `${file} is not an Ed25519 private key in PKCS#8 PEM; delete it to have a new one made (digests signed so far stay checkable with the old public key, if you kept it)`,
  );
}

function fromPem(pem: string, rejection: () => string): AuditKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new AuditKeyRejected(rejection());
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new AuditKeyRejected(rejection());
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    fingerprint: createHash('sha256')
      .update(publicKey.export({ type: 'spki', format: 'der' }))
      .digest('hex'),
  };
}
