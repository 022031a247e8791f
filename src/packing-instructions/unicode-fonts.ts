// Names, references and notes arrive in any script, and the paper must show them as sent. No one
// font covers every script, so the document embeds a family of Noto fonts and prints each character
// in the first of them that has it. pdfkit embeds only the glyphs used.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import * as fontkit from 'fontkit';

// The two weights the document uses of each family, as scripts/fonts/make-fonts.mjs wrote them from
// their packages (fonts/fonts.json names each one and its SHA-256).
const FONTS_DIR = new URL('../../../fonts/', import.meta.url);

/** Fallback order: the Latin/Greek/Cyrillic face first, so most text never leaves it. */
const FAMILIES = [
  'NotoSans',
  'NotoSansArabic',
  'NotoSansHebrew',
  'NotoSansDevanagari',
  'NotoSansThai',
  'NotoSansJP',
  'NotoSansSC',
  'NotoSansKR',
] as const;

/** Scripts written right to left: their words are laid out in reverse order on the line. */
const RIGHT_TO_LEFT = new Set([1, 2]);

// Opened when first needed, once per process (each PDF worker thread has its own): a document in
// Latin script never reads the CJK files, and fontkit keeps what it parsed for the next document.
const opened = new Map<string, fontkit.Font>();

function font(family: number, bold: boolean): fontkit.Font {
  const file = FAMILIES[family] ?? FAMILIES[0];
  const weight = bold ? '700Bold' : '400Regular';
  const key = `${file}_${weight}`;
  let found = opened.get(key);
  if (!found) {
    found = fontkit.create(brotliDecompressSync(readFileSync(new URL(`${key}.ttf.br`, FONTS_DIR))));
    opened.set(key, found);
  }
  return found;
}

function has(family: number, codePoint: number): boolean {
  return font(family, false).hasGlyphForCodePoint(codePoint);
}

export function fontName(family: number, bold: boolean): string {
  return `${FAMILIES[family] ?? 'NotoSans'}${bold ? '-Bold' : ''}`;
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/**
 * Words laid out (fontkit's shaping: glyphs and positions) kept across documents: pdfkit keeps them
 * per document only, so every PDF shaped its words again, a large share of its CPU (docs/benchmarks.md).
 * A word's layout depends on the font and the word alone, and pdfkit reads a cached layout without
 * changing it. One bound for all the faces together; the oldest words go first (docs/configuration.md).
 */
export const LAYOUT_CACHE_WORDS = 16_384;
const laidOut = new Map<string, unknown>();
const faceCaches = new Map<fontkit.Font, Record<string, unknown>>();

function sharedLayouts(font: fontkit.Font): Record<string, unknown> {
  let cache = faceCaches.get(font);
  if (!cache) {
    const face = `${faceCaches.size}\u0000`;
    // pdfkit reads and writes its cache as an object's keys
    cache = new Proxy(Object.create(null) as Record<string, unknown>, {
      get: (_, word) => (typeof word === 'string' ? laidOut.get(face + word) : undefined),
      set: (_, word, run) => {
        if (typeof word !== 'string') return false;
        const key = face + word;
        if (laidOut.size >= LAYOUT_CACHE_WORDS && !laidOut.has(key)) laidOut.delete(laidOut.keys().next().value as string);
        laidOut.set(key, run);
        return true;
      },
    });
    faceCaches.set(font, cache);
  }
  return cache;
}

let sharing = true;

/** Whether documents lay their words out from the shared cache (false: pdfkit's own, per document; the tests' reference). */
export function shareLayouts(on: boolean): void {
  sharing = on;
}

/** Words kept across documents, all faces together. */
export function sharedLayoutWords(): number {
  return laidOut.size;
}

/** Makes the font current on the document, registering it there the first time. */
export function useFont(doc: PDFKit.PDFDocument, family: number, bold: boolean): PDFKit.PDFDocument {
  const name = fontName(family, bold);
  let names = registered.get(doc);
  if (!names) registered.set(doc, (names = new Set()));
  if (!names.has(name)) {
    // pdfkit 0.20 takes an opened fontkit font as well as a file or buffer.
    const opened = font(family, bold);
    doc.registerFont(name, opened as unknown as string);
    names.add(name);
    doc.font(name);
    // the font pdfkit made for this document lays its words out from the shared cache
    const embedded = (doc as unknown as { _font?: { layoutCache?: unknown } })._font;
    if (sharing && embedded?.layoutCache) embedded.layoutCache = sharedLayouts(opened);
    return doc;
  }
  return doc.font(name);
}

export interface FontRun {
  text: string;
  family: number;
  rightToLeft: boolean;
}

// Han, kana and hangul: a Chinese name stays in one CJK font rather than alternating between them.
const CJK_START = 0x2e80;
const NEUTRAL = /[\p{Z}\p{P}\p{S}\p{N}]/u;
// Printable ASCII: the first font has all of it.
const PLAIN = /^[\x20-\x7e]*$/;
const CONTROL = /[\p{Cc}\p{Cs}]/u;

/**
 * Splits text into runs of one font each. Spaces, digits and punctuation stay in the run they
 * follow when its font has them, so an Arabic phrase stays one run, and so do CJK characters;
 * a character no font has
 * prints as "?", an honest placeholder rather than an empty box.
 */
export function fontRuns(text: string): FontRun[] {
  if (PLAIN.test(text)) return text.length === 0 ? [] : [{ text, family: 0, rightToLeft: false }];
  const runs: FontRun[] = [];
  let current: FontRun | undefined;
  for (let ch of text) {
    if (ch === '\t') ch = ' ';
    else if (CONTROL.test(ch)) ch = '?';
    const cp = ch.codePointAt(0) ?? 63;
    let family: number;
    const sticks = cp >= CJK_START || NEUTRAL.test(ch);
    if (current && sticks && has(current.family, cp)) family = current.family;
    else {
      family = FAMILIES.findIndex((_, i) => has(i, cp));
      if (family < 0) {
        ch = '?';
        family = current?.family ?? 0;
      }
    }
    if (current && current.family === family) current.text += ch;
    else {
      current = { text: ch, family, rightToLeft: RIGHT_TO_LEFT.has(family) };
      runs.push(current);
    }
  }
  return runs;
}

/**
 * Opens the first font and lets fontkit parse its layout tables (about a second of CPU), so the
 * first document a worker renders does not pay for it.
 */
export function prepareFonts(): void {
  for (const bold of [false, true]) font(0, bold).layout('Packing instructions AP1 0123456789 ÄÖÜ');
}
