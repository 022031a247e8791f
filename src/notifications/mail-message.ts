// The packing-instructions e-mail as it goes over the wire: the RFC 822 message with the PDF attached,
// and the envelope (sender, every recipient) SMTP sends it with. The service composes it in the
// renderer's thread, beside the PDF (pdf-renderer.ts renderMessage): base64-encoding the PDF and
// building the message are then no work of the main thread, which serves HTTP and writes the log; it
// only writes or sends the bytes (docs/history/2026-12.md).
import MailComposer from 'nodemailer/lib/mail-composer';
import type { RecordedEvent } from '../eventstore/event-store.js';

/** What the message says besides the PDF (email-message.ts decides it). */
export interface MailFields {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  messageId: string;
  /** The PDF attachment's file name. */
  filename: string;
}

export interface ComposedMail {
  /** The whole message, CRLF line ends. */
  raw: Uint8Array;
  envelope: { from: string; to: string[] };
}

/** Renders the order's PDF and composes the message around it. */
export type RenderMessage = (
  orderStreamEvents: RecordedEvent[],
  options: { viewerUrl?: string },
  fields: MailFields,
) => Promise<ComposedMail>;

/** Renders the packing-instructions PDF from the order's stream, up to and including its OrderPlanned. */
export type RenderPdf = (orderStreamEvents: RecordedEvent[], options?: { viewerUrl?: string }) => Promise<Buffer>;

/** `pdf` undefined: a notice without attachment (a cancel), small enough to compose on any thread. */
export async function composeMessage(fields: MailFields, pdf: Uint8Array | undefined): Promise<ComposedMail> {
  const { filename, ...headers } = fields;
  const node = new MailComposer({
    ...headers,
    attachments: pdf
      ? [{ filename, content: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), contentType: 'application/pdf' }]
      : [],
    // CRLF throughout, the text's line ends too: the message as it goes over the wire
    newline: 'windows',
    // the content is given, never a path or a URL to fetch
    disableFileAccess: true,
    disableUrlAccess: true,
  }).compile();
  const envelope = node.getEnvelope();
  return { raw: await node.build(), envelope: { from: envelope.from === false ? '' : envelope.from, to: envelope.to } };
}

/** A RenderMessage that composes on the calling thread, around what renderPdf gives (tests, tools). */
export function composedHere(renderPdf: RenderPdf): RenderMessage {
  return async (events, options, fields) => composeMessage(fields, await renderPdf(events, options));
}
