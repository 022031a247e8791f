// What a started service serves on the order endpoints of a set of planned orders, as text, so that two
// starts (before and after damage) compare byte for byte; the data directory the damage tests start from;
// and the seeded randomness they use.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ACME_KEY, acmeOrder, testSeed } from '../../support/seed.js';
import { eventually, removeDataDir, startTestService, tempDataDir } from '../../support/service.js';
import { startChild, stopChild } from './service-child.js';

/** Status and body text of every request, by request path. */
export type Answers = Record<string, string>;

const get = (url: URL, path: string) => fetch(url.origin + path, { headers: { authorization: `Api-Key ${ACME_KEY}` } });

/** Retrieve and pallet contents of each order (ids 1..n in submit order), list pages and a search. */
export async function everythingServed(url: URL, references: readonly string[]): Promise<Answers> {
  const paths = [
    ...references.map((_, i) => `/api/v1/orders/detailed-orders/${i + 1}/`),
    ...references.map((reference) => `/api/v1/orders/pallet-contents/?order=${reference}`),
    '/api/v1/orders/detailed-orders/',
    '/api/v1/orders/detailed-orders/?page_size=4&page=2',
    `/api/v1/orders/detailed-orders/?search=${references[2]!.toLowerCase()}`,
  ];
  const answers: Answers = {};
  for (const path of paths) {
    const response = await get(url, path);
    // Page links name this process's address, which changes from one start to the next.
    answers[path] = `${response.status} ${(await response.text()).replaceAll(url.host, 'HOST')}`;
  }
  return answers;
}

/** The sum of a metric's samples over its labels in /metrics. */
export async function metric(url: URL, name: string): Promise<number> {
  const text = await (await fetch(`${url.origin}/metrics`)).text();
  return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0);
}

/** Deterministic pseudo-random numbers (mulberry32): a failing seed can be run again. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A stopped service's data directory holding `references` submitted and planned (so every order has
 * pallet contents and nothing changes between later starts), with the tests' seed beside it, and what a
 * service process started on a copy of it serves. `copyOf` gives each case its own copy.
 */
export async function plannedDataDir(
  t: { teardown(fn: () => void): void },
  references: readonly string[],
): Promise<{ copyOf(t: { teardown(fn: () => void): void }): string; before: Answers; dir: string }> {
  const dir = tempDataDir();
  t.teardown(() => removeDataDir(dir));
  const service = await startTestService({ dataDir: dir, key: ACME_KEY });
  for (const reference of references) {
    const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference }) });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  }
  for (const reference of references) {
    await eventually(async () => (await service.request('GET', `/api/v1/orders/pallet-contents/?order=${reference}`)).status === 200);
  }
  await service.stop();
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(testSeed()));
  // Every page into the main files, so that damage lands in bytes SQLite will read.
  for (const file of ['events.db', 'read-models.db', 'checkpoints.db', 'notifications.db']) {
    const db = new Database(join(dir, file));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
  const copyOf = (t: { teardown(fn: () => void): void }) => {
    const copy = tempDataDir();
    cpSync(dir, copy, { recursive: true });
    t.teardown(() => removeDataDir(copy));
    return copy;
  };
  // What the service serves from the sound files, read from a process like the damaged cases.
  const started = await startChild(copyOf(t));
  if (!('child' in started)) throw new Error(`did not start: ${started.stderr}`);
  const before = await everythingServed(started.url, references);
  await stopChild(started.child);
  return { copyOf, before, dir };
}
