// The colour of each thing drawn, from the plan's cargo colours (cargo-colours.ts, shared with
// the 3D viewer): a pallet wears its SKU's colour (grey when mixed), pre-built and loose-box rows
// their row's colour, and units on a pallet their SKU's.
import { MIXED_PALLET_COLOUR, planCargoColours, rowName, type CargoColours } from './cargo-colours.js';
import type { ContainerPlacement, OrderPlan } from './order-plan.js';

export interface PlanColours {
  cargo: CargoColours;
  placement: (p: ContainerPlacement) => string;
  sku: (sku: string) => string;
}

export function planColours(plan: OrderPlan): PlanColours {
  // The colours read only pallets' units, placements and unplaced rows, which this plan has.
  const cargo = planCargoColours(plan as Parameters<typeof planCargoColours>[0]);
  const pallets = new Map(plan.pallets.map((p) => [p.pallet_index, p]));
  return {
    cargo,
    placement: (p) => {
      if (p.kind !== 'pallet') return cargo.of(p.kind, rowName(p.ref));
      const pallet = pallets.get(p.ref);
      return pallet ? cargo.pallet({ ...pallet, layers: [] }) : MIXED_PALLET_COLOUR;
    },
    sku: (sku) => cargo.of('sku', sku),
  };
}
