// Packs one container with boxes that may be left out (the BR benchmark's problem), by the planner's
// packContainer job (assembly/pack-container.ts).
import type { BrBoxType, BrInstance, BrPlacement } from './br-instance.js';
import type { PlannerWasm } from '../planner-wasm.js';
import { readPackContainerAnswer, StackPolicy, writePackContainerInput } from '../wasm-wire.js';

/** BR flag k lets dims[k] stand vertical: dims[2] -> bits 0,1; dims[1] -> 2,3; dims[0] -> 4,5. */
export function brOrientations(t: BrBoxType): number {
  return (t.verticalOk[2] ? 0b000011 : 0) | (t.verticalOk[1] ? 0b001100 : 0) | (t.verticalOk[0] ? 0b110000 : 0);
}

export interface PackContainerOptions {
  /** 0: none, effort alone bounds the search (one round of searches: assembly/pack-container.ts). */
  timeLimitMs: number;
  /** Greedy placements allowed (0: unlimited); with it the result no longer depends on the clock. */
  effort?: number;
  seed?: number;
}

export interface PackContainerResult {
  placements: BrPlacement[];
  /** The search stopped at its time or effort limit rather than running out of moves. */
  limited: boolean;
}

export function packContainer(wasm: PlannerWasm, instance: BrInstance, options: PackContainerOptions): PackContainerResult {
  const { l, w, h } = instance.container;
  const timeLimit = options.timeLimitMs > 0 ? Math.max(1, Math.round(options.timeLimitMs)) : 0;
  const input = writePackContainerInput({
    l,
    w,
    h,
    maxWeightG: 0,
    limits: { timeLimitMs: timeLimit, effort: options.effort ?? 0 },
    seed: options.seed ?? 1,
    cargo: instance.types.map((t) => ({
      l: t.dims[0],
      w: t.dims[1],
      h: t.dims[2],
      weightG: 0,
      count: t.count,
      orientations: brOrientations(t),
      policy: StackPolicy.Free,
      canTop: true,
      stackClass: 0,
    })),
  });
  const answer = readPackContainerAnswer(wasm.run('packContainer', input));
  const placements = answer.boxes.map((b) => ({ ...b, type: instance.types[b.type]!.id }));
  return { placements, limited: answer.limited };
}
