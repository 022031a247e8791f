// The key share tokens are signed with: ORDERS_SHARE_SECRET when set (every replica behind one
// address must share it), else one generated on first start and kept in the data directory, so
// links stay valid across restarts.
import { randomBytes } from 'node:crypto';
import { secretFile } from '../storage/secret-file.js';

export const SHARE_SECRET_FILE = 'share-secret';

/** A share secret the service will not start with: the message names it, what is wrong and what to do. */
export class ShareSecretRejected extends Error {
  override name = 'ShareSecretRejected';
}

export function loadShareSecret(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) {
    if (configured.length < 32)
      throw new ShareSecretRejected('ORDERS_SHARE_SECRET must be at least 32 characters; set a longer one (every replica the same)');
    return Buffer.from(configured, 'utf8');
  }
  const { file, text } = secretFile(
    dataDir,
    SHARE_SECRET_FILE,
    () => `${randomBytes(32).toString('hex')}\n`,
    (file, reason) =>
      new ShareSecretRejected(
        `${file} cannot be read or written as a share secret (${reason}); move it aside to have a new one made (links given out so far stop working), or set ORDERS_SHARE_SECRET`,
      ),
  );
  const secret = text.trim();
  if (!/^[0-9a-f]{64}$/.test(secret))
    throw new ShareSecretRejected(
      `${file} is not a share secret (64 hex digits); delete it to have a new one made (links given out so far stop working)`,
    );
  return Buffer.from(secret, 'hex');
}
