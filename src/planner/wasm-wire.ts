// The host side of the planner's flat i32 wire format (assembly/wire.ts): what the service writes into the
// WebAssembly planner's jobs and reads back from them.
import type { PlacedBox } from '../plan-contract/plan-types.js';

/** Orientation bits (assembly/cargo.ts): 0,1 keep h vertical; 2,3 stand on w; 4,5 stand on l. */
export const UPRIGHT_ORIENTATIONS = 0b000011;
export const ANY_ORIENTATION = 0b111111;
export const FIXED_ORIENTATION = 0b000001;

/** Stacking policy of a box type (assembly/cargo.ts). */
export enum StackPolicy {
  Free = 0,
  Base = 1,
  None = 2,
}

export interface WireBoxType {
  l: number;
  w: number;
  h: number;
  weightG: number;
  count: number;
  orientations: number;
  policy: StackPolicy;
  canTop: boolean;
  stackClass: number;
  /** The most one box may carry above it, in grams (0: nothing); absent: no limit. */
  maxLoadG?: number;
}

const I32_MAX = 2 ** 31 - 1;

/** Sizes beyond i32 fit nothing anyway: clamp them so the wire stays integral. */
export function wireInt(v: number): number {
  return Math.min(I32_MAX, Math.max(0, Math.round(v)));
}

export function pushCargo(out: number[], types: readonly WireBoxType[]): void {
  out.push(types.length);
  for (const t of types) {
    out.push(
      wireInt(t.l),
      wireInt(t.w),
      wireInt(t.h),
      wireInt(t.weightG),
      wireInt(t.count),
      t.orientations,
      t.policy,
      t.canTop ? 1 : 0,
      t.stackClass,
      t.maxLoadG === undefined ? -1 : wireInt(t.maxLoadG),
    );
  }
}

/** Reads the wire's i32 answer in order. */
export class WireReader {
  private pos = 1;
  constructor(private readonly data: Int32Array) {}
  next(): number {
    const v = this.data[this.pos++];
    if (v === undefined) throw new Error('planner answer ended early');
    return v;
  }
}

export interface WireBox extends PlacedBox {
  type: number;
}

export function readBoxes(r: WireReader): WireBox[] {
  const n = r.next();
  const boxes: WireBox[] = [];
  for (let i = 0; i < n; i++) boxes.push({ type: r.next(), x: r.next(), y: r.next(), z: r.next(), l: r.next(), w: r.next(), h: r.next() });
  return boxes;
}
