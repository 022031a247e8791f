// What an order asks the palletizer for, per SKU: its unit as master data gives it (mm, g) and the
// order lines that want it; and whether a SKU's units can go on pallets of a type at all.
import type { ItemMm, OrderLineUnits, PalletTypeMm } from '../plan-contract/planner-input.js';
import type { Unplaced, UnplacedReason } from '../plan-contract/plan-types.js';

export interface SkuDemand extends ItemMm {
  /** Order lines of this SKU in order, each with its whole units. */
  lines: { purchase_order: string; line_item_number: string; units: number }[];
  units: number;
}

export interface OrderDemand {
  /** SKUs with master data and units, in first-ordered order. */
  skus: SkuDemand[];
  /** SKUs without master data. */
  unplaced: Unplaced[];
  units: number;
}

export function orderDemand(items: readonly ItemMm[], lines: readonly OrderLineUnits[]): OrderDemand {
  const master = new Map<string, ItemMm>(items.map((i) => [i.sku, i]));
  const demands = new Map<string, SkuDemand>();
  let units = 0;
  for (const line of lines) {
    units += line.units;
    let d = demands.get(line.sku);
    if (!d) {
      const it = master.get(line.sku);
      d = it
        ? {
            sku: line.sku,
            l: it.l,
            w: it.w,
            h: it.h,
            weightG: it.weightG,
            upright: it.upright,
            ...(it.maxLoadG === undefined ? {} : { maxLoadG: it.maxLoadG }),
            lines: [],
            units: 0,
          }
        : { sku: line.sku, l: 0, w: 0, h: 0, weightG: 0, upright: false, lines: [], units: 0 };
      demands.set(line.sku, d);
    }
    d.lines.push({ purchase_order: line.purchase_order, line_item_number: line.line_item_number, units: line.units });
    d.units += line.units;
  }
  const skus: SkuDemand[] = [];
  const unplaced: Unplaced[] = [];
  for (const d of demands.values()) {
    if (d.units === 0) continue;
    if (master.has(d.sku)) skus.push(d);
    else unplaced.push({ kind: 'unit', ref: d.sku, count: d.units, reason: 'no_item_master_data' });
  }
  return { skus, unplaced, units };
}

function fitsPallet(d: SkuDemand, p: PalletTypeMm): boolean {
  const dims = [d.l, d.w, d.h];
  const verticals = d.upright ? [d.h] : dims;
  return verticals.some((v) => {
    const rest = [...dims];
    rest.splice(rest.indexOf(v), 1);
    const [a = 0, b = 0] = rest;
    return v <= p.loadHeight && ((a <= p.l && b <= p.w) || (a <= p.w && b <= p.l));
  });
}

/** Why a SKU's units cannot go on pallets of this type, or undefined when they can. */
export function unfitReason(d: SkuDemand, p: PalletTypeMm): UnplacedReason | undefined {
  return !fitsPallet(d, p) ? 'too_large_for_pallet' : d.weightG > p.loadWeightG ? 'over_pallet_max_weight' : undefined;
}
