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

/**
 * The layers a worker builds, bottom first, units in placing order. A layer ends where nothing
 * crosses: so a layer of 50 x 50 x 40 cm cartons with a strip of 20 cm cartons two high beside them
 * is one layer, not two. When a layer so cut holds anything but whole columns (each unit on its
 * base or straight on one of the same footprint), the pallet is drawn by base height instead, as
 * the block search's pallets are: one drawing per height at which units start.
 */
export function palletLayers(units: readonly PalletUnit[]): PalletLayer[] {
  const cut = byFlatCuts(units);
  return (cut ?? byBase(units)).map(([baseZ, layerUnits], i) => ({
    number: i + 1,
    baseZ,
    // Row by row along the deck's length, each column bottom up: the order a worker fills it in.
    units: layerUnits.slice().sort((a, b) => a.x - b.x || a.y - b.y || a.z - b.z),
  }));
}

function byBase(units: readonly PalletUnit[]): [number, PalletUnit[]][] {
  const byZ = new Map<number, PalletUnit[]>();
  for (const unit of units) {
    const layer = byZ.get(unit.z);
    if (layer) layer.push(unit);
    else byZ.set(unit.z, [unit]);
  }
  return [...byZ.entries()].sort(([a], [b]) => a - b);
}

function byFlatCuts(units: readonly PalletUnit[]): [number, PalletUnit[]][] | undefined {
  const bases = [...new Set(units.map((u) => u.z))].sort((a, b) => a - b);
  const cuts = bases.filter((z) => !units.some((u) => u.z < z && z < u.z + u.h));
  if (cuts.length === bases.length) return undefined; // every base is a cut: the same as by base
  const layers: [number, PalletUnit[]][] = cuts.map((z, i) => [z, units.filter((u) => u.z >= z && u.z < (cuts[i + 1] ?? Infinity))]);
  const columnsOnly = layers.every(([z, layer]) =>
    layer.every((u) => u.z === z || layer.some((b) => b.z + b.h === u.z && b.x === u.x && b.y === u.y && b.l === u.l && b.w === u.w)),
  );
  return columnsOnly ? layers : undefined;
}

/** A layer's units by footprint: a column of k units of one SKU is one footprint, k high. */
export function layerColumns(units: readonly PalletUnit[]): { unit: PalletUnit; high: number }[] {
  const columns = new Map<string, { unit: PalletUnit; high: number }>();
  for (const unit of units) {
    const key = `${unit.x},${unit.y},${unit.l},${unit.w}`;
    const column = columns.get(key);
    if (column) column.high += 1;
    else columns.set(key, { unit, high: 1 });
  }
  return [...columns.values()];
}
