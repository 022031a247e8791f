// The key share tokens are signed with: ORDERS_SHARE_SECRET when set (every replica behind one
// address must share it), else one generated on first start and kept in the data directory, so
// links stay valid across restarts.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SHARE_SECRET_FILE = 'share-secret';

export function loadShareSecret(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined) {
    if (configured.length < 32) throw new Error('ORDERS_SHARE_SECRET must be at least 32 characters');
    return Buffer.from(configured, 'utf8');
  }
  const file = join(dataDir, SHARE_SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': of two processes starting on one directory, the first writes and both read its secret.
    writeFileSync(file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(secret)) throw new Error(`${file} is not a share secret (64 hex digits); delete it to have a new one made (links given out so far stop working)`);
  return Buffer.from(secret, 'hex');
}
