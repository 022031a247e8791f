// A lower bound on the containers an order needs, whatever plan carries it: every unit, pre-built
// pallet and loose box takes at least its volume and its weight as a share of the roomiest and the
// strongest container type the order allows (on a road, the strongest by what the road leaves it).
// Pallet tare and the room pallets leave only add to it.
import type { PlanOrderInput } from '../plan-contract/planner-input.js';
import { containerSpec } from './containers.js';
import { containerRoadSpec, roadCargoRoomG } from './road-loads.js';

export function containerLowerBound(input: PlanOrderInput): number {
  const specs = input.containers.map((c) => containerSpec(c.code)).filter((s) => s !== undefined);
  if (specs.length === 0) return 0;
  const roomiest = Math.max(...specs.map((s) => s.inner_mm.l * s.inner_mm.w * s.inner_mm.h));
  const strongest = Math.max(
    ...specs.map((s) => {
      const road = input.road && containerRoadSpec(input.road, s);
      return road ? roadCargoRoomG(road, s.payload_kg * 1000) : s.payload_kg * 1000;
    }),
  );
  const master = new Map(input.items.map((i) => [i.sku, i]));
  let volume = 0;
  let weight = 0;
  for (const line of input.lines) {
    const item = master.get(line.sku);
    if (!item) continue;
    volume += line.units * item.l * item.w * item.h;
    weight += line.units * item.weightG;
  }
  for (const row of [...input.preBuilts, ...input.looseBoxes]) {
    volume += row.count * row.l * row.w * row.h;
    weight += row.count * row.weightG;
  }
  // shares are fractions: a hair over a whole number is rounding, not a container
  return Math.ceil(Math.max(volume / roomiest, weight / strongest) - 1e-9);
}
