// A single-container loading instance in the Bischoff & Ratcliff (BR) form: integer sizes, each
// box dimension flagged whether it may stand vertical, boxes may be left out.
import type { PlacedBox } from '../../plan-contract/plan-types.js';

export interface BrBoxType {
  /** The type id from the file. */
  id: number;
  dims: [number, number, number];
  /** verticalOk[k]: dims[k] may be the vertical one; the other two may then swap on the floor. */
  verticalOk: [boolean, boolean, boolean];
  count: number;
}

export interface BrInstance {
  instance: number;
  /** The generator seed the file gives (src/planner/checks/br-generator.ts). */
  seed?: number;
  container: { l: number; w: number; h: number };
  types: BrBoxType[];
}

/** A box as placed: x along the container length, y along its width, z up; minimum corner. */
export interface BrPlacement extends PlacedBox {
  type: number;
}
