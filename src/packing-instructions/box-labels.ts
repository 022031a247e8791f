// Labels printed inside the rectangles of the drawings: the largest size that fits, down to a size
// still readable on paper; below that the box stays unlabelled and the tables carry the detail.
import { drawText, INK, textWidth } from './page-flow.js';

export interface FittedLabel {
  lines: string[];
  size: number;
}

const LINE_HEIGHT = 1.15;

export interface LabelCandidate {
  lines: string[];
  /** Smallest size worth printing this candidate at; below it the next candidate is tried. */
  minSize?: number;
}

/**
 * The first candidate that fits a w x h box, at the largest size from maxSize down to its
 * minSize (or `minSize`); undefined when none fits.
 */
export function fitLabel(
  doc: PDFKit.PDFDocument,
  candidates: LabelCandidate[],
  w: number,
  h: number,
  maxSize = 8,
  minSize = 4,
): FittedLabel | undefined {
  for (const { lines, minSize: floor = minSize } of candidates) {
    // Widths grow in proportion to the size: one measurement per line gives the largest size that fits.
    const widest = Math.max(...lines.map((line) => textWidth(doc, line, { size: 1, bold: true })));
    const byWidth = widest > 0 ? (w - 2) / widest : maxSize;
    const byHeight = (h - 1) / (lines.length * LINE_HEIGHT);
    const size = Math.floor(Math.min(maxSize, byWidth, byHeight) * 2) / 2;
    if (size >= floor) return { lines, size };
  }
  return undefined;
}

/** Draws the label centred in the box. */
export function drawLabel(doc: PDFKit.PDFDocument, label: FittedLabel, x: number, y: number, w: number, h: number): void {
  const blockHeight = label.lines.length * label.size * LINE_HEIGHT;
  label.lines.forEach((line, i) => {
    const lineWidth = textWidth(doc, line, { size: label.size, bold: true });
    const top = y + (h - blockHeight) / 2 + i * label.size * LINE_HEIGHT;
    drawText(doc, line, x + (w - lineWidth) / 2, top, w, { size: label.size, bold: true, color: INK, noWrap: true });
  });
}

/** Loading orders as runs: [3, 4, 5, 9] -> "3-5,9". */
export function compressRuns(numbers: readonly number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j += 1;
    const from = sorted[i] ?? 0;
    const to = sorted[j] ?? 0;
    parts.push(j - i >= 2 ? `${from}-${to}` : j > i ? `${from},${to}` : `${from}`);
    i = j + 1;
  }
  return parts.join(',');
}
