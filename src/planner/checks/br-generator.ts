// The Bischoff & Ratcliff (1995) container-loading instance generator, as the paper's appendix
// describes it so anyone can replay it; Davies & Bischoff (1999) ran the same procedure with 30 to
// 100 box types for BR8-BR15. It reproduces OR-Library's thpack1-7 (BR1-BR7) exactly
// (test/planner/checks/br-generator.test.ts), which is what lets us trust BR8-BR15 made with it.
import type { BrBoxType, BrInstance } from './br-instance.js';

/** Box types per instance in BR1 ... BR15. */
export const BR_TYPE_COUNTS: readonly number[] = [3, 5, 8, 10, 12, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/** The published seed of instance p (1-based) of every set. */
export const brSeed = (p: number): number => 2502505 + 100 * (p - 1);

const CONTAINER = { l: 587, w: 233, h: 220 };
const LOWER = [30, 25, 20];
const UPPER = [120, 100, 80];
/** A dimension may stand vertical only when it is under twice the smallest (a stability rule). */
const STABILITY_RATIO = 2;
const DISCARDED_DRAWS = 10;

/** Park & Miller's minimal standard generator: seed' = 16807 seed mod (2^31 - 1), exact in doubles. */
class MinimalStandard {
  constructor(private seed: number) {}
  next(): number {
    this.seed = (16807 * this.seed) % 2147483647;
    return this.seed / 2147483647;
  }
}

export function generateBrInstance(instance: number, typeCount: number, seed: number = brSeed(instance)): BrInstance {
  const random = new MinimalStandard(seed);
  for (let i = 0; i < DISCARDED_DRAWS; i++) random.next();
  const types: BrBoxType[] = [];
  for (let i = 0; i < typeCount; i++) {
    const dims = [0, 1, 2].map((j) => LOWER[j]! + Math.floor(random.next() * (UPPER[j]! - LOWER[j]! + 1)));
    dims.sort((a, b) => b - a);
    const smallest = dims[2]!;
    types.push({
      id: i + 1,
      dims: [dims[0]!, dims[1]!, dims[2]!],
      verticalOk: [dims[0]! / smallest < STABILITY_RATIO, dims[1]! / smallest < STABILITY_RATIO, true],
      count: 1,
    });
  }
  // One box of each type, then a box of a random type while it still fits the container's volume.
  const volume = (t: BrBoxType): number => t.dims[0] * t.dims[1] * t.dims[2];
  const target = CONTAINER.l * CONTAINER.w * CONTAINER.h;
  let cargo = types.reduce((sum, t) => sum + volume(t), 0);
  for (;;) {
    const t = types[Math.floor(random.next() * typeCount)]!;
    if (cargo + volume(t) > target) break;
    t.count++;
    cargo += volume(t);
  }
  return { instance, seed, container: { ...CONTAINER }, types };
}

/** Set k (1-based, BR1 ... BR15): its 100 instances. */
export function generateBrSet(set: number, instances = 100): BrInstance[] {
  const typeCount = BR_TYPE_COUNTS[set - 1];
  if (typeCount === undefined) throw new Error(`no BR set ${set}: sets are 1 to ${BR_TYPE_COUNTS.length}`);
  return Array.from({ length: instances }, (_, i) => generateBrInstance(i + 1, typeCount));
}

/** The OR-Library text layout of thpack1-7: one blank before every line's numbers. */
export function formatBrFile(instances: BrInstance[]): string {
  const lines = [`${instances.length}`];
  for (const inst of instances) {
    lines.push(
      `${inst.instance} ${inst.seed ?? brSeed(inst.instance)}`,
      `${inst.container.l} ${inst.container.w} ${inst.container.h}`,
      `${inst.types.length}`,
    );
    for (const t of inst.types) {
      const flag = (k: number): number => (t.verticalOk[k] ? 1 : 0);
      lines.push(`${t.id} ${t.dims[0]} ${flag(0)} ${t.dims[1]} ${flag(1)} ${t.dims[2]} ${flag(2)} ${t.count}`);
    }
  }
  return lines.map((l) => ` ${l}\n`).join('');
}
