// Reads the BR container-loading files (../shared/bench/README.md): whitespace-separated integers.
import { readFileSync } from 'node:fs';
import type { BrBoxType, BrInstance } from '../../src/planner/checks/br-instance.js';

export function readBrFile(path: string): BrInstance[] {
  const nums = readFileSync(path, 'utf8').trim().split(/\s+/).map(Number);
  let pos = 0;
  const next = (): number => {
    const v = nums[pos++];
    if (v === undefined || !Number.isFinite(v)) throw new Error(`${path}: bad or missing number at token ${pos}`);
    return v;
  };
  const count = next();
  const instances: BrInstance[] = [];
  for (let i = 0; i < count; i++) {
    const instance = next();
    const seed = next();
    const container = { l: next(), w: next(), h: next() };
    const n = next();
    const types: BrBoxType[] = [];
    for (let k = 0; k < n; k++) {
      const id = next();
      const d1 = next(),
        f1 = next(),
        d2 = next(),
        f2 = next(),
        d3 = next(),
        f3 = next();
      types.push({ id, dims: [d1, d2, d3], verticalOk: [f1 === 1, f2 === 1, f3 === 1], count: next() });
    }
    instances.push({ instance, seed, container, types });
  }
  return instances;
}
