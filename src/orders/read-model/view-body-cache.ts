// Retrieve's answers ready to send: an order's view as its JSON text, with the company group that
// decides who may see it, for the orders read most recently. A retrieve served from here skips the
// SQLite lookup and the checksum (docs/benchmarks.md). Text, not bytes: Node sends a string body in
// one write with the headers, a Buffer in a writev of two. Only bytes whose stored document matched its checksum when read go in; the
// read model that owns the cache drops an order's entry when it writes that order, and drops them all
// when another connection (another replica's projector, a repair, an edit) has changed the file.
export interface CachedView {
  company_group: string;
  viewJson: string;
}

export class ViewBodyCache {
  // A Map iterates in insertion order: a hit moves its entry to the end, so the first is the least recently used.
  readonly #entries = new Map<number, CachedView>();
  #chars = 0;

  constructor(readonly maxChars: number) {}

  get(id: number): CachedView | undefined {
    const entry = this.#entries.get(id);
    if (entry) {
      this.#entries.delete(id);
      this.#entries.set(id, entry);
    }
    return entry;
  }

  /** The entry without marking it used: a hit costs no reordering (the LRU order follows the reads that go to SQLite). */
  peek(id: number): CachedView | undefined {
    return this.#entries.get(id);
  }

  set(id: number, entry: CachedView): void {
    this.delete(id);
    // Sizes are in characters (what a string holds). One huge view would push out hundreds of
    // ordinary ones: it is read from the table each time.
    if (entry.viewJson.length > this.maxChars / 64) return;
    this.#entries.set(id, entry);
    this.#chars += entry.viewJson.length;
    for (const [oldest, evicted] of this.#entries) {
      if (this.#chars <= this.maxChars) break;
      this.#entries.delete(oldest);
      this.#chars -= evicted.viewJson.length;
    }
  }

  delete(id: number): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#chars -= entry.viewJson.length;
  }

  clear(): void {
    this.#entries.clear();
    this.#chars = 0;
  }

  get size(): number {
    return this.#entries.size;
  }
}
