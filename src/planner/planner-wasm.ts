// The WebAssembly planner (built from assembly/ into build/planner.wasm): one instance runs one
// job at a time. Jobs go in and come out as flat Int32Arrays through linear memory.
import { readFileSync } from 'node:fs';

const WASM_URL = new URL('../../../build/planner.wasm', import.meta.url);

export type PlannerJob = 'packContainer' | 'palletize' | 'loadContainers';

// @types/node leaves WebAssembly undeclared under lib ES2022: the little used here, typed here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
}
const WebAssemblyApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface PlannerExports {
  memory: WasmMemory;
  reset(): void;
  inputBuffer(length: number): number;
  packContainer(): number;
  palletize(): number;
  loadContainers(): number;
  searchExits(kind: number): number;
}

/** How the block searches ended (assembly/block-search.ts EXIT_*), in the wasm's order. */
export const SEARCH_EXITS = ['all_placed', 'effort', 'widest_beam', 'time_limit'] as const;
export type SearchExit = (typeof SEARCH_EXITS)[number];
export type SearchExitCounts = Record<SearchExit, number>;

export const noSearchExits = (): SearchExitCounts => ({ all_placed: 0, effort: 0, widest_beam: 0, time_limit: 0 });

let compiled: object | undefined;

function plannerModule(): object {
  compiled ??= new WebAssemblyApi.Module(readFileSync(WASM_URL));
  return compiled;
}

export class PlannerWasm {
  private readonly exports: PlannerExports;
  /** Searches of every job this instance ran, by how they ended: a caller diffs two readings. */
  readonly searchExits: SearchExitCounts = noSearchExits();

  constructor() {
    const instance = new WebAssemblyApi.Instance(plannerModule(), {
      env: {
        nowMs: () => performance.now(),
        abort: (_message: number, _file: number, line: number, column: number) => {
          throw new Error(`planner aborted at ${line}:${column}`);
        },
      },
    });
    this.exports = instance.exports as unknown as PlannerExports;
  }

  run(job: PlannerJob, input: Int32Array): Int32Array {
    const e = this.exports;
    e.reset();
    const at = e.inputBuffer(input.length);
    new Int32Array(e.memory.buffer, at, input.length).set(input);
    const out = e[job]();
    // read the buffer after the call: memory may have grown
    const length = new Int32Array(e.memory.buffer, out, 1)[0] ?? 0;
    SEARCH_EXITS.forEach((kind, i) => (this.searchExits[kind] += e.searchExits(i)));
    return new Int32Array(e.memory.buffer.slice(out, out + length * 4));
  }
}
