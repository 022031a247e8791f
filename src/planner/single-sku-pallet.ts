// The best pallet of one SKU on one pallet type: the same guillotine layer (layer-pattern.ts) stacked
// as often as the load height allows, capped by the pallet's max_weight and by what a unit may bear,
// best over every face the unit may stand on. Every unit stands wholly on the one below it, so layers
// need no check, and what rests on a unit is exactly the column above it.
import { guillotineLayer } from './layer-pattern.js';
import type { PlacedBox } from '../plan-contract/plan-types.js';

export interface UnitSize {
  l: number;
  w: number;
  h: number;
  weightG: number;
  upright: boolean;
  /** The most a unit may carry above it (0: nothing); absent: no limit. */
  maxLoadG?: number;
}

export interface DeckRoom {
  l: number;
  w: number;
  /** Room for units above the deck. */
  loadHeight: number;
  /** Weight for units. */
  loadWeightG: number;
}

export interface SingleSkuPallet {
  /** Units on a full pallet. */
  perPallet: number;
  perLayer: number;
  /** The first units of a full pallet (no more than asked for), bottom layer first, each layer in rows. */
  units: PlacedBox[];
  /** What a unit bears, not the load height or weight, ends the stack: the pallet is low, not full. */
  lowByBearing: boolean;
}

/** Cartons so small that a layer holds more are left to the block search, which counts rather than lists. */
const MAX_LAYER_UNITS = 20_000;

/** The faces a unit may stand on, as [footprint a, footprint b, height]; an upright one only its base. */
export function stances(u: Pick<UnitSize, 'l' | 'w' | 'h' | 'upright'>): [number, number, number][] {
  const all: [number, number, number][] = [
    [u.l, u.w, u.h],
    [u.l, u.h, u.w],
    [u.w, u.h, u.l],
  ];
  return u.upright ? all.slice(0, 1) : all.filter((s, i) => all.findIndex((o) => o[2] === s[2]) === i);
}

export function bestSingleSkuPallet(unit: UnitSize, deck: DeckRoom, maxUnits: number): SingleSkuPallet | undefined {
  const byWeight = unit.weightG > 0 ? Math.floor(deck.loadWeightG / unit.weightG) : Number.MAX_SAFE_INTEGER;
  const layersBorne = bearableLayers(unit);
  let best:
    | { count: number; height: number; perLayer: number; spots: ReturnType<typeof guillotineLayer>; h: number; lowByBearing: boolean }
    | undefined;
  for (const [a, b, h] of stances(unit)) {
    if (h > deck.loadHeight || (deck.l * deck.w) / (a * b) > MAX_LAYER_UNITS) continue;
    const spots = guillotineLayer(deck.l, deck.w, a, b);
    if (spots.length === 0) continue;
    const byHeight = Math.floor(deck.loadHeight / h);
    const count = Math.min(spots.length * Math.min(byHeight, layersBorne), byWeight);
    const lowByBearing = layersBorne < byHeight && spots.length * layersBorne < byWeight;
    // a tie goes to the lower stack (steadier, lower in the container), then to fewer layers to build
    const height = Math.ceil(count / spots.length) * h;
    const tieBetter =
      best !== undefined && count === best.count && (height < best.height || (height === best.height && spots.length > best.perLayer));
    if (!best || count > best.count || tieBetter) best = { count, height, perLayer: spots.length, spots, h, lowByBearing };
  }
  if (!best || best.count <= 0) return undefined;
  const units: PlacedBox[] = [];
  const listed = Math.min(best.count, maxUnits);
  for (let k = 0; units.length < listed; k++) {
    for (const s of best.spots) {
      if (units.length === listed) break;
      units.push({ x: s.x, y: s.y, z: k * best.h, l: s.l, w: s.w, h: best.h });
    }
  }
  return { perPallet: best.count, perLayer: best.perLayer, units, lowByBearing: best.lowByBearing };
}

/** Layers of one unit in columns that the bottom unit bears: itself and as many above as its limit carries. */
export function bearableLayers(unit: Pick<UnitSize, 'weightG' | 'maxLoadG'>): number {
  if (unit.maxLoadG === undefined) return Number.MAX_SAFE_INTEGER;
  return unit.weightG > 0 ? 1 + Math.floor(unit.maxLoadG / unit.weightG) : Number.MAX_SAFE_INTEGER;
}
