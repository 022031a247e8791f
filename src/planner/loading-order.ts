// Loading order, back to door: the item nearest the back wall goes first, but never before
// what it stands on (a top pallet after its bottom pallet).

import type { PlacedBox as Placed } from '../plan-contract/plan-types.js';

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
  const waiting = new Array<number>(n).fill(0);
  const carried: number[][] = items.map(() => []);
  // only what stands above the floor waits for anything (thousands of cartons on a floor wait for none)
  for (let a = 0; a < n; a++) {
    if (items[a]!.z === 0) continue;
    for (let b = 0; b < n; b++) {
      if (b !== a && standsOn(items[a]!, items[b]!)) {
        waiting[a]!++;
        carried[b]!.push(a);
      }
    }
  }
  const before = (i: number, j: number): boolean => {
    const a = items[i]!,
      b = items[j]!;
    return (a.x - b.x || a.z - b.z || a.y - b.y || i - j) < 0;
  };
  // the items ready to load, in a binary heap: back first
  const heap: number[] = [];
  const push = (i: number): void => {
    let k = heap.push(i) - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!before(heap[k]!, heap[parent]!)) break;
      [heap[k], heap[parent]] = [heap[parent]!, heap[k]!];
      k = parent;
    }
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let k = 0; ; ) {
        const l = 2 * k + 1,
          r = l + 1;
        let m = k;
        if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
        if (m === k) break;
        [heap[k], heap[m]] = [heap[m]!, heap[k]!];
        k = m;
      }
    }
    return top;
  };
  for (let i = 0; i < n; i++) if (waiting[i] === 0) push(i);
  const order = new Array<number>(n).fill(0);
  for (let k = 1; heap.length > 0; k++) {
    const i = pop();
    order[i] = k;
    for (const j of carried[i]!) if (--waiting[j]! === 0) push(j);
  }
  return order;
}
