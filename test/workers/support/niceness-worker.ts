// Lowers its own priority as a planner worker does, then says what niceness the kernel gives it.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../../src/workers/lower-thread-priority.js';

const lowered = lowerThreadPriority((workerData as { niceness: number }).niceness);
// Field 19 of /proc/thread-self/stat (after the command in parentheses) is the nice value.
const nice = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]);
parentPort?.postMessage({ lowered, nice });
