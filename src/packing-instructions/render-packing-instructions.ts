// The packing-instructions PDF of a planned order: page 1 the order and its summary, then one part
// per container (drawn load plan and loading sequence), one per service-built pallet (contents
// and layers), and the pre-built pallets and loose boxes as submitted.
import PDFDocument from 'pdfkit';
import type { OrderSubmitted } from '../orders/order-events.js';
import { drawContainerSection } from './container-section.js';
import { drawOrderHeader, drawPlanSummary, formatUtc } from './order-header.js';
import type { OrderPlan } from './order-plan.js';
import { drawText, fitToWidth, MARGINS, MUTED, PageFlow, textWidth } from './page-flow.js';
import { drawPalletSection } from './pallet-section.js';
import { drawPalletPlacard } from './pallet-placards.js';
import { planColours } from './placement-colours.js';
import { drawQrCode } from './qr-code.js';
import { locatePallets } from './plan-summary.js';
import { drawLooseBoxesTable, drawPreBuiltsTable } from './submitted-cargo-tables.js';

export interface PackingInstructionsInput {
  submitted: OrderSubmitted['data'];
  plan: OrderPlan;
  /** Printed on the document; now when not given. */
  generatedAt?: Date;
  /** The order's 3D load-plan page (a share link): printed on page 1 as text and a QR code. */
  viewerUrl?: string;
}

export type LaidOutInput = PackingInstructionsInput & { generatedAt: Date };

export async function renderPackingInstructions(input: PackingInstructionsInput): Promise<Buffer> {
  const generatedAt = input.generatedAt ?? new Date();
  const doc = createPackingInstructionsDocument(input.submitted, generatedAt);
  const chunks: Uint8Array[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  writePackingInstructions(doc, { ...input, generatedAt });
  doc.end();
  return finished;
}

export function createPackingInstructionsDocument(submitted: OrderSubmitted['data'], generatedAt: Date): PDFKit.PDFDocument {
  return new PDFDocument({
    size: 'A4',
    margins: MARGINS,
    // Pages stay open until the end so that every footer can say "page 3 of 41".
    bufferPages: true,
    info: {
      Title: `Packing instructions ${submitted.service_ref}`,
      Subject: `Order ${submitted.order.reference}`,
      Author: 'Orders and load planning service',
      CreationDate: generatedAt,
    },
  });
}

/** Lays the document out on `doc`; returns how many pages the layout itself started. */
export function writePackingInstructions(doc: PDFKit.PDFDocument, input: LaidOutInput): { pages: number } {
  const { submitted, plan, generatedAt } = input;
  const units = submitted.lane.units;
  const flow = new PageFlow(doc);

  drawOrderHeader(flow, submitted, generatedAt);
  if (input.viewerUrl) drawViewerLink(flow, input.viewerUrl);
  drawPlanSummary(flow, submitted, plan);

  const colours = planColours(plan);
  plan.containers.forEach((container, i) => {
    drawContainerSection(
      flow,
      container,
      `Container ${i + 1} of ${plan.containers.length}, order ${submitted.service_ref}`,
      units,
      colours,
    );
  });

  if (plan.pallets.length > 0) {
    flow.newPage();
    flow.startSection('Service-built pallets');
    flow.paragraph(`Service-built pallets (${plan.pallets.length})`, { size: 18, bold: true });
    flow.paragraph('Build each pallet layer by layer from the deck up, then load it where its container page says.', {
      size: 8.5,
      color: MUTED,
    });
    flow.gap(8);
    const located = locatePallets(plan);
    for (const pallet of plan.pallets) drawPalletSection(flow, pallet, located.get(pallet.pallet_index), units, colours.sku);
  }

  const { pre_builts: preBuilts, loose_boxes: looseBoxes } = submitted.order;
  if (preBuilts.length > 0 || looseBoxes.length > 0) {
    flow.newPage();
    flow.startSection('Pre-built pallets and loose boxes');
    flow.paragraph('Pre-built pallets and loose boxes', { size: 18, bold: true });
    flow.gap(8);
    const notLoaded = (kind: string): Map<string, number> => {
      const byName = new Map<string, number>();
      for (const u of plan.unplaced) if (u.kind === kind) byName.set(u.ref, (byName.get(u.ref) ?? 0) + u.count);
      return byName;
    };
    if (preBuilts.length > 0) drawPreBuiltsTable(flow, preBuilts, units, notLoaded('pre_built'));
    if (looseBoxes.length > 0) drawLooseBoxesTable(flow, looseBoxes, units, notLoaded('loose_box'));
  }

  if (plan.pallets.length > 0) {
    // No cover page: each placard says what it is, and a cover would only be one more sheet to sort out.
    const located = locatePallets(plan);
    for (const pallet of plan.pallets) drawPalletPlacard(flow, submitted, pallet, located.get(pallet.pallet_index), units);
  }

  drawFooters(flow, submitted, generatedAt);
  return { pages: flow.pagesStarted };
}

const VIEWER_QR = 72;

function drawViewerLink(flow: PageFlow, url: string): void {
  flow.ensureRoom(VIEWER_QR + 6);
  const top = flow.y;
  const textWidthLeft = flow.width - VIEWER_QR - 10;
  drawText(flow.doc, '3D load plan in the browser (no login needed, the link expires):', flow.left, top + 8, textWidthLeft, {
    size: 10,
    bold: true,
  });
  drawText(flow.doc, url, flow.left, top + 24, textWidthLeft, { size: 8.5, color: '#1a4f8b', maxHeight: VIEWER_QR - 24 });
  drawQrCode(flow.doc, url, flow.right - VIEWER_QR, top, VIEWER_QR);
  flow.y = top + VIEWER_QR + 6;
}

function drawFooters(flow: PageFlow, submitted: OrderSubmitted['data'], generatedAt: Date): void {
  const doc = flow.doc;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGINS.bottom + 16;
    doc
      .lineWidth(0.5)
      .strokeColor('#999999')
      .moveTo(flow.left, y - 5)
      .lineTo(flow.right, y - 5)
      .stroke();
    const style = { size: 7.5, color: MUTED, noWrap: true };
    const right = `Generated ${formatUtc(generatedAt)} · Page ${i - range.start + 1} of ${range.count}`;
    const rightWidth = textWidth(doc, right, style);
    const left = `${submitted.service_ref} · ${submitted.order.reference} · ${flow.sections[i - range.start] ?? ''}`;
    drawText(doc, fitToWidth(doc, left, flow.width - rightWidth - 12, style), flow.left, y, flow.width, style);
    drawText(doc, right, flow.right - rightWidth, y, rightWidth + 1, style);
  }
}
