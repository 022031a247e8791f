// The key share tokens are signed with: ORDERS_SHARE_SECRET when set (every replica behind one
// address must share it), else one generated on first start and kept in the data directory, so
// links stay valid across restarts.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SHARE_SECRET_FILE = 'share-secret';

/** A share secret the service will not start with: the message names it, what is wrong and what to do. */
export class ShareSecretRejected extends Error {
  override name = 'ShareSecretRejected';
}

export function loadShareSecret(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) {
    if (configured.length < 32) throw new ShareSecretRejected('ORDERS_SHARE_SECRET must be at least 32 characters; set a longer one (every replica the same)');
    return Buffer.from(configured, 'utf8');
  }
  const file = join(dataDir, SHARE_SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': of two processes starting on one directory, the first writes and both read its secret.
    writeFileSync(file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unreadable(file, error);
  }
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw unreadable(file, error);
  }
  if (!/^[0-9a-f]{64}$/.test(secret)) throw new ShareSecretRejected(`${file} is not a share secret (64 hex digits); delete it to have a new one made (links given out so far stop working)`);
  return Buffer.from(secret, 'hex');
}

function unreadable(file: string, error: unknown): ShareSecretRejected {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new ShareSecretRejected(`${file} cannot be read or written as a share secret (${reason}); move it aside to have a new one made (links given out so far stop working), or set ORDERS_SHARE_SECRET`);
}
