// Retrieve's answers ready to send: an order's view as the bytes of its JSON, with the company group
// that decides who may see it, for the orders read most recently. A retrieve served from here skips
// the SQLite lookup, the checksum and the UTF-8 encoding of the body: a quarter of its CPU
// (docs/benchmarks.md). Only bytes whose stored document matched its checksum when read go in; the
// read model that owns the cache drops an order's entry when it writes that order, and drops them all
// when another connection (another replica's projector, a repair, an edit) has changed the file.
export interface CachedView {
  company_group: string;
  viewJson: Buffer;
}

export class ViewBodyCache {
  // A Map iterates in insertion order: a hit moves its entry to the end, so the first is the least recently used.
  readonly #entries = new Map<number, CachedView>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(id: number): CachedView | undefined {
    const entry = this.#entries.get(id);
    if (entry) {
      this.#entries.delete(id);
      this.#entries.set(id, entry);
    }
    return entry;
  }

  set(id: number, entry: CachedView): void {
    this.delete(id);
    // One huge view would push out hundreds of ordinary ones: it is read from the table each time.
    if (entry.viewJson.length > this.maxBytes / 64) return;
    this.#entries.set(id, entry);
    this.#bytes += entry.viewJson.length;
    for (const [oldest, evicted] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= evicted.viewJson.length;
    }
  }

  delete(id: number): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#bytes -= entry.viewJson.length;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }
}
