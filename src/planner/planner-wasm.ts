// The WebAssembly planner (built from assembly/ into build/planner.wasm): one instance runs one
// job at a time. Jobs go in and come out as flat Int32Arrays through linear memory, in the layout
// wasm-wire.ts writes and reads.
import { readFileSync } from 'node:fs';
import { type BoundedCache, loadCache, palletizeCache } from './planner-caches.js';
import {
  loadContainersAnswerAt,
  loadContainersInputAt,
  palletizeAnswerAt,
  palletizeInputAt,
  type PlannerJob,
  SEARCH_EXITS,
} from './wasm-wire.js';

/** The service's build: its jobs only (the tests' build, build/planner-checks.wasm, adds theirs). */
export const PLANNER_WASM = new URL('../../../build/planner.wasm', import.meta.url);

// @types/node leaves WebAssembly undeclared under lib ES2022: the little used here, typed here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
}
const WebAssemblyApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

type PlannerExports<Job extends string> = Record<Job, () => number> & {
  memory: WasmMemory;
  reset(): void;
  inputBuffer(length: number): number;
  searchExits(kind: number): number;
};

export type SearchExit = (typeof SEARCH_EXITS)[number];
export type SearchExitCounts = Record<SearchExit, number>;

export const noSearchExits = (): SearchExitCounts => ({ all_placed: 0, effort: 0, widest_beam: 0, time_limit: 0 });

const compiled = new Map<string, object>();

function plannerModule(file: URL): object {
  let module = compiled.get(file.href);
  if (!module) compiled.set(file.href, (module = new WebAssemblyApi.Module(readFileSync(file))));
  return module;
}

/**
 * The jobs whose answer is the same for the same input while no search met the time limit: the
 * element of the input holding the time limit (left out of the key), the element of the answer
 * saying whether the clock cut it short (or skipped a search; such answers are not kept), and the
 * cache. The BR job is not cached: its time left decides how many searches it runs.
 */
const CACHED_JOBS: Partial<Record<string, { timeLimitAt: number; deadlineHitAt: number; cache: BoundedCache<Int32Array> }>> = {
  palletize: { timeLimitAt: palletizeInputAt.limits.timeLimitMs, deadlineHitAt: palletizeAnswerAt.deadlineHit, cache: palletizeCache },
  loadContainers: {
    timeLimitAt: loadContainersInputAt.limits.timeLimitMs,
    deadlineHitAt: loadContainersAnswerAt.deadlineHit,
    cache: loadCache,
  },
};

/** One instance of a planner build: the service's (PLANNER_WASM, its jobs), or another build and its jobs. */
export class PlannerWasm<Job extends string = PlannerJob> {
  private readonly exports: PlannerExports<Job>;
  /** Searches of every job this instance ran, by how they ended: a caller diffs two readings. */
  readonly searchExits: SearchExitCounts = noSearchExits();

  constructor(build: URL = PLANNER_WASM) {
    const instance = new WebAssemblyApi.Instance(plannerModule(build), {
      env: {
        nowMs: () => performance.now(),
        abort: (_message: number, _file: number, line: number, column: number) => {
          throw new Error(`planner aborted at ${line}:${column}`);
        },
      },
    });
    this.exports = instance.exports as unknown as PlannerExports<Job>;
  }

  /** The instance's linear memory: it grows to what the largest job needed, and never shrinks. */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /** The job's answer: read it, never change it (a cached answer is shared with later calls). */
  run(job: Job, input: Int32Array): Int32Array {
    const cached = CACHED_JOBS[job];
    if (!cached) return this.runJob(job, input);
    const keyed = input.slice();
    keyed[cached.timeLimitAt] = 0;
    const key = `${job}:${Buffer.from(keyed.buffer).toString('latin1')}`;
    const known = cached.cache.get(key);
    if (known) return known;
    const answer = this.runJob(job, input);
    if (answer[cached.deadlineHitAt] === 0) cached.cache.set(key, answer, answer.byteLength + key.length);
    return answer;
  }

  private runJob(job: Job, input: Int32Array): Int32Array {
    const e = this.exports;
    e.reset();
    const at = e.inputBuffer(input.length);
    new Int32Array(e.memory.buffer, at, input.length).set(input);
    const out = e[job]();
    // read the buffer after the call: memory may have grown
    const length = new Int32Array(e.memory.buffer, out, 1)[0] ?? 0;
    SEARCH_EXITS.forEach((kind, i) => (this.searchExits[kind] += e.searchExits(i)));
    // a copy (answers are kept, and the next job reuses the memory); a small one lives on the JS heap
    return new Int32Array(e.memory.buffer, out, length).slice();
  }
}
