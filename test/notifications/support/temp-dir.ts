import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir, removed when the test ends. */
export async function tempDataDir(t: { teardown(fn: () => unknown): void }, label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `notifications-${label}-`));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
