// One colour per SKU, pre-built row and loose-box row, shared by the PDF and the 3D viewer, so a
// loader who sees a blue carton on paper finds the same blue on screen. Colours are handed out in
// the order the cargo first appears in the plan, so the same plan always gets the same colours.
import type { OrderPlan, PlannedPallet } from '../plan-contract/plan-types.js';

// Distinct, print-safe fills, dark enough to frame and light enough to write on.
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#86bcb6',
  '#a0cbe8',
  '#ffbe7d',
  '#8cd17d',
  '#f1ce63',
  '#d4a6c8',
  '#fabfd2',
];

/** Service-built pallets holding more than one SKU. */
export const MIXED_PALLET_COLOUR = '#bab0ac';

export type CargoKind = 'sku' | 'pre_built' | 'loose_box';

export function cargoKey(kind: CargoKind, name: string): string {
  return `${kind}:${name}`;
}

/** Past the palette, hues step by the golden angle so neighbours stay apart. */
export function paletteColour(index: number): string {
  const fixed = PALETTE[index];
  if (fixed !== undefined) return fixed;
  const hue = ((index - PALETTE.length) * 137.508) % 360;
  return hslToHex(hue, 0.45, 0.62);
}

/** "<row name> #k" as the planner names placements and unplaced rows. */
export function rowName(ref: string): string {
  return ref.replace(/ #\d+$/, '');
}

export class CargoColours {
  private readonly byKey = new Map<string, string>();

  /** The colour of a cargo, given one the first time it is asked for. */
  of(kind: CargoKind, name: string): string {
    const key = cargoKey(kind, name);
    let colour = this.byKey.get(key);
    if (colour === undefined) {
      colour = paletteColour(this.byKey.size);
      this.byKey.set(key, colour);
    }
    return colour;
  }

  /** A pallet of one SKU wears that SKU's colour; a mixed one is grey. */
  pallet(pallet: PlannedPallet): string {
    const [only, ...others] = new Set(pallet.units.map((u) => u.sku));
    return only !== undefined && others.length === 0 ? this.of('sku', only) : MIXED_PALLET_COLOUR;
  }

  entries(): [string, string][] {
    return [...this.byKey.entries()];
  }
}

/** Colours for a whole plan: SKUs in pallet order, then pre-built and loose-box rows in loading order. */
export function planCargoColours(plan: OrderPlan): CargoColours {
  const colours = new CargoColours();
  for (const pallet of plan.pallets) for (const unit of pallet.units) colours.of('sku', unit.sku);
  const placements = plan.containers.flatMap((c) => c.placements);
  for (const p of placements) if (p.kind !== 'pallet') colours.of(p.kind, rowName(p.ref));
  for (const u of plan.unplaced) if (u.kind === 'pre_built' || u.kind === 'loose_box') colours.of(u.kind, u.ref);
  return colours;
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
