// One service-built pallet: where it goes, what is on it (grouped as the pallet-contents API shows
// it, spec 2.2) and how to build it layer by layer.
import { drawPalletLayers, palletLayersHeight } from './draw-pallet-layers.js';
import { formatLength, formatTotalWeight, type LaneUnits } from './lane-units.js';
import type { PlannedPallet } from './order-plan.js';
import { groupContents, palletLayers, skuKeys } from './pallet-layers.js';
import type { PalletLocation } from './plan-summary.js';
import { ALERT, INK, textHeight, type PageFlow, type TextStyle } from './page-flow.js';
import { drawTable, tableHeight, type Table } from './tables.js';

const GAP_AFTER = 14;

export function drawPalletSection(
  flow: PageFlow,
  pallet: PlannedPallet,
  location: PalletLocation | undefined,
  units: LaneUnits,
  skuColour: (sku: string) => string,
): void {
  const layers = palletLayers(pallet.units);
  const lines: [string, TextStyle][] = [
    [`Pallet ${pallet.pallet_index} (${pallet.pallet_code})`, { size: 14, bold: true }],
    [
      location
        ? `Goes into container ${location.containerCode} #${location.containerIndex} as loading #${location.loadingOrder}.`
        : 'NOT LOADED in any container: see the summary on page 1.',
      { size: 9.5, bold: true, color: location ? INK : ALERT },
    ],
    [
      `Deck ${formatLength(pallet.length_mm, units.length)} x ${formatLength(pallet.width_mm, units.length)} ${units.length}   |   ` +
        `Loaded height ${formatLength(pallet.height_mm, units.length)} ${units.length}   |   ` +
        `Loaded weight ${formatTotalWeight(pallet.weight_g, units.weight)}   |   ` +
        `${pallet.units.length} units in ${layers.length} layer(s)`,
      { size: 9 },
    ],
  ];
  const keys = skuKeys(pallet);
  const contents = contentsTable(pallet, keys);

  // A pallet that fits on one page is never split over two: the worker builds it from one sheet.
  const headHeight = lines.reduce((sum, [text, style]) => sum + textHeight(flow.doc, text, flow.width, style), 0) + 4;
  const whole = headHeight + tableHeight(flow, contents) + palletLayersHeight(flow, pallet, keys);
  if (whole > flow.room && whole <= flow.pageRoom) flow.newPage();
  // Otherwise at least the title, its facts and the first rows of the contents stay together.
  else flow.ensureRoom(headHeight + 60);

  for (const [text, style] of lines) flow.paragraph(text, style);
  flow.gap(4);
  drawTable(flow, contents);
  drawPalletLayers(flow, pallet, keys, units, skuColour);
  flow.gap(GAP_AFTER);
}

function contentsTable(pallet: PlannedPallet, keys: Map<string, string>): Table {
  const contents = groupContents(pallet.contents);
  const totalQuantity = contents.reduce((sum, c) => sum + c.quantity, 0);
  return {
    title: `Contents of ${pallet.pallet_index}`,
    columns: [
      { header: 'Key', weight: 5 },
      { header: 'SKU', weight: 24 },
      { header: 'Purchase order', weight: 22 },
      { header: 'Line', weight: 12 },
      { header: 'Quantity', weight: 10, align: 'right' },
    ],
    rows: [
      ...contents.map((c) => [keys.get(c.sku) ?? '', c.sku, c.purchase_order, c.line_item_number, String(c.quantity)]),
      ['', 'Total', '', '', String(totalQuantity)],
    ],
    rowStyle: (_row, index) => (index === contents.length ? { bold: true, fill: '#e8ebef' } : undefined),
  };
}
