// orders_memory_bytes{component}: where the process's memory is, as far as the process can tell, read
// when /metrics is scraped. What no component names (SQLite's page caches, the allocator's free lists,
// the code) is the resident set less these: process_resident_memory_bytes is beside it.
import type { Metrics } from './metrics.js';

/** Each source gives one or more components' bytes. */
export type MemorySource = () => Promise<Record<string, number>> | Record<string, number>;

export function registerMemoryGauge(metrics: Metrics, sources: MemorySource[]): void {
  metrics.labelledGauge(
    'orders_memory_bytes',
    "Memory by component: V8 heaps and external memory (WebAssembly, buffers) of the planner and PDF threads, and the contents of the caches (the main thread's heap is nodejs_heap_size_total_bytes)",
    'component',
    async () => Object.assign({}, ...(await Promise.all(sources.map((read) => read())))),
  );
}

/** A worker pool's memory as two components, `<name>_heap` and `<name>_external`. */
export function threadMemory(name: string, read: () => Promise<{ heap: number; external: number }>): MemorySource {
  return async () => {
    const { heap, external } = await read();
    return { [`${name}_heap`]: heap, [`${name}_external`]: external };
  };
}
