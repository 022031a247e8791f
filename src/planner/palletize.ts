// Palletizing an order's SKU units (order_items) on the lane's pallet type.
import type { ItemDocument, LaneDocument, PalletTypeDocument } from '../master-data/master-data-document.js';
import type { OrderItem } from '../orders/submit-order-payload.js';
import type { PlannerWasm } from './planner-wasm.js';
import type { PalletContentsLine, PalletLayer, PalletUnit, PlanLimits, PlannedPallet, Unplaced } from './plan-types.js';
import { lengthToMm, wholeUnits, weightToG } from './units.js';
import { ANY_ORIENTATION, pushCargo, readBoxes, StackPolicy, UPRIGHT_ORIENTATIONS, WireReader } from './wire.js';

export interface PalletTypeMm {
  code: string;
  l: number;
  w: number;
  h: number;
  weightG: number;
  /** Room for units: max_height less the pallet. */
  loadHeight: number;
  /** Weight for units: max_weight less the pallet. */
  loadWeightG: number;
}

export function palletTypeMm(lane: LaneDocument, p: PalletTypeDocument): PalletTypeMm {
  const { length: lu, weight: wu } = lane.units;
  const h = lengthToMm(p.height, lu, 'up');
  const weightG = weightToG(p.weight, wu, 'up');
  return {
    code: p.code,
    l: lengthToMm(p.length, lu, 'down'),
    w: lengthToMm(p.width, lu, 'down'),
    h,
    weightG,
    loadHeight: lengthToMm(p.max_height, lu, 'down') - h,
    loadWeightG: weightToG(p.max_weight, wu, 'down') - weightG,
  };
}

