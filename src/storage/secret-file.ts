// A secret the service makes on first start and keeps in the data directory, so that what was signed
// with it stays valid across restarts (the share secret, the audit key). Of two processes starting on
// one directory, the first writes ('wx') and both read what it wrote.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The secret file's text, made by `make` when the file does not exist yet. A file that cannot be written or
 * read throws what `unreadable` makes of its path and the reason (an errno code, else the message).
 */
export function secretFile(
  dataDir: string,
  name: string,
  make: () => string,
  unreadable: (file: string, reason: string) => Error,
): { file: string; text: string } {
  const file = join(dataDir, name);
  const reasonOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  mkdirSync(dataDir, { recursive: true });
  // Made only when missing (making a key is not free); 'wx' still decides a race between two starts.
  if (!existsSync(file)) {
    try {
      writeFileSync(file, make(), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unreadable(file, reasonOf(error));
    }
  }
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch (error) {
    throw unreadable(file, reasonOf(error));
  }
}
