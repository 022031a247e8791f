// A worker that dies while starting, as one would with its WebAssembly build missing. (Loaded
// outside a worker, as a test runner given the whole folder does, it does nothing.)
import { isMainThread } from 'node:worker_threads';

if (!isMainThread) throw new Error('no planner.wasm');
