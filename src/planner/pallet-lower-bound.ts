// A lower bound on the pallets an order's units need, whatever mix of the lane's pallet types a
// plan uses: each unit takes at least its volume and its weight as a share of the roomiest pallet
// type that takes it, and a pallet holds at most one whole of either.
import type { PalletTypeMm } from '../plan-contract/planner-input.js';
import { type OrderDemand, unfitReason } from './sku-demand.js';

export function palletLowerBound(demand: OrderDemand, types: readonly PalletTypeMm[]): number {
  let volume = 0;
  let weight = 0;
  for (const d of demand.skus) {
    const fit = types.filter((t) => unfitReason(d, t) === undefined);
    if (fit.length === 0) continue;
    volume += d.units * Math.min(...fit.map((t) => (d.l * d.w * d.h) / (t.l * t.w * t.loadHeight)));
    weight += d.units * Math.min(...fit.map((t) => d.weightG / t.loadWeightG));
  }
  // shares are fractions: a hair over a whole number is rounding, not a pallet
  return Math.ceil(Math.max(volume, weight) - 1e-9);
}
