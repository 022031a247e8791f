// A service-built pallet, layer by layer: for each layer a small top-down drawing of the deck with
// the units' footprints, so a worker can build it from the deck up. Footprints carry the SKU when
// every footprint of the pallet has room for it, otherwise the SKU's key from the contents table:
// one pallet never mixes the two. Footprints wear their SKU's colour, as in the viewer.
import { drawLabel, fitLabel } from './box-labels.js';
import { mix } from './draw-isometric.js';
import { formatLength, type LaneUnits } from './lane-units.js';
import type { PalletUnit, PlannedPallet } from './order-plan.js';
import { layerColumns, palletLayers, type PalletLayer } from './pallet-layers.js';
import { drawText, MUTED, textHeight, type PageFlow } from './page-flow.js';

const COLUMNS = 3;
const GUTTER = 12;
const MAX_DECK_HEIGHT = 105;
const CAPTION = 11;
const ROW_GAP = 10;
const DECK_FILL = '#d9c3a5';

interface LayersLayout {
  intro: string;
  scale: number;
  cellWidth: number;
  deckWidth: number;
  deckHeight: number;
  labelOf: (sku: string) => string;
  rows: { layers: PalletLayer[]; counts: string[]; height: number }[];
}

const INTRO_STYLE = { size: 8.5, bold: true };
const COUNTS_STYLE = { size: 7, color: MUTED };

function layOut(flow: PageFlow, pallet: PlannedPallet, keys: Map<string, string>): LayersLayout {
  const doc = flow.doc;
  const cellWidth = (flow.width - GUTTER * (COLUMNS - 1)) / COLUMNS;
  const scale = Math.min(cellWidth / pallet.length_mm, MAX_DECK_HEIGHT / pallet.width_mm);
  const deckHeight = pallet.width_mm * scale;
  const bySku = pallet.units.every((u) => fitLabel(doc, [{ lines: [u.sku] }], u.l * scale, u.w * scale, 7, 5) !== undefined);
  const labelOf = (sku: string): string => (bySku ? sku : (keys.get(sku) ?? '?'));
  const layers = palletLayers(pallet.units);
  const rows: LayersLayout['rows'] = [];
  for (let start = 0; start < layers.length; start += COLUMNS) {
    const row = layers.slice(start, start + COLUMNS);
    const counts = row.map((layer) => `${layer.units.length} units: ${countBy(layer.units, labelOf)}${columnsNote(layer.units, labelOf)}`);
    const countsHeight = Math.max(...counts.map((text) => textHeight(doc, text, cellWidth, COUNTS_STYLE)));
    rows.push({ layers: row, counts, height: CAPTION + deckHeight + 3 + countsHeight + ROW_GAP });
  }
  const intro =
    `Layers, bottom first (${layers.length}). Deck seen from above, its length left to right; ` +
    (bySku ? 'footprints show the SKU.' : 'footprints show the key of the contents table.');
  return { intro, scale, cellWidth, deckWidth: pallet.length_mm * scale, deckHeight, labelOf, rows };
}

function introHeight(flow: PageFlow, layout: LayersLayout): number {
  return textHeight(flow.doc, layout.intro, flow.width, INTRO_STYLE) + 3;
}

/** The height the layer drawings take when they fit on one page. */
export function palletLayersHeight(flow: PageFlow, pallet: PlannedPallet, keys: Map<string, string>): number {
  const layout = layOut(flow, pallet, keys);
  return introHeight(flow, layout) + (layout.rows.length === 0 ? 12 : layout.rows.reduce((sum, r) => sum + r.height, 0));
}

export function drawPalletLayers(
  flow: PageFlow,
  pallet: PlannedPallet,
  keys: Map<string, string>,
  units: LaneUnits,
  skuColour: (sku: string) => string,
): void {
  const doc = flow.doc;
  const layout = layOut(flow, pallet, keys);
  const { cellWidth, deckWidth, deckHeight, scale } = layout;
  flow.ensureRoom(introHeight(flow, layout) + (layout.rows[0]?.height ?? 12));
  flow.paragraph(layout.intro, INTRO_STYLE);
  flow.gap(3);
  if (layout.rows.length === 0) {
    flow.paragraph('No units on this pallet.', { size: 8, color: MUTED });
    return;
  }

  for (const row of layout.rows) {
    flow.ensureRoom(row.height - ROW_GAP);
    const top = flow.y;
    row.layers.forEach((layer, i) => {
      const x0 = flow.left + i * (cellWidth + GUTTER);
      const caption = `Layer ${layer.number}: base ${formatLength(layer.baseZ, units.length)} ${units.length} above deck`;
      drawText(doc, caption, x0, top, cellWidth, { size: 8, bold: true, noWrap: true });
      const y0 = top + CAPTION;
      doc.rect(x0, y0, deckWidth, deckHeight).fill(DECK_FILL);
      for (const { unit, high } of layerColumns(layer.units)) {
        // y = 0 is the deck's lower edge, as in the container's top view.
        const x = x0 + unit.x * scale;
        const y = y0 + (pallet.width_mm - unit.y - unit.w) * scale;
        const w = unit.l * scale;
        const h = unit.w * scale;
        // The SKU's colour, lightened so that the label on it stays readable.
        doc
          .lineWidth(0.5)
          .rect(x, y, w, h)
          .fillAndStroke(mix(skuColour(unit.sku), '#ffffff', 0.45), '#555555');
        // a column says how high it is: "D x2" is two cartons of D, one on the other
        const key = layout.labelOf(unit.sku);
        const label =
          (high > 1 ? fitLabel(doc, [{ lines: [`${key} x${high}`] }], w, h, 7, 3.5) : undefined) ??
          fitLabel(doc, [{ lines: [key] }], w, h, 7, 3.5);
        if (label) drawLabel(doc, label, x, y, w, h);
      }
      doc.lineWidth(1).strokeColor('#6b4f2a').rect(x0, y0, deckWidth, deckHeight).stroke();
      drawText(doc, row.counts[i] ?? '', x0, y0 + deckHeight + 3, cellWidth, COUNTS_STYLE);
    });
    flow.y = top + row.height;
  }
}

/** "SKU-1001 x 12, SKU-2002 x 4" (or by key) for a layer's caption. */
function countBy(units: readonly PalletUnit[], labelOf: (sku: string) => string): string {
  const counts = new Map<string, number>();
  for (const unit of units) counts.set(labelOf(unit.sku), (counts.get(labelOf(unit.sku)) ?? 0) + 1);
  return [...counts].map(([label, count]) => `${label} x ${count}`).join(', ');
}

/** "; D in columns 2 high" when a layer stacks a SKU in columns, so the drawing is read right. */
function columnsNote(units: readonly PalletUnit[], labelOf: (sku: string) => string): string {
  const high = new Map<string, number>();
  for (const { unit, high: h } of layerColumns(units))
    if (h > 1) high.set(labelOf(unit.sku), Math.max(high.get(labelOf(unit.sku)) ?? 0, h));
  return [...high].map(([label, h]) => `; ${label} in columns ${h} high`).join('');
}
