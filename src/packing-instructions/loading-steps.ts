// The loading sequence as a forklift driver reads it: rows from the back wall to the door, each
// said in words ("Row 3: 2 pallets AP5, AP6, left and right, on the floor, against row 2") rather
// than as coordinates. Left and right are as seen from the door looking in: y = 0 is the left.
import { compressRuns } from './box-labels.js';
import { rowName } from './cargo-colours.js';
import type { ContainerPlacement, PlannedContainer } from './order-plan.js';
import type { LengthUnit } from '../master-data/master-data-document.js';
import { formatLength } from './lane-units.js';

export interface LoadingStep {
  /** 1-based; a block of several rows keeps the first row's number. */
  number: number;
  /** "Row 3" or, for merged rows, "Rows 3-5". */
  name: string;
  placements: ContainerPlacement[];
  description: string;
}

/**
 * Rows in loading order: a row starts with the first placement not beside or above the length
 * of the previous row's first one, so pallets side by side or a stack of cartons is one row.
 */
export function loadingRows(container: PlannedContainer): ContainerPlacement[][] {
  const sequence = container.placements.slice().sort((a, b) => a.loading_order - b.loading_order);
  const rows: ContainerPlacement[][] = [];
  let first: ContainerPlacement | undefined;
  for (const p of sequence) {
    const row = rows[rows.length - 1];
    if (!row || !first || p.x >= first.x + first.l) {
      rows.push([p]);
      first = p;
    } else row.push(p);
  }
  return rows;
}

/**
 * At most `maxSteps` steps: beyond that, neighbouring rows are merged into blocks. `unit`: the lane's
 * length unit, for a step that does not start where the one before it ends.
 */
export function loadingSteps(container: PlannedContainer, maxSteps = Infinity, unit: LengthUnit = 'mm'): LoadingStep[] {
  const rows = loadingRows(container);
  const perStep = Math.max(1, Math.ceil(rows.length / maxSteps));
  const steps: LoadingStep[] = [];
  for (let start = 0; start < rows.length; start += perStep) {
    const group = rows.slice(start, start + perStep);
    const placements = group.flat();
    const name = group.length === 1 ? `Row ${start + 1}` : `Rows ${start + 1}-${start + group.length}`;
    const against = where(placements, steps.at(-1)?.placements, start, unit);
    steps.push({
      number: start + 1,
      name,
      placements,
      description: `${name}: ${[what(placements), across(placements, container.inner_mm.w), height(placements), against].filter(Boolean).join(', ')}`,
    });
  }
  return steps;
}

// Less than this between a row and what is behind it is "against" it: a loader closes a centimetre.
const TOUCHING_MM = 10;

/**
 * Where a step starts: against the back wall or the row before it, or, where the plan leaves a space
 * there (a load moved towards the middle to keep its centre of gravity within the limits), how far
 * from them: that space is the loader's to see and to brace, not to close up.
 */
function where(
  placements: readonly ContainerPlacement[],
  before: readonly ContainerPlacement[] | undefined,
  start: number,
  unit: LengthUnit,
): string {
  const front = Math.min(...placements.map((p) => p.x));
  const behind = before ? Math.max(...before.map((p) => p.x + p.l)) : 0;
  const target = before ? `row ${start}` : 'the back wall';
  return front - behind < TOUCHING_MM ? `against ${target}` : `${formatLength(front - behind, unit)} ${unit} from ${target}`;
}

const NOUNS: Record<ContainerPlacement['kind'], [string, string]> = {
  pallet: ['pallet', 'pallets'],
  pre_built: ['pre-built pallet', 'pre-built pallets'],
  loose_box: ['box', 'boxes'],
};

/** "2 pallets AP5, AP6" / "12 boxes Spare parts carton #1-12" per kind and row name. */
export function what(placements: readonly ContainerPlacement[]): string {
  const groups = new Map<string, ContainerPlacement[]>();
  for (const p of placements) {
    const key = `${p.kind}|${p.kind === 'pallet' ? '' : rowName(p.ref)}`;
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()]
    .map((group) => {
      const [first] = group;
      if (!first) return '';
      const [one, many] = NOUNS[first.kind];
      const noun = group.length === 1 ? one : many;
      if (first.kind === 'pallet') {
        const refs = group.length <= 6 ? group.map((p) => p.ref).join(', ') : `${group[0]?.ref} ... ${group[group.length - 1]?.ref}`;
        return `${group.length} ${noun} ${refs}`;
      }
      const numbers = group.map((p) => Number(/ #(\d+)$/.exec(p.ref)?.[1]));
      const suffix = numbers.every(Number.isFinite) ? ` #${compressRuns(numbers)}` : '';
      return `${group.length} ${noun} ${rowName(first.ref)}${suffix}`;
    })
    .join(' and ');
}

/** Where across the width, from the door: left, centre, right, or how many side by side. */
export function across(placements: readonly ContainerPlacement[], width: number): string {
  const lanes = new Map<number, ContainerPlacement>();
  for (const p of placements) if (!lanes.has(p.y)) lanes.set(p.y, p);
  const side = (p: ContainerPlacement): string => {
    const centre = (p.y + p.w / 2) / width;
    return centre < 0.4 ? 'left' : centre > 0.6 ? 'right' : 'centre';
  };
  const sides = [...lanes.values()].sort((a, b) => a.y - b.y).map(side);
  if (sides.length === 1) return sides[0] === 'centre' ? 'in the middle' : `on the ${sides[0]}`;
  if (sides.length === 2 && sides[0] !== sides[1]) return `${sides[0]} and ${sides[1]}`;
  if (sides.length === 3 && new Set(sides).size === 3) return 'left, centre and right';
  return `${sides.length} side by side`;
}

/** "on the floor", "2 high", or on top of what an earlier row left. */
function height(placements: readonly ContainerPlacement[]): string {
  const levels = new Set(placements.map((p) => p.z)).size;
  const lowest = Math.min(...placements.map((p) => p.z));
  if (lowest > 0) return levels === 1 ? 'on top of the row below' : `${levels} high on top of the row below`;
  return levels === 1 ? 'on the floor' : `${levels} high`;
}

/** One placement in words for the detailed sequence: "row 3, left, on #4". */
export function whereIs(p: ContainerPlacement, row: number, width: number, standsOn: readonly ContainerPlacement[]): string {
  const side = across([p], width).replace(/^on the /, '');
  const base = p.z === 0 ? 'floor' : standsOn.length > 0 ? `on ${standsOn.map((s) => `#${s.loading_order}`).join(', ')}` : 'stacked';
  return `row ${row}, ${side}, ${base}`;
}
