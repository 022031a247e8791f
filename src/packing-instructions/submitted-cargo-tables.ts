// The pre-built pallets and loose boxes exactly as the shipper submitted them, in the lane's
// units, with their handling flags spelled out for the people who move them.
import type { LooseBox, PreBuilt } from '../orders/submit-order-payload.js';
import { formatDecimal, type LaneUnits } from './lane-units.js';
import { ALERT, type PageFlow } from './page-flow.js';
import { drawTable, type RowStyle } from './tables.js';

const yesNo = (flag: boolean): string => (flag ? 'yes' : 'no');

function dimensions(item: { length: string; width: string; height: string }): string {
  return `${formatDecimal(item.length)} x ${formatDecimal(item.width)} x ${formatDecimal(item.height)}`;
}

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

function shortfallStyle(rows: readonly { count: number; name: string }[], notLoaded: ReadonlyMap<string, number>) {
  return (_row: string[], index: number): RowStyle | undefined => {
    const item = rows[index];
    return item && (notLoaded.get(item.name) ?? 0) > 0 ? SHORTFALL : undefined;
  };
}

function loaded(item: { count: number; name: string }, notLoaded: ReadonlyMap<string, number>): string {
  return String(Math.max(item.count - (notLoaded.get(item.name) ?? 0), 0));
}

/** `notLoaded`: pieces left behind by row name, from the plan's unplaced list. */
export function drawPreBuiltsTable(flow: PageFlow, preBuilts: readonly PreBuilt[], units: LaneUnits, notLoaded: ReadonlyMap<string, number>): void {
  drawTable(flow, {
    title: 'Pre-built pallets (as submitted, each loaded as provided)',
    columns: [
      { header: 'Name', weight: 17 },
      { header: `L x W x H (${units.length})`, weight: 15 },
      { header: `Weight each (${units.weight})`, weight: 9, align: 'right' },
      { header: 'Count', weight: 6, align: 'right' },
      { header: 'Loaded', weight: 7, align: 'right' },
      { header: 'Items: PO / line: quantity', weight: 19 },
      { header: 'Stacking', weight: 15 },
      { header: 'Turn on floor', weight: 12 },
    ],
    rows: preBuilts.map((p) => [
      p.name,
      dimensions(p),
      formatDecimal(p.weight),
      String(p.count),
      loaded(p, notLoaded),
      preBuiltItems(p),
      stacking(p),
      p.rotation_x ? 'allowed' : 'no: footprint locked',
    ]),
    rowStyle: shortfallStyle(preBuilts, notLoaded),
    empty: 'This order has no pre-built pallets.',
  });
}

export function drawLooseBoxesTable(flow: PageFlow, looseBoxes: readonly LooseBox[], units: LaneUnits, notLoaded: ReadonlyMap<string, number>): void {
  drawTable(flow, {
    title: 'Loose boxes (as submitted)',
    columns: [
      { header: 'Name', weight: 14 },
      { header: `L x W x H (${units.length})`, weight: 14 },
      { header: `Weight each (${units.weight})`, weight: 8, align: 'right' },
      { header: 'Count', weight: 6, align: 'right' },
      { header: 'Loaded', weight: 7, align: 'right' },
      { header: 'PO / line', weight: 13 },
      { header: 'Product qty / packages', weight: 9 },
      { header: 'Stacking', weight: 15 },
      { header: 'Rotation', weight: 14 },
    ],
    rows: looseBoxes.map((b) => [
      b.name,
      dimensions(b),
      formatDecimal(b.weight),
      String(b.count),
      loaded(b, notLoaded),
      `${b.purchase_order || '-'} / ${b.line_item_number || '-'}`,
      `${b.product_quantity ?? '-'} / ${b.product_packages ?? '-'}`,
      stacking(b),
      looseBoxRotation(b),
    ]),
    rowStyle: shortfallStyle(looseBoxes, notLoaded),
    empty: 'This order has no loose boxes.',
  });
}
