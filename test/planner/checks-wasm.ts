// The tests' build of the planner (build/planner-checks.wasm, built from assembly/checks/index.ts): the
// service's jobs and the jobs only tests run, which look inside it. The service loads build/planner.wasm,
// which has none of them.
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import type { CheckJob, PlannerJob } from '../../src/planner/wasm-wire.js';

export const PLANNER_CHECKS_WASM = new URL('../../../build/planner-checks.wasm', import.meta.url);

export const checksWasm = (): PlannerWasm<PlannerJob | CheckJob> => new PlannerWasm<PlannerJob | CheckJob>(PLANNER_CHECKS_WASM);
