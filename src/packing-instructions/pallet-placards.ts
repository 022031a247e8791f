// One placard per service-built pallet, a page to print and stick on the pallet: its ref large
// enough to read from a forklift, the order, where it goes, what is on it, and a QR code of
// "<service_ref>/<pallet ref>" for a scanner.
import type { OrderSubmitted } from '../orders/order-events.js';
import { formatLength, formatTotalWeight, type LaneUnits } from './lane-units.js';
import type { PlannedPallet } from './order-plan.js';
import { ALERT, drawText, fitToWidth, INK, MUTED, textHeight, textWidth, type PageFlow } from './page-flow.js';
import { groupContents } from './pallet-layers.js';
import type { PalletLocation } from './plan-summary.js';
import { drawQrCode } from './qr-code.js';

const CONTENT_LINES = 10;
const QR_SIZE = 190;

export function palletCode(submitted: OrderSubmitted['data'], pallet: PlannedPallet): string {
  return `${submitted.service_ref}/${pallet.pallet_index}`;
}

export function drawPalletPlacard(
  flow: PageFlow,
  submitted: OrderSubmitted['data'],
  pallet: PlannedPallet,
  location: PalletLocation | undefined,
  units: LaneUnits,
): void {
  const doc = flow.doc;
  if (!flow.atPageTop) flow.newPage();
  flow.startSection(`Placard ${pallet.pallet_index}`);
  flow.paragraph('PALLET', { size: 14, bold: true, color: MUTED });
  // The ref as large as the width allows, up to 160 pt.
  let size = 160;
  while (size > 24 && textWidth(doc, pallet.pallet_index, { size, bold: true }) > flow.width) size -= 8;
  drawText(doc, fitToWidth(doc, pallet.pallet_index, flow.width, { size, bold: true }), flow.left, flow.y, flow.width, {
    size,
    bold: true,
    noWrap: true,
  });
  flow.y += size * 1.15;
  flow.paragraph(`Order ${submitted.service_ref} · ${submitted.order.reference}`, { size: 20, bold: true, maxHeight: 60 });
  flow.paragraph(`${submitted.order.supplier_name} -> ${submitted.order.consignee_name}`, { size: 12, maxHeight: 45 });
  flow.gap(6);
  flow.paragraph(
    location
      ? `Container ${location.containerCode} #${location.containerIndex}, loading #${location.loadingOrder}`
      : 'NOT LOADED in any container: see the summary on page 1.',
    { size: 18, bold: true, color: location ? INK : ALERT },
  );
  flow.paragraph(
    `${pallet.units.length} units · ${formatTotalWeight(pallet.weight_g, units.weight)} · ` +
      `${formatLength(pallet.length_mm, units.length)} x ${formatLength(pallet.width_mm, units.length)} x ${formatLength(pallet.height_mm, units.length)} ${units.length}`,
    { size: 14 },
  );
  flow.gap(10);

  const contents = groupContents(pallet.contents);
  const top = flow.y;
  const textWidthLeft = flow.width - QR_SIZE - 12;
  let y = top;
  drawText(doc, 'Contents', flow.left, y, textWidthLeft, { size: 12, bold: true });
  y += 16;
  for (const line of contents.slice(0, CONTENT_LINES)) {
    const po = [line.purchase_order, line.line_item_number].filter(Boolean).join(' / ');
    const text = `${line.quantity} x ${line.sku}${po ? `  (${po})` : ''}`;
    const style = { size: 12, maxHeight: 30 };
    drawText(doc, text, flow.left, y, textWidthLeft, style);
    y += textHeight(doc, text, textWidthLeft, style) + 2;
  }
  if (contents.length > CONTENT_LINES) {
    drawText(
      doc,
      `+${contents.length - CONTENT_LINES} more lines: see pallet ${pallet.pallet_index} in the pallet pages`,
      flow.left,
      y,
      textWidthLeft,
      { size: 10, color: MUTED },
    );
    y += 14;
  }
  const code = palletCode(submitted, pallet);
  const qrTop = Math.min(top, flow.bottom - QR_SIZE - 14);
  drawQrCode(doc, code, flow.right - QR_SIZE, qrTop, QR_SIZE);
  drawText(doc, code, flow.right - QR_SIZE, qrTop + QR_SIZE + 2, QR_SIZE, { size: 9, align: 'center', maxHeight: 12 });
  flow.y = Math.max(y, qrTop + QR_SIZE + 14);
}
