// Retrieve's answers ready to send: an order's view as its JSON text, with the company group that
// decides who may see it, for the orders read most recently among those read more than once. A
// retrieve served from here skips the SQLite lookup and the checksum (docs/benchmarks.md). Text, not
// bytes: Node sends a string body in one write with the headers, a Buffer in a writev of two. Only
// bytes whose stored document matched its checksum when read go in; the read model that owns the
// cache drops an order's entry when it writes that order, and drops them all when another connection
// (another replica's projector, a repair, an edit) has changed the file.
export interface CachedView {
  company_group: string;
  viewJson: string;
}

// What an entry costs beyond its strings' characters: the Map's slot, the object, two string headers.
const ENTRY_OVERHEAD_BYTES = 96;
// Orders whose first read is remembered (offer): a fixed table, 512 KiB, whatever the number of orders.
const FIRST_READS = 1 << 16;
// V8 keeps a string whose every character is below U+0100 in one byte a character, any other in two.
const TWO_BYTE = /[^\u0000-\u00ff]/;
const textBytes = (text: string): number => (TWO_BYTE.test(text) ? 2 : 1) * text.length;

/** The memory an entry holds, as the cache counts it against its bound. */
export function entryBytes(entry: CachedView): number {
  return ENTRY_OVERHEAD_BYTES + textBytes(entry.viewJson) + textBytes(entry.company_group);
}

let allCachesBytes = 0;

/** The bytes held by every view cache of this process (for orders_memory_bytes). */
export function viewCachesBytes(): number {
  return allCachesBytes;
}

export class ViewBodyCache {
  // A Map iterates in insertion order: a hit moves its entry to the end, so the first is the least recently used.
  readonly #entries = new Map<number, { view: CachedView; bytes: number }>();
  #bytes = 0;
  // NaN matches no id: no order counts as read before it is.
  readonly #firstReads = new Float64Array(FIRST_READS).fill(Number.NaN);

  /** `maxBytes`: the bound on what the entries hold, strings and overhead (entryBytes). */
  constructor(readonly maxBytes: number) {}

  get(id: number): CachedView | undefined {
    const entry = this.#entries.get(id);
    if (entry) {
      this.#entries.delete(id);
      this.#entries.set(id, entry);
    }
    return entry?.view;
  }

  /** The entry without marking it used: a hit costs no reordering (the LRU order follows the reads that go to SQLite). */
  peek(id: number): CachedView | undefined {
    return this.#entries.get(id)?.view;
  }

  /**
   * Keeps the view if its order was read before, as far as this cache remembers (TinyLFU's doorkeeper):
   * reads that never come back (a scan, one look each at a million orders) then do not push out the
   * views that are read again and again. The first read of an order is remembered in a fixed table,
   * slot `id mod 65,536`: ids are dense, so the last 65,536 orders are told apart, and an older order's
   * first read is forgotten when a newer one takes its slot (its view then goes in on a third read).
   */
  offer(id: number, view: CachedView): void {
    const slot = id % FIRST_READS;
    if (this.#firstReads[slot] === id) this.set(id, view);
    else this.#firstReads[slot] = id;
  }

  set(id: number, view: CachedView): void {
    this.delete(id);
    // One huge view would push out hundreds of ordinary ones: it is read from the table each time.
    const bytes = entryBytes(view);
    if (bytes > this.maxBytes / 64) return;
    this.#entries.set(id, { view, bytes });
    this.#count(bytes);
    for (const [oldest, evicted] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#count(-evicted.bytes);
    }
  }

  delete(id: number): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#count(-entry.bytes);
  }

  clear(): void {
    this.#entries.clear();
    this.#count(-this.#bytes);
  }

  get bytes(): number {
    return this.#bytes;
  }

  #count(bytes: number): void {
    this.#bytes += bytes;
    allCachesBytes += bytes;
  }

  get size(): number {
    return this.#entries.size;
  }
}
