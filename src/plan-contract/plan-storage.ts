// The plan as OrderPlanned stores it, and back. A plan lists every unit, and a large order has
// tens of thousands: stored whole it nears the event store's append limit (1 MiB on KurrentDB).
// Stored, identical units in rows, rows and stacks are one block, a pallet identical to the one
// before it (all but its index) is a copy count, and placements are rows of numbers. expandPlan
// gives back exactly the plan that was compacted, and reads plans stored whole before this form.
import { layersOf } from './pallet-layers.js';
import type {
  ContainerPlacement,
  OrderPlan,
  PalletContentsLine,
  PalletUnit,
  PlacementKind,
  PlannedContainer,
  PlannedPallet,
} from './plan-types.js';

export const STORED_PLAN_FORMAT = 2;

/** A block: the order line (index into `lines`), the first unit's corner and sizes, then units along x, y, z. */
type UnitBlock = [line: number, x: number, y: number, z: number, l: number, w: number, h: number, nx: number, ny: number, nz: number];

interface StoredPallet extends Omit<PlannedPallet, 'units' | 'layers'> {
  unit_blocks: UnitBlock[];
  /** This pallet and the next copies - 1 (numbered on) are the same; absent: 1. */
  copies?: number;
}

type PlacementRow = [kind: PlacementKind, ref: string, x: number, y: number, z: number, l: number, w: number, h: number, weight_g: number];

type StoredContainer = Omit<PlannedContainer, 'placements'> & ({ placements: ContainerPlacement[] } | { placement_rows: PlacementRow[] });

export interface StoredPlan extends Omit<OrderPlan, 'pallets' | 'containers'> {
  format: typeof STORED_PLAN_FORMAT;
  /** [sku, purchase_order, line_item_number] of the units. */
  lines: [string, string, string][];
  pallets: StoredPallet[];
  containers: StoredContainer[];
}

function unitBlocks(units: readonly PalletUnit[], lineOf: (u: PalletUnit) => number): UnitBlock[] {
  const blocks: UnitBlock[] = [];
  const lines = units.map(lineOf);
  let i = 0;
  while (i < units.length) {
    const u = units[i]!;
    const line = lines[i]!;
    const at = (k: number, dx: number, dy: number, dz: number): boolean => {
      const v = units[k];
      return (
        v !== undefined &&
        lines[k] === line &&
        v.l === u.l &&
        v.w === u.w &&
        v.h === u.h &&
        v.x === u.x + dx &&
        v.y === u.y + dy &&
        v.z === u.z + dz
      );
    };
    let nx = 1;
    while (at(i + nx, nx * u.l, 0, 0)) nx++;
    const row = (j: number): boolean => {
      for (let a = 0; a < nx; a++) if (!at(i + j * nx + a, a * u.l, j * u.w, 0)) return false;
      return true;
    };
    let ny = 1;
    while (row(ny)) ny++;
    const layer = (k: number): boolean => {
      for (let j = 0; j < ny; j++) for (let a = 0; a < nx; a++) if (!at(i + (k * ny + j) * nx + a, a * u.l, j * u.w, k * u.h)) return false;
      return true;
    };
    let nz = 1;
    while (layer(nz)) nz++;
    blocks.push([line, u.x, u.y, u.z, u.l, u.w, u.h, nx, ny, nz]);
    i += nx * ny * nz;
  }
  return blocks;
}

const PLACEMENT_KEYS = ['h', 'kind', 'l', 'loading_order', 'ref', 'w', 'weight_g', 'x', 'y', 'z'].join();

/** Rows when the placements are in loading order 1, 2, ... and carry nothing else; else as they are. */
function compactPlacements(
  placements: readonly ContainerPlacement[],
): { placements: ContainerPlacement[] } | { placement_rows: PlacementRow[] } {
  const plain = placements.every((p, i) => p.loading_order === i + 1 && Object.keys(p).sort().join() === PLACEMENT_KEYS);
  if (!plain) return { placements: [...placements] };
  return { placement_rows: placements.map((p) => [p.kind, p.ref, p.x, p.y, p.z, p.l, p.w, p.h, p.weight_g]) };
}

