// The validator's own check of load bearing (docs/decisions.md, "Load bearing"), apart from the
// planner's: every unit on a pallet carries the whole weight of everything resting on it, directly or
// through other units (each counted once), and that is no more than its item's max_load_on_top; a
// unit whose item is not stackable carries nothing. In a container a loose box carries only the box
// double-stacked on it. Weights from master data and the order as given, in the lane's units.
import type { OrderPlan, PlacedBox } from '../../plan-contract/plan-types.js';
import type { SubmittedCargo } from './submitted-cargo.js';

/** Grams: the planner rounds weights up and limits down, so the exact figures keep a hair of room. */
const TOLERANCE_G = 1e-6;

export function checkBearing(input: SubmittedCargo, plan: OrderPlan, gramsPerUnit: number, v: string[]): void {
  const items = new Map(input.lane.items.map((i) => [i.sku, i]));
  const limitOf = (sku: string): number => {
    const item = items.get(sku);
    if (!item) return Infinity;
    if (item.stackable === false) return 0;
    return item.max_load_on_top === undefined ? Infinity : item.max_load_on_top * gramsPerUnit;
  };
  const weightOf = (sku: string): number => (items.get(sku)?.weight ?? 0) * gramsPerUnit;
  const limited = input.lane.items.some((i) => i.stackable === false || i.max_load_on_top !== undefined);
  if (limited) {
    for (const p of plan.pallets) {
      if (!p.units.some((u) => limitOf(u.sku) !== Infinity)) continue;
      const loads = restingWeights(
        p.units,
        p.units.map((u) => weightOf(u.sku)),
      );
      p.units.forEach((u, i) => {
        const limit = limitOf(u.sku);
        if (loads[i]! > limit + TOLERANCE_G)
          v.push(
            `${p.pallet_index} unit ${i} (${u.sku} at ${u.x},${u.y},${u.z}): carries ${loads[i]!.toFixed(0)} g, its limit is ${limit.toFixed(0)} g`,
          );
      });
    }
  }
  checkLooseBoxStacks(input, plan, gramsPerUnit, v);
}

/**
 * What rests on each box, directly or through others, each box once: from the top down, a box's set
 * is the boxes on its top and their sets (a bitset per box).
 */
export function restingWeights(boxes: readonly PlacedBox[], weights: readonly number[]): number[] {
  const n = boxes.length;
  const words = Math.ceil(n / 32);
  const sets = Array.from({ length: n }, () => new Uint32Array(words));
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[b]!.z - boxes[a]!.z);
  for (const i of order) {
    const a = boxes[i]!;
    const top = a.z + a.h;
    for (let j = 0; j < n; j++) {
      const b = boxes[j]!;
      if (b.z !== top || b.x >= a.x + a.l || a.x >= b.x + b.l || b.y >= a.y + a.w || a.y >= b.y + b.w) continue;
      const set = sets[i]!;
      set[j >> 5]! |= 1 << (j & 31);
      const above = sets[j]!;
      for (let k = 0; k < words; k++) set[k]! |= above[k]!;
    }
  }
  return sets.map((set) => {
    let sum = 0;
    for (let j = 0; j < n; j++) if ((set[j >> 5]! >>> (j & 31)) & 1) sum += weights[j]!;
    return sum;
  });
}

/** A loose box double-stacked on another is no heavier than what the one below may carry. */
function checkLooseBoxStacks(input: SubmittedCargo, plan: OrderPlan, gramsPerUnit: number, v: string[]): void {
  const rows = new Map<string, { limit: number }>();
  const numbered = new Map<string, number>();
  for (const b of input.order.loose_boxes) {
    const limit = b.stackable === false ? 0 : b.max_load_on_top === undefined ? Infinity : Number(b.max_load_on_top) * gramsPerUnit;
    for (let k = 0; k < b.count; k++) {
      const n = (numbered.get(b.name) ?? 0) + 1;
      numbered.set(b.name, n);
      rows.set(`${b.name} #${n}`, { limit });
    }
  }
  for (const c of plan.containers) {
    for (const bottom of c.placements) {
      if (bottom.kind !== 'loose_box') continue;
      const limit = rows.get(bottom.ref)?.limit ?? Infinity;
      if (limit === Infinity) continue;
      let load = 0;
      for (const p of c.placements) {
        if (
          p.z === bottom.z + bottom.h &&
          p.x < bottom.x + bottom.l &&
          bottom.x < p.x + p.l &&
          p.y < bottom.y + bottom.w &&
          bottom.y < p.y + p.w
        )
          load += p.weight_g;
      }
      if (load > limit + TOLERANCE_G)
        v.push(`container ${c.index} (${c.code}) ${bottom.ref}: carries ${load} g, its limit is ${limit.toFixed(0)} g`);
    }
  }
}
