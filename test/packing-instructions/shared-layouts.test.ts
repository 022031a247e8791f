// Words laid out once per font are kept across documents (unicode-fonts.ts): a document drawn from
// that cache, cold or warm from other documents, is byte for byte the one pdfkit draws with its own.
import t from 'tap';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { renderFromOrderStream } from '../../src/packing-instructions/render-from-order-stream.js';
import { shareLayouts, sharedLayoutWords } from '../../src/packing-instructions/unicode-fonts.js';
import { largeOrder, plannedOrder, samplePlan, submittedOrder } from './sample-orders.js';

const stream = (submitted: ReturnType<typeof submittedOrder>, plan: ReturnType<typeof samplePlan>): RecordedEvent[] =>
  [{ type: 'OrderSubmitted', data: submitted }, plannedOrder(plan)].map((e, i) => ({
    ...e,
    id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    stream: 'order:acme:PO-2026-0042',
    revision: BigInt(i + 1),
    position: BigInt(101 + i),
    recordedAt: new Date('2026-11-20T09:15:03Z'),
  }));

const at = { generatedAt: new Date('2026-11-20T10:00:00Z') };
// the document's creation date is the clock's, not generatedAt
const undated = (pdf: Buffer) => pdf.toString('latin1').replace(/\/(CreationDate|ModDate) \([^)]*\)/g, '');

t.test('a document drawn from the shared layouts is the one pdfkit draws with its own', async (t) => {
  const mixed = stream(submittedOrder({ reference: 'Ünïcödé 北京 شحنة עברית हिन्दी ไทย 한국어' }), samplePlan());
  const large = largeOrder();
  shareLayouts(false);
  const own = await renderFromOrderStream(mixed, at);
  shareLayouts(true);
  t.equal(sharedLayoutWords(), 0, 'nothing laid out in the cache before the first document that uses it');
  const cold = await renderFromOrderStream(mixed, at);
  t.ok(undated(cold) === undated(own), "cold: pdfkit's own document");
  const afterOne = sharedLayoutWords();
  t.ok(afterOne > 50, `${afterOne} words kept from the first document`);
  await renderFromOrderStream(stream(large.submitted, large.plan), at);
  t.ok(sharedLayoutWords() > afterOne, 'more from another order');
  const warm = await renderFromOrderStream(mixed, at);
  t.ok(undated(warm) === undated(own), "warm from other documents: pdfkit's own document (the dates in its info aside)");
});