export function compactPlan(plan: OrderPlan): StoredPlan {
  const lines: [string, string, string][] = [];
  // by SKU, purchase order, line item number: a lookup per unit without building a key for it
  const lineIndex = new Map<string, Map<string, Map<string, number>>>();
  const lineOf = (u: PalletUnit): number => {
    let byOrder = lineIndex.get(u.sku);
    if (byOrder === undefined) lineIndex.set(u.sku, (byOrder = new Map()));
    let byLine = byOrder.get(u.purchase_order);
    if (byLine === undefined) byOrder.set(u.purchase_order, (byLine = new Map()));
    let k = byLine.get(u.line_item_number);
    if (k === undefined) {
      k = lines.length;
      lines.push([u.sku, u.purchase_order, u.line_item_number]);
      byLine.set(u.line_item_number, k);
    }
    return k;
  };
  const pallets: StoredPallet[] = [];
  let previous = '';
  for (const p of plan.pallets) {
    const stored: StoredPallet = {
      pallet_index: p.pallet_index,
      pallet_code: p.pallet_code,
      length_mm: p.length_mm,
      width_mm: p.width_mm,
      height_mm: p.height_mm,
      weight_g: p.weight_g,
      contents: p.contents,
      unit_blocks: unitBlocks(p.units, lineOf),
    };
    const { pallet_index: _, ...sameness } = stored;
    const key = JSON.stringify(sameness);
    const last = pallets.at(-1);
    // a copy only where the indexes run on (AP7 after AP6), so expanding renumbers nothing
    if (last && key === previous && p.pallet_index === `AP${Number(last.pallet_index.slice(2)) + (last.copies ?? 1)}`) {
      last.copies = (last.copies ?? 1) + 1;
    } else {
      pallets.push(stored);
      previous = key;
    }
  }
  const containers = plan.containers.map(({ placements, ...rest }) => ({ ...rest, ...compactPlacements(placements) }));
  const { pallets: _p, containers: _c, ...others } = plan;
  return { ...others, format: STORED_PLAN_FORMAT, lines, pallets, containers };
}

function isStoredPlan(plan: unknown): plan is StoredPlan {
  return typeof plan === 'object' && plan !== null && (plan as { format?: unknown }).format === STORED_PLAN_FORMAT;
}

function expandUnits(blocks: readonly UnitBlock[], lines: StoredPlan['lines']): PalletUnit[] {
  const units: PalletUnit[] = [];
  for (const [line, x, y, z, l, w, h, nx, ny, nz] of blocks) {
    const [sku, purchase_order, line_item_number] = lines[line] ?? ['', '', ''];
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let a = 0; a < nx; a++)
          units.push({ sku, purchase_order, line_item_number, x: x + a * l, y: y + j * w, z: z + k * h, l, w, h });
      }
    }
  }
  return units;
}

/** Each stored pallet with its copies, numbered on from its index. */
function eachPallet<T>(stored: StoredPlan, make: (p: StoredPallet, index: string) => T): T[] {
  const out: T[] = [];
  for (const p of stored.pallets) {
    const first = Number(p.pallet_index.slice(2));
    for (let c = 0; c < (p.copies ?? 1); c++) out.push(make(p, c === 0 ? p.pallet_index : `AP${first + c}`));
  }
  return out;
}

/** The plan as the planner made it, from either stored form. */
export function expandPlan(plan: unknown): OrderPlan {
  if (!isStoredPlan(plan)) return plan as OrderPlan;
  const pallets = eachPallet(plan, (p, pallet_index): PlannedPallet => {
    const units = expandUnits(p.unit_blocks, plan.lines);
    return {
      pallet_index,
      pallet_code: p.pallet_code,
      length_mm: p.length_mm,
      width_mm: p.width_mm,
      height_mm: p.height_mm,
      weight_g: p.weight_g,
      units,
      layers: layersOf(units),
      contents: p.contents.map((c) => ({ ...c })),
    };
  });
  const containers = plan.containers.map((c): PlannedContainer => {
    if (!('placement_rows' in c)) return c;
    const { placement_rows, ...rest } = c;
    const placements = placement_rows.map(
      ([kind, ref, x, y, z, l, w, h, weight_g], i): ContainerPlacement => ({ kind, ref, x, y, z, l, w, h, weight_g, loading_order: i + 1 }),
    );
    return { ...rest, placements };
  });
  const { format: _f, lines: _l, pallets: _p, containers: _c, ...others } = plan;
  return { ...others, pallets, containers };
}

/** Pallet contents (spec 4.4) from either stored form, without expanding the units. */
export function storedPalletContents(plan: unknown): { pallet_index: string; pallet_code: string; contents: PalletContentsLine[] }[] {
  if (!isStoredPlan(plan)) {
    return (plan as OrderPlan).pallets.map((p) => ({ pallet_index: p.pallet_index, pallet_code: p.pallet_code, contents: p.contents }));
  }
  return eachPallet(plan, (p, pallet_index) => ({ pallet_index, pallet_code: p.pallet_code, contents: p.contents }));
}
