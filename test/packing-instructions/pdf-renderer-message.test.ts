// An e-mail's message composed in the renderer's thread: the PDF that thread draws, attached, with the
// headers and envelope the sender gave; the same PDF render() gives a download.
import t from 'tap';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { PdfRenderer } from '../../src/packing-instructions/pdf-renderer.js';
import { addresses, attachment, parseMail } from '../notifications/support/mime.js';
import { samplePlan, submittedOrder } from './sample-orders.js';

const STREAM = 'order:acme:PO-2026-0042';
const events: RecordedEvent[] = [
  { type: 'OrderSubmitted', data: submittedOrder() },
  {
    type: 'OrderPlanned',
    data: {
      order_id: 42,
      service_ref: 'SO-000042',
      reference: 'PO-2026-0042',
      company_group: 'acme',
      plan: samplePlan(),
      planned_at: '2026-11-20T09:16:00.000000',
    },
  },
].map((e, i) => ({
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
  const download = await renderer.render(events);
  t.ok(pdf?.content.subarray(0, 5).equals(Buffer.from('%PDF-')), 'the attachment is a PDF');
  t.equal(pdf?.content.length, download.length, "as long as the download's PDF of the same stream");
});
