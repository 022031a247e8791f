// The fonts the document embeds are the files fonts/fonts.json names, as they came in their
// packages, in the weights the document draws with, and in the fallback order the renderer uses.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import t from 'tap';
import { fontName, fontRuns } from '../../src/packing-instructions/unicode-fonts.js';

const FONTS = new URL('../../../fonts/', import.meta.url);
interface Family {
  file: string;
  licence: string;
  weights: Record<string, { sha256: string }>;
}
const manifest = JSON.parse(readFileSync(new URL('fonts.json', FONTS), 'utf8')) as { families: Family[] };

t.test('each family in fallback order, weights 400 and 700, byte for byte as packaged', async (t) => {
  t.equal(manifest.families.length, 8, 'Latin, Arabic, Hebrew, Devanagari, Thai, JP, SC, KR');
  manifest.families.forEach((family, index) => {
    t.equal(fontName(index, false), family.file, `family ${index} is ${family.file}`);
    t.same(Object.keys(family.weights), ['400Regular', '700Bold']);
    t.ok(readFileSync(new URL(family.licence, FONTS), 'utf8').includes('SIL Open Font License'), `${family.file}: licence beside it`);
    for (const [weight, { sha256 }] of Object.entries(family.weights)) {
      const ttf = brotliDecompressSync(readFileSync(new URL(`${family.file}_${weight}.ttf.br`, FONTS)));
      t.equal(createHash('sha256').update(ttf).digest('hex'), sha256, `${family.file}_${weight}: the packaged bytes`);
      const font = fontkit.create(ttf) as fontkit.Font & { 'OS/2': { usWeightClass: number } };
      t.equal(font['OS/2'].usWeightClass, Number.parseInt(weight, 10), `${family.file}_${weight}: its weight class`);
    }
  });
});

t.test('every script finds its family', async (t) => {
  const familyOf = (text: string): string[] => {
    const runs = fontRuns(text);
    t.equal(runs.map((run) => run.text).join(''), text, `${text}: no placeholder`);
    return runs.map((run) => fontName(run.family, false));
  };
  t.same(familyOf('Łódź Ελλάδα Ромашка'), ['NotoSans']);
  t.same(familyOf('شركة'), ['NotoSansArabic']);
  t.same(familyOf('שלום'), ['NotoSansHebrew']);
  t.same(familyOf('नमस्ते'), ['NotoSans'], 'Noto Sans has Devanagari itself');
  t.same(familyOf('\ua8f2'), ['NotoSansDevanagari'], 'a sign only the Devanagari face has (U+A8F2)');
  t.same(familyOf('ภาษาไทย'), ['NotoSansThai']);
  t.same(familyOf('日本'), ['NotoSansJP']);
  t.same(familyOf('贸'), ['NotoSansSC'], 'a simplified character the JP face lacks');
  t.same(familyOf('서울'), ['NotoSansKR']);
});
