// The pre-built pallets and loose boxes exactly as the shipper submitted them, in the lane's
// units, with their handling flags spelled out for the people who move them.
import type { LooseBox, PreBuilt } from '../orders/submit-order-payload.js';
import { formatDecimal, type LaneUnits } from './lane-units.js';
import { ALERT, type PageFlow } from './page-flow.js';
import { drawTable, type Column, type RowStyle } from './tables.js';

const yesNo = (flag: boolean): string => (flag ? 'yes' : 'no');

function stacking(item: { double_stacked_bottom: boolean; double_stacked_top: boolean }): string {
  return `Can be below: ${yesNo(item.double_stacked_bottom)}\nCan be on top: ${yesNo(item.double_stacked_top)}`;
}

/** Spec 2.6: the three rotation flags name four behaviours; other mixes are shown flag by flag. */
export function looseBoxRotation(box: Pick<LooseBox, 'rotation_x' | 'rotation_y' | 'rotation_z'>): string {
  const { rotation_x: x, rotation_y: y, rotation_z: z } = box;
  if (x && y && z) return 'Any orientation';
  if (!x && !y && !z) return 'No rotation';
  if (x && !y && !z) return 'Turn on the floor only';
  if (!x && y && !z) return 'Limited tilt only';
  return `Rotation x ${yesNo(x)}, y ${yesNo(y)}, z ${yesNo(z)}`;
}

function preBuiltItems(preBuilt: PreBuilt): string {
  if (preBuilt.prebuiltitem_set.length === 0) return '-';
  return preBuilt.prebuiltitem_set
    .map((i) => {
      const packages = i.packages === null ? '' : `, ${i.packages} pkg`;
      return `${i.purchase_order || '(no PO)'} / ${i.line_item_number || '-'}: ${i.quantity}${packages}`;
    })
    .join('\n');
}

// Rows with pieces the plan could not load stand out in red; "Loaded" says how many did go.
const SHORTFALL: RowStyle = { color: ALERT, fill: '#fde8e8' };

interface SubmittedCargo {
  name: string;
  length: string;
  width: string;
  height: string;
  weight: string;
  count: number;
}

interface CargoTable<T> {
  title: string;
  empty: string;
  rows: readonly T[];
  /** The columns after Name, size, weight, count and loaded, and their cells. */
  columns: Column[];
  cells: (row: T) => string[];
}

/** `notLoaded`: pieces left behind by row name, from the plan's unplaced list. */
function drawCargoTable<T extends SubmittedCargo>(
  flow: PageFlow,
  units: LaneUnits,
  notLoaded: ReadonlyMap<string, number>,
  table: CargoTable<T>,
): void {
  const shortBy = (item: T) => notLoaded.get(item.name) ?? 0;
  drawTable(flow, {
    title: table.title,
    columns: [
      { header: 'Name', weight: 15 },
      { header: `L x W x H (${units.length})`, weight: 14 },
      { header: `Weight each (${units.weight})`, weight: 8, align: 'right' },
      { header: 'Count', weight: 6, align: 'right' },
      { header: 'Loaded', weight: 7, align: 'right' },
      ...table.columns,
    ],
    rows: table.rows.map((item) => [
      item.name,
      `${formatDecimal(item.length)} x ${formatDecimal(item.width)} x ${formatDecimal(item.height)}`,
      formatDecimal(item.weight),
      String(item.count),
      String(Math.max(item.count - shortBy(item), 0)),
      ...table.cells(item),
    ]),
    rowStyle: (_row, index) => (shortBy(table.rows[index]!) > 0 ? SHORTFALL : undefined),
    empty: table.empty,
  });
}

export function drawPreBuiltsTable(
  flow: PageFlow,
  preBuilts: readonly PreBuilt[],
  units: LaneUnits,
  notLoaded: ReadonlyMap<string, number>,
): void {
  drawCargoTable(flow, units, notLoaded, {
    title: 'Pre-built pallets (as submitted, each loaded as provided)',
    empty: 'This order has no pre-built pallets.',
    rows: preBuilts,
    columns: [
      { header: 'Items: PO / line: quantity', weight: 20 },
      { header: 'Stacking', weight: 15 },
      { header: 'Turn on floor', weight: 12 },
    ],
    cells: (p) => [preBuiltItems(p), stacking(p), p.rotation_x ? 'allowed' : 'no: footprint locked'],
  });
}

export function drawLooseBoxesTable(
  flow: PageFlow,
  looseBoxes: readonly LooseBox[],
  units: LaneUnits,
  notLoaded: ReadonlyMap<string, number>,
): void {
  drawCargoTable(flow, units, notLoaded, {
    title: 'Loose boxes (as submitted)',
    empty: 'This order has no loose boxes.',
    rows: looseBoxes,
    columns: [
      { header: 'PO / line', weight: 13 },
      { header: 'Product qty / packages', weight: 9 },
      { header: 'Stacking', weight: 15 },
      { header: 'Rotation', weight: 14 },
    ],
    cells: (b) => [
      `${b.purchase_order || '-'} / ${b.line_item_number || '-'}`,
      `${b.product_quantity ?? '-'} / ${b.product_packages ?? '-'}`,
      stacking(b),
      looseBoxRotation(b),
    ],
  });
}
