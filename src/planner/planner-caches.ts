// What a planner thread keeps of the work it has done, for the next order that asks for the same:
// the best guillotine layer of a carton footprint on a pallet deck (per catalogue item and pallet
// type: the same for every order that ships the item), and the answers of the WebAssembly jobs
// (palletizing, loading containers) to the same input. Each cache is bounded, the least recently
// used entry going first, and keyed by everything its answer depends on: a master-data item whose
// size or weight changed is another key, never an old answer. Module state, so one set per thread:
// each planner worker (src/planning/plan-worker.ts) has its own; nothing is shared between threads.

/** An LRU map bounded by the summed cost of its entries (spots, bytes): the least recently used go first. */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; cost: number }>();
  private total = 0;
  hits = 0;
  misses = 0;

  /** `bound`: the most cost kept, in `unit`s; an entry costing more than an eighth of it is not kept. */
  constructor(
    readonly name: string,
    readonly bound: number,
    readonly unit: string,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // most recently used last: Map keeps insertion order
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, cost: number): void {
    if (cost > this.bound / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.cost;
      this.entries.delete(key);
    }
    for (const [oldest, entry] of this.entries) {
      if (this.total + cost <= this.bound) break;
      this.entries.delete(oldest);
      this.total -= entry.cost;
    }
    this.entries.set(key, { value, cost });
    this.total += cost;
  }

  /** Entries kept and their summed cost. */
  size(): { entries: number; cost: number } {
    return { entries: this.entries.size, cost: this.total };
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
    this.hits = 0;
    this.misses = 0;
  }
}

/**
 * Best guillotine layers (layer-pattern.ts) by deck and footprint, 100,000 spots in all: a few thousand
 * catalogue items' footprints on a few pallet types (what that holds: docs/configuration.md).
 */
export const layerCache = new BoundedCache<readonly Readonly<{ x: number; y: number; l: number; w: number }>[]>(
  'guillotine layers',
  100_000,
  'spots',
);

/**
 * The palletize job's answers by input (the time limit aside), 8 MiB (what that holds:
 * docs/configuration.md). They come back for an order whose units were palletized before (an order submitted again
 * as it was), rarely otherwise: orders seldom ask for the same counts of the same SKUs.
 */
export const palletizeCache = new BoundedCache<Int32Array>('palletize jobs', 8 * 2 ** 20, 'bytes');

/** The container-loading job's answers by input (the time limit aside), 2 MiB (docs/configuration.md). */
export const loadCache = new BoundedCache<Int32Array>('loadContainers jobs', 2 * 2 ** 20, 'bytes');

const caches = [layerCache, palletizeCache, loadCache];

/** Hits and lookups of each cache since the thread started (or the caches were cleared). */
export type CacheCounts = Record<'layers' | 'palletize' | 'load', { hits: number; lookups: number }>;

export function cacheCounts(): CacheCounts {
  const of = (c: BoundedCache<unknown>) => ({ hits: c.hits, lookups: c.hits + c.misses });
  return { layers: of(layerCache), palletize: of(palletizeCache), load: of(loadCache) };
}

/** What the caches gave between two readings. */
export function cacheCountsSince(before: CacheCounts): CacheCounts {
  const now = cacheCounts();
  const diff = (k: keyof CacheCounts) => ({ hits: now[k].hits - before[k].hits, lookups: now[k].lookups - before[k].lookups });
  return { layers: diff('layers'), palletize: diff('palletize'), load: diff('load') };
}

/** Empties every cache and its counts (benchmarks and tests start from nothing). */
export function clearPlannerCaches(): void {
  for (const c of caches) c.clear();
}

/** One line: each cache's hits of lookups and what it holds against its bound. */
export function describePlannerCaches(): string {
  return caches
    .map((c) => {
      const { entries, cost } = c.size();
      return `${c.name} ${c.hits} hits of ${c.hits + c.misses}, ${entries} entries, ${cost.toLocaleString('en-US')} of ${c.bound.toLocaleString('en-US')} ${c.unit}`;
    })
    .join('; ');
}
