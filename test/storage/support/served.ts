// What a started service serves on the order endpoints of a set of planned orders, as text, so that two
// starts (before and after damage) compare byte for byte; and the seeded randomness the damage tests use.
import { ACME_KEY } from '../../support/seed.js';

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
  const text = await (await fetch(url.origin + '/metrics')).text();
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
