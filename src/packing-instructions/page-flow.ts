// Where the next thing goes on the page. Every block asks for its height before it draws, and the
// flow starts a new page itself when the block would not fit: pdfkit's own page breaking would
// split a table row or a drawing in half, so nothing here lets pdfkit break a page.
import { drawLine, LINE_HEIGHT, measureText, singleLine, wrapText, type FontStyle, type Line } from './text-layout.js';

export const INK = '#111111';
export const MUTED = '#555555';
export const ALERT = '#b00020';

/** Margins leave room at the foot of every page for the running footer. */
export const MARGINS = { top: 36, bottom: 44, left: 36, right: 36 };

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'center' | 'right';
  /** Single line: the text is drawn as is, without wrapping. */
  noWrap?: boolean;
  /** Wrapped text stops (with an ellipsis) at this height instead of running on. */
  maxHeight?: number;
}

/**
 * Draws text with its top at y. All text of the document goes through here, so that every script
 * prints in an embedded font and no text ever triggers a pdfkit page break.
 */
export function drawText(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, style: TextStyle = {}): void {
  const font = fontStyle(style);
  const lines = style.noWrap ? [singleLine(doc, text, Infinity, font)] : laidOut(doc, text, width, style);
  const color = style.color ?? INK;
  lines.forEach((line, i) => {
    const free = style.noWrap ? 0 : width - line.width;
    const left = style.align === 'right' ? x + free : style.align === 'center' ? x + free / 2 : x;
    drawLine(doc, line, left, y + i * font.size * LINE_HEIGHT, { ...font, color });
  });
}

export function textHeight(doc: PDFKit.PDFDocument, text: string, width: number, style: TextStyle = {}): number {
  const lines = laidOut(doc, text, width, style).length;
  return Math.max(lines, 1) * fontStyle(style).size * LINE_HEIGHT;
}

export function textWidth(doc: PDFKit.PDFDocument, text: string, style: TextStyle = {}): number {
  return measureText(doc, text, fontStyle(style));
}

/** Cuts single-line text to `width`, marking the cut with an ellipsis. */
export function fitToWidth(doc: PDFKit.PDFDocument, text: string, width: number, style: TextStyle = {}): string {
  return singleLine(doc, text, width, fontStyle(style))
    .runs.map((r) => r.text)
    .join('');
}

function fontStyle(style: TextStyle): FontStyle {
  return { size: style.size ?? 9, bold: style.bold ?? false };
}

// Heights are asked for just before the same text is drawn: the last layout is kept for that.
let lastLayout: { doc: PDFKit.PDFDocument; key: string; lines: Line[] } | undefined;

function laidOut(doc: PDFKit.PDFDocument, text: string, width: number, style: TextStyle): Line[] {
  const font = fontStyle(style);
  const maxLines = style.maxHeight === undefined ? Infinity : Math.max(1, Math.floor(style.maxHeight / (font.size * LINE_HEIGHT) + 0.01));
  const key = `${width}|${font.size}|${font.bold}|${maxLines}|${text}`;
  if (lastLayout?.doc === doc && lastLayout.key === key) return lastLayout.lines;
  const lines = wrapText(doc, text, width, font, maxLines);
  lastLayout = { doc, key, lines };
  return lines;
}

export class PageFlow {
  y: number;
  /** Pages this layout started, the first included; pdfkit adding one behind our back would differ. */
  pagesStarted = 1;
  /** The running footer's section name, per page (0-based). */
  readonly sections: string[] = [];
  private section = '';

  constructor(readonly doc: PDFKit.PDFDocument) {
    this.y = this.top;
    this.sections[0] = '';
  }

  get top(): number {
    return this.doc.page.margins.top;
  }
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }
  get left(): number {
    return this.doc.page.margins.left;
  }
  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }
  get right(): number {
    return this.left + this.width;
  }
  /** Height still free on this page. */
  get room(): number {
    return this.bottom - this.y;
  }
  /** Height of the content area of an empty page. */
  get pageRoom(): number {
    return this.bottom - this.top;
  }
  get atPageTop(): boolean {
    return this.y <= this.top + 0.5;
  }

  /** Names the part of the document that the following pages (and this one, if still empty) belong to. */
  startSection(name: string): void {
    this.section = name;
    if (this.atPageTop) this.sections[this.pagesStarted - 1] = name;
  }

  newPage(): void {
    this.doc.addPage();
    this.pagesStarted += 1;
    this.sections[this.pagesStarted - 1] = this.section;
    this.y = this.top;
  }

  /** Starts a new page unless `height` still fits on this one; true when it started one. */
  ensureRoom(height: number): boolean {
    if (this.y + height <= this.bottom || this.atPageTop) return false;
    this.newPage();
    return true;
  }

  gap(height: number): void {
    this.y = Math.min(this.y + height, this.bottom);
  }

  /** A wrapped paragraph across the content width (or `width` from `x`). */
  paragraph(text: string, style: TextStyle = {}, x = this.left, width = this.right - x): void {
    const height = textHeight(this.doc, text, width, style);
    this.ensureRoom(height);
    drawText(this.doc, text, x, this.y, width, style);
    this.y += height;
  }

  heading(text: string, size = 14): void {
    // A heading never ends a page: keep room for a few lines of what it introduces.
    this.ensureRoom(textHeight(this.doc, text, this.width, { size, bold: true }) + 60);
    this.paragraph(text, { size, bold: true });
    this.gap(4);
  }
}
