// Pallets of an order's SKU units (order_items) on one pallet type: the pieces the pallet-type choice
// (palletizations.ts) builds its candidates from. A pallet is first built "raw" (its type and boxes per
// SKU): of one SKU in whole layers (single-sku-pallet.ts), or by the planner's block search (its
// palletize job); finishPallets numbers them and gives each unit its order line.
import type { PalletTypeMm } from '../plan-contract/planner-input.js';
import { layersOf } from '../plan-contract/pallet-layers.js';
import type { PlannerWasm } from './planner-wasm.js';
import type { PalletContentsLine, PalletUnit, PlacedBox, PlanLimits, PlannedPallet } from '../plan-contract/plan-types.js';
import { bestSingleSkuPallet, type SingleSkuPallet } from './single-sku-pallet.js';
import type { SkuDemand } from './sku-demand.js';
import { ANY_ORIENTATION, readPalletizeAnswer, StackPolicy, UPRIGHT_ORIENTATIONS, writePalletizeInput } from './wasm-wire.js';

export function singleSkuPallet(d: SkuDemand, p: PalletTypeMm): SingleSkuPallet | undefined {
  return bestSingleSkuPallet(d, { l: p.l, w: p.w, loadHeight: p.loadHeight, loadWeightG: p.loadWeightG }, d.units);
}

/** A pallet before numbering: its type and its boxes, each of one SKU. */
export interface RawPallet {
  type: PalletTypeMm;
  boxes: { d: SkuDemand; box: PlacedBox }[];
}

/** `copies` pallets holding `units` of the single-SKU pallet each (never more than the SKU's units). */
export function layeredPallets(
  d: SkuDemand,
  type: PalletTypeMm,
  pallet: SingleSkuPallet,
  copies: number,
  units = pallet.perPallet,
): RawPallet[] {
  const boxes = pallet.units.slice(0, units).map((box) => ({ d, box }));
  return Array.from({ length: copies }, () => ({ type, boxes }));
}

export interface WasmPalletizing {
  pallets: RawPallet[];
  /** Units of each SKU the search left off (none fits where a unit fits a pallet alone). */
  left: Map<SkuDemand, number>;
  timeLimited: boolean;
}

/** A search that found no plan within the pallets asked for (`most`): a plan the caller has beats any it could give. */
export interface NoneWithin {
  noneWithin: number;
  timeLimited: boolean;
}

/**
 * The block search (assembly/palletize.ts) on `counts` units of each SKU, all on one type. `most`:
 * the most pallets worth building (a plan needing more loses to one the caller has); the search
 * stops once it cannot stay within them and says so. `prune` false: every build runs to its end (the
 * tests' reference).
 */
export function searchPallets(
  wasm: PlannerWasm,
  skus: readonly SkuDemand[],
  counts: readonly number[],
  type: PalletTypeMm,
  limits: PlanLimits,
  seed: number,
  most = -1,
  prune = true,
): WasmPalletizing | NoneWithin {
  const loadable = skus.map((d, i) => ({ d, count: counts[i]! })).filter((x) => x.count > 0);
  if (loadable.length === 0) return { pallets: [], left: new Map(), timeLimited: false };
  const input = writePalletizeInput({
    deckL: type.l,
    deckW: type.w,
    loadHeight: type.loadHeight,
    loadWeightG: type.loadWeightG,
    limits: { timeLimitMs: Math.max(1, Math.round(limits.timeLimitMs)), effort: limits.effort },
    seed,
    mostPallets: most,
    prune,
    cargo: loadable.map(({ d, count }) => ({
      l: d.l,
      w: d.w,
      h: d.h,
      weightG: d.weightG,
      count,
      orientations: d.upright ? UPRIGHT_ORIENTATIONS : ANY_ORIENTATION,
      // a unit that may carry nothing has no top a level can join
      policy: d.maxLoadG === 0 ? StackPolicy.None : StackPolicy.Free,
      canTop: true,
      stackClass: 0,
      maxLoadG: d.maxLoadG,
    })),
  });
  const answer = readPalletizeAnswer(wasm.run('palletize', input));
  const timeLimited = answer.deadlineHit;
  if (most >= 0 && answer.pallets > most) return { noneWithin: most, timeLimited };
  const placed = loadable.map(() => 0);
  const pallets: RawPallet[] = answer.built.map(({ boxes }) => ({
    type,
    boxes: boxes.map((box) => {
      placed[box.type]!++;
      return { d: loadable[box.type]!.d, box };
    }),
  }));
  const left = new Map<SkuDemand, number>();
  loadable.forEach(({ d, count: n }, i) => {
    if (placed[i]! < n) left.set(d, n - placed[i]!);
  });
  return { pallets, left, timeLimited };
}

/** Numbers the pallets AP1, AP2, ... and hands each SKU's units to its order lines in line order. */
export function finishPallets(raw: readonly RawPallet[]): PlannedPallet[] {
  const cursor = new Map<SkuDemand, { line: number; used: number }>();
  return raw.map((r, k) => {
    const units: PalletUnit[] = r.boxes.map(({ d, box }) => {
      let c = cursor.get(d);
      if (!c) cursor.set(d, (c = { line: 0, used: 0 }));
      while (c.used >= d.lines[c.line]!.units) {
        c.line++;
        c.used = 0;
      }
      c.used++;
      const line = d.lines[c.line]!;
      return {
        sku: d.sku,
        purchase_order: line.purchase_order,
        line_item_number: line.line_item_number,
        x: box.x,
        y: box.y,
        z: box.z,
        l: box.l,
        w: box.w,
        h: box.h,
      };
    });
    const p = r.type;
    return {
      pallet_index: `AP${k + 1}`,
      pallet_code: p.code,
      length_mm: p.l,
      width_mm: p.w,
      height_mm: p.h + units.reduce((m, u) => Math.max(m, u.z + u.h), 0),
      weight_g: p.weightG + r.boxes.reduce((s, b) => s + b.d.weightG, 0),
      units,
      layers: layersOf(units),
      contents: contentsOf(units),
    };
  });
}

/** Spec 2.2: grouped by SKU / purchase order / line item, quantities summed, in first-seen order. */
export function contentsOf(units: readonly { sku: string; purchase_order: string; line_item_number: string }[]): PalletContentsLine[] {
  // by SKU, then purchase order, then line: nested maps, no key to build per unit
  const lines: PalletContentsLine[] = [];
  const bySku = new Map<string, Map<string, Map<string, PalletContentsLine>>>();
  for (const u of units) {
    let byOrder = bySku.get(u.sku);
    if (!byOrder) bySku.set(u.sku, (byOrder = new Map()));
    let byLine = byOrder.get(u.purchase_order);
    if (!byLine) byOrder.set(u.purchase_order, (byLine = new Map()));
    const line = byLine.get(u.line_item_number);
    if (line) line.quantity++;
    else {
      const added = { sku: u.sku, purchase_order: u.purchase_order, line_item_number: u.line_item_number, quantity: 1 };
      byLine.set(u.line_item_number, added);
      lines.push(added);
    }
  }
  return lines;
}
