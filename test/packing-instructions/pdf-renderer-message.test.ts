// An e-mail's message composed in the renderer's thread: the PDF that thread draws, attached, with the
// headers and envelope the sender gave; the same PDF render() gives a download.
import t from 'tap';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { PdfRenderer } from '../../src/packing-instructions/pdf-renderer.js';
import { addresses, attachment, parseMail } from '../notifications/support/mime.js';
import { readPdfText } from './inspect-pdf.js';
import { plannedOrder, samplePlan, submittedOrder } from './sample-orders.js';

const STREAM = 'order:acme:PO-2026-0042';
const events: RecordedEvent[] = [{ type: 'OrderSubmitted', data: submittedOrder() }, plannedOrder(samplePlan())].map((e, i) => ({
  ...e,
  id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
  stream: STREAM,
  revision: BigInt(i + 1),
  position: BigInt(101 + i),
  recordedAt: new Date('2026-11-20T09:15:03Z'),
}));

t.test('renderMessage: the PDF attached to the message composed in the render thread, with its envelope', async (t) => {
  const renderer = new PdfRenderer(1);
  t.teardown(() => renderer.close());
  const fields = {
    from: 'Orders <orders@acme.example>',
    to: ['logistics@acme.example'],
    cc: ['audit@globex.example'],
    subject: 'Packing instructions ready: SO-000042',
    text: 'Line one.\nLine two.',
    messageId: '<test-42@acme.example>',
    filename: 'packing-instructions-SO-000042.pdf',
  };
  const mail = await renderer.renderMessage(events, {}, fields);
  t.strictSame(mail.envelope, { from: 'orders@acme.example', to: ['logistics@acme.example', 'audit@globex.example'] });
  const raw = Buffer.from(mail.raw).toString('latin1');
  t.ok(raw.includes('\r\n') && !/[^\r]\n/.test(raw), 'CRLF line ends throughout');
  const parsed = parseMail(raw);
  t.strictSame(addresses(parsed.headers.get('to')), ['logistics@acme.example']);
  t.strictSame(addresses(parsed.headers.get('cc')), ['audit@globex.example']);
  t.equal(parsed.headers.get('subject'), fields.subject);
  t.equal(parsed.headers.get('message-id'), fields.messageId);
  const pdf = attachment(parsed);
  t.equal(pdf?.filename, fields.filename);
  // the same document as a download of the stream: its pages and their text (the time it was drawn aside)
  const [attached, download] = await Promise.all([readPdfText(pdf!.content), renderer.render(events).then((d) => readPdfText(d))]);
  t.ok(attached.total > 1, `${attached.total} pages`);
  t.equal(attached.total, download.total);
  t.match(attached.text, /SO-000042/);
  const undated = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?( UTC)?/g, '');
  t.equal(undated(attached.text), undated(download.text), "the download's text");
});
