// Lines of text laid out here rather than by pdfkit: a line mixes fonts (a Latin name with a
// Japanese reference), pdfkit wraps one font at a time, and its wrapper stalls on one very long
// word. Here a word wider than the line is cut between characters, and the work per text is
// bounded: at most MAX_CHARS characters and, when asked, maxLines lines are ever looked at.
import { fontRuns, useFont, type FontRun } from './unicode-fonts.js';

/** Line pitch as a multiple of the font size. */
export const LINE_HEIGHT = 1.2;
/** Baseline below the line's top, as a multiple of the font size. */
export const BASELINE = 0.9;
/** No text is longer on paper; the rest is marked as cut (a cell or note can hold megabytes). */
export const MAX_CHARS = 5_000;
const ELLIPSIS = '…';

export interface FontStyle {
  size: number;
  bold: boolean;
}

export interface PlacedRun extends FontRun {
  width: number;
}

export interface Line {
  runs: PlacedRun[];
  width: number;
}

const widths = new Map<string, number>();
// The widths cache's bound, in characters of its keys: a run is a word, but a word may be 5,000
// characters long, so a count of entries alone did not bound it.
const WIDTHS_MAX_CHARS = 4 * 1024 * 1024;
let widthsChars = 0;

/** Width of one run, measured by pdfkit; cached, since tables repeat the same words. */
function runWidth(doc: PDFKit.PDFDocument, run: FontRun, style: FontStyle): number {
  const key = `${run.family}${style.bold ? 'b' : 'r'}${style.size}|${run.text}`;
  let width = widths.get(key);
  if (width === undefined) {
    width = useFont(doc, run.family, style.bold).fontSize(style.size).widthOfString(run.text);
    if (widths.size >= 100_000 || widthsChars + key.length > WIDTHS_MAX_CHARS) {
      widths.clear();
      widthsChars = 0;
    }
    widths.set(key, width);
    widthsChars += key.length;
  }
  return width;
}

function placeRuns(doc: PDFKit.PDFDocument, text: string, style: FontStyle): Line {
  const runs = fontRuns(text).map((run) => ({ ...run, width: runWidth(doc, run, style) }));
  return { runs, width: runs.reduce((sum, r) => sum + r.width, 0) };
}

const PLAIN = /^[\x20-\x7e]*$/;

export function measureText(doc: PDFKit.PDFDocument, text: string, style: FontStyle): number {
  // Most text is ASCII in the first font: measured without building runs.
  if (text.length <= MAX_CHARS && PLAIN.test(text)) return runWidth(doc, { text, family: 0, rightToLeft: false }, style);
  return placeRuns(doc, capped(text), style).width;
}

/** At most MAX_CHARS characters, never splitting a surrogate pair. */
function capped(text: string): string {
  if (text.length <= MAX_CHARS) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/** A single line, cut with an ellipsis when wider than `width`. */
export function singleLine(doc: PDFKit.PDFDocument, text: string, width: number, style: FontStyle): Line {
  const flat = capped(text).replace(/\s+/g, ' ');
  const line = placeRuns(doc, flat, style);
  return line.width <= width ? line : placeRuns(doc, cutToWidth(doc, flat, width, style), style);
}

function cutToWidth(doc: PDFKit.PDFDocument, text: string, width: number, style: FontStyle): string {
  const chars = Array.from(text);
  const room = width - measureText(doc, ELLIPSIS, style);
  let used = 0;
  let n = 0;
  for (; n < chars.length; n++) {
    const w = measureText(doc, chars[n] ?? '', style);
    if (used + w > room) break;
    used += w;
  }
  return `${chars.slice(0, n).join('').trimEnd()}${ELLIPSIS}`;
}

/**
 * Wraps text into lines no wider than `width`: at spaces, and inside a word only when the word
 * alone is wider than the line. With maxLines, the last line kept ends in an ellipsis when text
 * is left over.
 */
export function wrapText(doc: PDFKit.PDFDocument, text: string, width: number, style: FontStyle, maxLines = Infinity): Line[] {
  const lines: string[] = [];
  const limit = Math.max(1, Math.floor(maxLines));
  let truncated = text.length > MAX_CHARS;
  const space = measureText(doc, ' ', style);
  const paragraphs = capped(text).split('\n');
  outer: for (const [index, paragraph] of paragraphs.entries()) {
    let line = '';
    let lineWidth = 0;
    const push = (): boolean => {
      lines.push(line);
      line = '';
      lineWidth = 0;
      return lines.length < limit;
    };
    for (const word of paragraph.split(/[ \t\r\f\v]+/)) {
      if (word === '') continue;
      const wordWidth = measureText(doc, word, style);
      const gap = line === '' ? 0 : space;
      if (lineWidth + gap + wordWidth <= width) {
        line += (line === '' ? '' : ' ') + word;
        lineWidth += gap + wordWidth;
        continue;
      }
      if (line !== '' && !push()) {
        truncated = true;
        break outer;
      }
      if (wordWidth <= width) {
        line = word;
        lineWidth = wordWidth;
        continue;
      }
      // A word wider than the line: as many characters as fit, line after line.
      for (const ch of word) {
        const w = measureText(doc, ch, style);
        if (lineWidth + w > width && line !== '') {
          if (!push()) {
            truncated = true;
            break outer;
          }
        }
        line += ch;
        lineWidth += w;
      }
    }
    if (!push()) {
      truncated ||= index < paragraphs.length - 1;
      break;
    }
  }
  if (truncated && lines.length > 0) {
    const last = lines.length - 1;
    lines[last] = cutToWidth(doc, lines[last] ?? '', width, style);
  }
  return lines.map((l) => placeRuns(doc, l, style));
}

/**
 * Draws one laid-out line with its top at y. Right-to-left runs are drawn word by word from the
 * right, since pdfkit lays each word out on its own; fontkit orders each word's glyphs.
 */
export function drawLine(doc: PDFKit.PDFDocument, line: Line, x: number, y: number, style: FontStyle & { color: string }): void {
  let left = x;
  const baseline = -BASELINE * style.size;
  for (const run of line.runs) {
    useFont(doc, run.family, style.bold).fontSize(style.size).fillColor(style.color);
    if (!run.rightToLeft) {
      doc.text(run.text, left, y, { lineBreak: false, baseline });
    } else {
      // Spaces and punctuation after the phrase belong to the line around it: they follow it on the right.
      const tail = /[\p{Z}\p{P}\p{S}]*$/u.exec(run.text)?.[0] ?? '';
      let wordLeft = left;
      for (const word of run.text
        .slice(0, run.text.length - tail.length)
        .split(/( +)/)
        .reverse()) {
        if (word === '') continue;
        doc.text(word, wordLeft, y, { lineBreak: false, baseline });
        wordLeft += doc.widthOfString(word);
      }
      if (tail.trim() !== '') doc.text(tail, wordLeft, y, { lineBreak: false, baseline });
    }
    left += run.width;
  }
}
