// Axis-aligned box geometry for the validators, written apart from the planner's on purpose:
// a check that reuses the checked code proves nothing.

// The placement type is shared (it is data); the geometry below is not.
import type { PlacedBox } from '../../plan-contract/plan-types.js';

export type { PlacedBox };

function intervalOverlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** Positive volume in common (touching faces do not count). */
export function boxesOverlap(a: PlacedBox, b: PlacedBox): boolean {
  return (
    intervalOverlap(a.x, a.x + a.l, b.x, b.x + b.l) > 0 &&
    intervalOverlap(a.y, a.y + a.w, b.y, b.y + b.w) > 0 &&
    intervalOverlap(a.z, a.z + a.h, b.z, b.z + b.h) > 0
  );
}

/** Area of the footprint of a over b's footprint. */
export function footprintOverlap(a: PlacedBox, b: PlacedBox): number {
  return intervalOverlap(a.x, a.x + a.l, b.x, b.x + b.l) * intervalOverlap(a.y, a.y + a.w, b.y, b.y + b.w);
}

/** The boxes whose top is at a's base and under its footprint. */
export function supportersOf(a: PlacedBox, boxes: readonly PlacedBox[]): PlacedBox[] {
  return boxes.filter((b) => b !== a && b.z + b.h === a.z && footprintOverlap(a, b) > 0);
}

/**
 * Area of a's base resting on tops directly below it. Supporters do not overlap one another
 * (checked separately), so the areas add up.
 */
export function supportedArea(a: PlacedBox, boxes: readonly PlacedBox[]): number {
  return supportersOf(a, boxes).reduce((s, b) => s + footprintOverlap(a, b), 0);
}

export function containsFootprint(outer: PlacedBox, inner: PlacedBox): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.l <= outer.x + outer.l && inner.y + inner.w <= outer.y + outer.w;
}
