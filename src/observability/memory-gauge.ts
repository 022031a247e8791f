// orders_memory_bytes{component}: where the process's memory is, as far as the process can tell, read
// when /metrics is scraped. What no component names (SQLite's page caches, the allocator's free lists,
// the code) is the resident set less these: process_resident_memory_bytes is beside it.
import { Gauge, type Registry } from 'prom-client';

/** Each source gives one or more components' bytes. */
export type MemorySource = () => Promise<Record<string, number>> | Record<string, number>;

export function registerMemoryGauge(registry: Registry, sources: MemorySource[]): void {
  new Gauge({
    name: 'orders_memory_bytes',
    help: 'Memory by component: V8 heaps and external memory (WebAssembly, buffers) of the planner and PDF threads, and the contents of the caches (the main thread\'s heap is nodejs_heap_size_total_bytes)',
    labelNames: ['component'],
    registers: [registry],
    async collect() {
      for (const components of await Promise.all(sources.map((read) => read()))) {
        for (const [component, bytes] of Object.entries(components)) this.set({ component }, bytes);
      }
    },
  });
}

/** A worker pool's memory as two components, `<name>_heap` and `<name>_external`. */
export function threadMemory(name: string, read: () => Promise<{ heap: number; external: number }>): MemorySource {
  return async () => {
    const { heap, external } = await read();
    return { [`${name}_heap`]: heap, [`${name}_external`]: external };
  };
}
