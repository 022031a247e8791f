// A pallet's layers, derived from its units: a plan lists them for drawing, and a stored plan
// (plan-storage.ts) leaves them out and derives them again.
import type { PalletLayer, PalletUnit } from './plan-types.js';

export function layersOf(units: readonly PalletUnit[]): PalletLayer[] {
  const byZ = new Map<number, number[]>();
  units.forEach((u, i) => {
    const layer = byZ.get(u.z);
    if (layer) layer.push(i);
    else byZ.set(u.z, [i]);
  });
  return [...byZ.entries()]
    .sort(([a], [b]) => a - b)
    .map(([z, unit_indexes]) => ({ z, height: unit_indexes.reduce((m, i) => Math.max(m, units[i]!.h), 0), unit_indexes }));
}
