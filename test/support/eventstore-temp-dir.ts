import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir, and a function that removes it. */
export async function tempDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `eventstore-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
