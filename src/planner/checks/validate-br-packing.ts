// Checks a single-container packing against its BR instance, with its own geometry (nothing
// shared with the WebAssembly planner): bounds, overlap, full support, orientation flags, counts.
import type { BrInstance, BrPlacement } from './br-instance.js';
import { boxesOverlap, supportedArea } from './validator-geometry.js';

export function validateBrPacking(instance: BrInstance, placements: BrPlacement[]): string[] {
  const violations: string[] = [];
  const { l: L, w: W, h: H } = instance.container;
  const used = new Map<number, number>();
  placements.forEach((p, i) => {
    const type = instance.types.find((t) => t.id === p.type);
    const where = `box ${i} (type ${p.type} at ${p.x},${p.y},${p.z})`;
    if (!type) {
      violations.push(`${where}: unknown type`);
      return;
    }
    used.set(p.type, (used.get(p.type) ?? 0) + 1);
    if (![p.x, p.y, p.z, p.l, p.w, p.h].every(Number.isInteger)) violations.push(`${where}: non-integer geometry`);
    if (p.x < 0 || p.y < 0 || p.z < 0 || p.x + p.l > L || p.y + p.w > W || p.z + p.h > H) {
      violations.push(`${where}: outside the container`);
    }
    const placedSorted = [p.l, p.w, p.h].sort((a, b) => a - b).join('x');
    const typeSorted = [...type.dims].sort((a, b) => a - b).join('x');
    if (placedSorted !== typeSorted) violations.push(`${where}: sizes ${p.l}x${p.w}x${p.h} are not the type's`);
    else if (!type.dims.some((d, k) => d === p.h && type.verticalOk[k])) {
      violations.push(`${where}: stands on a dimension that must not be vertical`);
    }
  });
  for (const t of instance.types) {
    if ((used.get(t.id) ?? 0) > t.count) violations.push(`type ${t.id}: ${used.get(t.id)} placed, only ${t.count} available`);
  }
  for (let i = 0; i < placements.length; i++) {
    for (let j = i + 1; j < placements.length; j++) {
      if (boxesOverlap(placements[i]!, placements[j]!)) violations.push(`boxes ${i} and ${j} overlap`);
    }
  }
  placements.forEach((p, i) => {
    if (p.z === 0) return;
    const area = supportedArea(p, placements);
    if (area !== p.l * p.w)
      violations.push(`box ${i} (type ${p.type} at ${p.x},${p.y},${p.z}): ${p.l * p.w - area} of its base unsupported`);
  });
  return violations;
}

export function volumeUtilization(instance: BrInstance, placements: BrPlacement[]): number {
  const { l, w, h } = instance.container;
  return placements.reduce((s, p) => s + p.l * p.w * p.h, 0) / (l * w * h);
}
