// Where a container's cargo weighs in, and whether that is within the CTU Code's limits (annex 7,
// 3.1.4): the centre of gravity within 5 % of the inner length from the middle and within 5 % of the
// inner width from the centreline. The planner, the validator, the load-plan JSON, the PDF and the
// viewer all read the figure from here, so they can never disagree.
import type { PlacedBox } from '../plan-contract/plan-types.js';

export interface WeightedBox extends PlacedBox {
  weight_g: number;
}

export interface CenterOfGravity {
  /** Millimetres in container axes: x from the front wall, y from the left wall, z from the floor. */
  x: number;
  y: number;
  z: number;
  weight_g: number;
}

/** Allowed distance from the middle, along the length and across the width, in per cent. */
export const COG_TOLERANCE_PERCENT = 5;

/** Each box's weight at its geometric centre (a placement knows no better); null when nothing weighs. */
export function centerOfGravity(boxes: readonly WeightedBox[]): CenterOfGravity | null {
  let weight = 0;
  let mx = 0;
  let my = 0;
  let mz = 0;
  for (const b of boxes) {
    weight += b.weight_g;
    mx += b.weight_g * (b.x + b.l / 2);
    my += b.weight_g * (b.y + b.w / 2);
    mz += b.weight_g * (b.z + b.h / 2);
  }
  if (weight <= 0) return null;
  return { x: mx / weight, y: my / weight, z: mz / weight, weight_g: weight };
}

export interface CogLimits {
  /** Inclusive bounds along x and y, in millimetres. */
  x: [number, number];
  y: [number, number];
}

export function cogLimits(inner: { l: number; w: number }): CogLimits {
  return {
    x: [(inner.l * (50 - COG_TOLERANCE_PERCENT)) / 100, (inner.l * (50 + COG_TOLERANCE_PERCENT)) / 100],
    y: [(inner.w * (50 - COG_TOLERANCE_PERCENT)) / 100, (inner.w * (50 + COG_TOLERANCE_PERCENT)) / 100],
  };
}

/** An empty container is within the limits: there is nothing to tip. */
export function withinCogLimits(cog: CenterOfGravity | null, inner: { l: number; w: number }): boolean {
  if (cog === null) return true;
  const limits = cogLimits(inner);
  return cog.x >= limits.x[0] && cog.x <= limits.x[1] && cog.y >= limits.y[0] && cog.y <= limits.y[1];
}
