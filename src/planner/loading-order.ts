// Loading order, back to door: the item nearest the back wall goes first, but never before
// what it stands on (a top pallet after its bottom pallet).

import type { PlacedBox as Placed } from './plan-types.js';

function standsOn(top: Placed, bottom: Placed): boolean {
  return (
    top.z === bottom.z + bottom.h &&
    Math.min(top.x + top.l, bottom.x + bottom.l) > Math.max(top.x, bottom.x) &&
    Math.min(top.y + top.w, bottom.y + bottom.w) > Math.max(top.y, bottom.y)
  );
}

/** The 1-based loading position of each item. */
export function loadingOrder(items: readonly Placed[]): number[] {
  const n = items.length;
  const waiting = items.map((a) => items.filter((b) => b !== a && standsOn(a, b)).length);
  const carried = items.map((b) => items.flatMap((a, i) => (a !== b && standsOn(a, b) ? [i] : [])));
  const order = new Array<number>(n).fill(0);
  const ready = items.flatMap((_, i) => (waiting[i] === 0 ? [i] : []));
  const backFirst = (i: number, j: number): number => {
    const a = items[i]!, b = items[j]!;
    return a.x - b.x || a.z - b.z || a.y - b.y || i - j;
  };
  for (let k = 1; ready.length > 0; k++) {
    ready.sort(backFirst);
    const i = ready.shift()!;
    order[i] = k;
    for (const j of carried[i]!) if (--waiting[j]! === 0) ready.push(j);
  }
  return order;
}