interface SkuDemand {
  sku: string;
  l: number;
  w: number;
  h: number;
  weightG: number;
  upright: boolean;
  /** Order lines of this SKU in order, each with its whole units. */
  lines: { purchase_order: string; line_item_number: string; units: number }[];
  units: number;
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

export interface PalletizeResult {
  pallets: PlannedPallet[];
  unplaced: Unplaced[];
  lowerBound: number;
  units: number;
  unitsPalletized: number;
  timeLimited: boolean;
}

export function palletizeOrder(
  wasm: PlannerWasm, lane: LaneDocument, items: readonly OrderItem[], palletType: PalletTypeMm | undefined,
  limits: PlanLimits, seed: number,
): PalletizeResult {
  const unplaced: Unplaced[] = [];
  const master = new Map<string, ItemDocument>(lane.items.map((i) => [i.sku, i]));
  const demands = new Map<string, SkuDemand>();
  let units = 0;
  for (const line of items) {
    const count = wholeUnits(line.quantity);
    units += count;
    let d = demands.get(line.item);
    if (!d) {
      const it = master.get(line.item);
      const { length: lu, weight: wu } = lane.units;
      d = it
        ? { sku: line.item, l: lengthToMm(it.length, lu, 'up'), w: lengthToMm(it.width, lu, 'up'), h: lengthToMm(it.height, lu, 'up'),
            weightG: weightToG(it.weight, wu, 'up'), upright: it.upright, lines: [], units: 0 }
        : { sku: line.item, l: 0, w: 0, h: 0, weightG: 0, upright: false, lines: [], units: 0 };
      demands.set(line.item, d);
    }
    d.lines.push({ purchase_order: line.purchase_order, line_item_number: line.line_item_number, units: count });
    d.units += count;
  }
  const loadable: SkuDemand[] = [];
  for (const d of demands.values()) {
    if (d.units === 0) continue;
    const reason = !master.has(d.sku) ? 'no_item_master_data'
      : !palletType ? 'no_pallet_type'
      : !fitsPallet(d, palletType) ? 'too_large_for_pallet'
      : d.weightG > palletType.loadWeightG ? 'over_pallet_max_weight'
      : undefined;
    if (reason) unplaced.push({ kind: 'unit', ref: d.sku, count: d.units, reason });
    else loadable.push(d);
  }
  if (!palletType || loadable.length === 0) {
    return { pallets: [], unplaced, lowerBound: 0, units, unitsPalletized: 0, timeLimited: false };
  }
  const p = palletType;
  const input = [p.l, p.w, p.loadHeight, p.loadWeightG, Math.max(1, Math.round(limits.timeLimitMs)), limits.effort, seed];
  pushCargo(input, loadable.map((d) => ({
    l: d.l, w: d.w, h: d.h, weightG: d.weightG, count: d.units,
    orientations: d.upright ? UPRIGHT_ORIENTATIONS : ANY_ORIENTATION, policy: StackPolicy.Free, canTop: true, stackClass: 0,
  })));
  const reader = new WireReader(wasm.run('palletize', Int32Array.from(input)));
  const timeLimited = reader.next() === 1;
  const count = reader.next();
  // units of a SKU go to its order lines in line order
  const cursor = loadable.map((d) => ({ line: 0, used: 0, placed: 0, d }));
  const pallets: PlannedPallet[] = [];
  let unitsPalletized = 0;
  for (let k = 0; k < count; k++) {
    const boxes = readBoxes(reader);
    const placed: PalletUnit[] = boxes.map((b) => {
      const c = cursor[b.type]!;
      while (c.used >= c.d.lines[c.line]!.units) {
        c.line++;
        c.used = 0;
      }
      c.used++;
      c.placed++;
      const line = c.d.lines[c.line]!;
      return { sku: c.d.sku, purchase_order: line.purchase_order, line_item_number: line.line_item_number, x: b.x, y: b.y, z: b.z, l: b.l, w: b.w, h: b.h };
    });
    unitsPalletized += placed.length;
    const weightG = p.weightG + boxes.reduce((s, b) => s + loadable[b.type]!.weightG, 0);
    pallets.push({
      pallet_index: `AP${k + 1}`,
      pallet_code: p.code,
      length_mm: p.l,
      width_mm: p.w,
      height_mm: p.h + placed.reduce((m, u) => Math.max(m, u.z + u.h), 0),
      weight_g: weightG,
      units: placed,
      layers: layersOf(placed),
      contents: contentsOf(placed),
    });
  }
  // the palletizer leaves a unit only when no pallet can take it
  for (const c of cursor) {
    if (c.placed < c.d.units) unplaced.push({ kind: 'unit', ref: c.d.sku, count: c.d.units - c.placed, reason: 'too_large_for_pallet' });
  }
  const volume = loadable.reduce((s, d) => s + d.units * d.l * d.w * d.h, 0);
  const weight = loadable.reduce((s, d) => s + d.units * d.weightG, 0);
  const lowerBound = Math.max(Math.ceil(volume / (p.l * p.w * p.loadHeight)), Math.ceil(weight / p.loadWeightG));
  return { pallets, unplaced, lowerBound, units, unitsPalletized, timeLimited };
}

function layersOf(units: readonly PalletUnit[]): PalletLayer[] {
  const byZ = new Map<number, number[]>();
  units.forEach((u, i) => byZ.set(u.z, [...(byZ.get(u.z) ?? []), i]));
  return [...byZ.entries()]
    .sort(([a], [b]) => a - b)
    .map(([z, unit_indexes]) => ({ z, height: Math.max(...unit_indexes.map((i) => units[i]!.h)), unit_indexes }));
}

/** Spec 2.2: grouped by SKU / purchase order / line item, quantities summed, in first-seen order. */
export function contentsOf(units: readonly { sku: string; purchase_order: string; line_item_number: string }[]): PalletContentsLine[] {
  const lines = new Map<string, PalletContentsLine>();
  for (const u of units) {
    const key = JSON.stringify([u.sku, u.purchase_order, u.line_item_number]);
    const line = lines.get(key);
    if (line) line.quantity++;
    else lines.set(key, { sku: u.sku, purchase_order: u.purchase_order, line_item_number: u.line_item_number, quantity: 1 });
  }
  return [...lines.values()];
}
