// The document uses the PDF standard fonts (no font files to ship), which only encode WinAnsi.
// pdfkit turns anything else into unrelated glyphs, so a supplier named "Łódź Trading" would print
// as garbage. We strip accents where that leaves a WinAnsi letter and show "?" otherwise, so the
// worker sees an honest placeholder rather than a wrong name.

const WINANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

// Letters NFD cannot split into base + accent.
const LOOKALIKES: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h' };

function encodable(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WINANSI_EXTRAS.has(ch);
}

export function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\n') out += ch;
    else if (ch === '\t') out += ' ';
    else if (encodable(ch)) out += ch;
    else {
      const base = LOOKALIKES[ch] ?? ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base.length > 0 && [...base].every(encodable) ? base : '?';
    }
  }
  return out;
}
