// How a service-built pallet is built: its contents grouped as the pallet-contents API shows them
// (spec 2.2), a short key per SKU for drawings too small for the SKU itself, and its layers.
import type { PalletContentLine, PalletUnit, PlannedPallet } from './order-plan.js';

/** One line per SKU / purchase order / line item, quantities summed, in first-seen order (spec 2.2). */
export function groupContents(lines: readonly PalletContentLine[]): PalletContentLine[] {
  const grouped = new Map<string, PalletContentLine>();
  for (const line of lines) {
    const key = JSON.stringify([line.sku, line.purchase_order, line.line_item_number]);
    const seen = grouped.get(key);
    if (seen) seen.quantity += line.quantity;
    else grouped.set(key, { ...line });
  }
  return [...grouped.values()];
}

/** A, B, ..., Z, AA, AB, ...: short enough to print inside a carton's footprint. */
export function keyFor(index: number): string {
  let key = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) key = String.fromCharCode(65 + ((n - 1) % 26)) + key;
  return key;
}

/** Keys by SKU, in the order SKUs first appear in the contents, then in the units. */
export function skuKeys(pallet: PlannedPallet): Map<string, string> {
  const keys = new Map<string, string>();
  for (const sku of [...pallet.contents.map((c) => c.sku), ...pallet.units.map((u) => u.sku)]) {
    if (!keys.has(sku)) keys.set(sku, keyFor(keys.size));
  }
  return keys;
}

export interface PalletLayer {
  /** 1 is the layer on the deck. */
  number: number;
  /** Height of the layer's base above the deck, mm. */
  baseZ: number;
  units: PalletUnit[];
}

/** Units sharing a base height form a layer; layers bottom first, units in placing order. */
export function palletLayers(units: readonly PalletUnit[]): PalletLayer[] {
  const byZ = new Map<number, PalletUnit[]>();
  for (const unit of units) {
    const layer = byZ.get(unit.z);
    if (layer) layer.push(unit);
    else byZ.set(unit.z, [unit]);
  }
  return [...byZ.entries()]
    .sort(([a], [b]) => a - b)
    .map(([baseZ, layerUnits], i) => ({
      number: i + 1,
      baseZ,
      // Row by row along the deck's length: the order a worker fills it in.
      units: layerUnits.slice().sort((a, b) => a.x - b.x || a.y - b.y),
    }));
}
