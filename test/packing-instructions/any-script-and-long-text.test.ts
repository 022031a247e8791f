// Names, references and notes in any script print as sent, checked with poppler's pdftotext, the
// tool people and mail scanners read PDFs with; and a note of one enormous word neither stalls
// the renderer nor runs off the page.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { renderPackingInstructions } from '../../src/packing-instructions/render-packing-instructions.js';
import { outOfBounds, readPdfText, renderInspected } from './inspect-pdf.js';
import { GENERATED_AT, samplePlan, submittedOrder } from './sample-orders.js';

const run = promisify(execFile);

async function pdftotext(pdf: Buffer): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'pdftotext-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', join(dir, 'in.pdf'), '-'], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Bidi marks that pdftotext puts around right-to-left text.
const plain = (text: string): string => text.replace(/[\u202a-\u202e\u200e\u200f]/g, '');

t.test('references, names and notes in any script print as sent', async (t) => {
  const names = {
    reference: 'PO-日本-1',
    supplier_name: 'ООО Ромашка',
    consignee_name: 'شركة الواحة للتجارة',
    customer_notes: 'Łódź · 東莞贸易有限公司 · 서울 무역 · ภาษาไทย · नमस्ते · Ελλάδα · עברית',
  };
  const pdf = await renderPackingInstructions({ submitted: submittedOrder(names), plan: samplePlan(), generatedAt: GENERATED_AT });
  const text = await pdftotext(pdf);
  if (text === undefined) {
    t.pass('pdftotext reads every script', { skip: 'pdftotext (poppler-utils) is not installed: .ci/run installs it' });
  } else {
    for (const value of Object.values(names)) t.ok(plain(text).includes(value), `pdftotext finds ${value}`);
    t.notMatch(text, /PO-\?\?-1/, 'no placeholder for CJK');
  }
  const parsed = await readPdfText(pdf, { partial: [1] });
  t.match(parsed.pages[0] ?? '', 'PO-日本-1', 'pdf.js reads it too');
});

t.test('a customer note of one 900,000-character word is cut, and the render ends', async (t) => {
  const word = 'W'.repeat(900_000);
  const render = await renderInspected({
    submitted: submittedOrder({ customer_notes: `Ramp 4 ${word} end` }),
    plan: samplePlan(),
    generatedAt: GENERATED_AT,
  });
  t.equal(render.pagesInDocument, render.pagesStarted, 'no page was added by pdfkit');
  t.same(outOfBounds(render), [], 'the note wraps inside the content area');
  const noteLines = render.drawn.filter((d) => d.page === 0 && /^W+…?$/.test(d.text));
  t.ok(noteLines.length > 2 && noteLines.length < 20, `the word wraps over a bounded number of lines (${noteLines.length})`);
  t.match(noteLines[noteLines.length - 1]?.text ?? '', /…$/, 'the cut is marked');
  const total = noteLines.reduce((sum, d) => sum + d.text.length, 0);
  t.ok(total < 5_000, `a few thousand characters printed at most (${total})`);
  const { pages } = await readPdfText(render.pdf, { partial: [1] });
  t.match(pages[0] ?? '', 'Ramp 4', 'the start of the note is there');
  t.match(pages[0] ?? '', 'Summary', 'and the summary still follows on page 1');
});
