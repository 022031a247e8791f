// Packing-instructions e-mail: for each OrderPlanned whose order asked for it, the PDF goes to the
// recipients of email-message.ts, over SMTP when an SMTP URL is configured, otherwise as an .eml file
// in <dataDir>/outbox. What became of each event's e-mail is recorded with the checkpoint, so a
// restart does not send again what the server accepted. A crash after the server accepted a message
// and before the record commits sends it again on restart (at-least-once); the Message-ID is derived
// from the event, so mail clients and archives can tell the copies are one message.
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { createTransport, type NodemailerError, type SendMailOptions } from 'nodemailer';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { MasterData } from '../master-data/master-data.js';
import { EMAIL, type DeliveryStore, type EmailRecord } from './delivery-store.js';
import { emailOutcomeEvent } from './delivery-outcomes.js';
import { packingInstructionsEmail } from './email-message.js';
import { readOrderStream, submittedIn } from '../orders/read-order-stream.js';
import { followLog } from '../eventstore/follow-log.js';
import type { Log, NotificationConsumer } from './notification-consumer.js';
import { envelopeIdFor, isOrderPlanned, type OrderPlannedEvent } from './ready-envelope.js';

/** Renders the packing-instructions PDF from the order's stream, up to and including its OrderPlanned. */
export type RenderPdf = (orderStreamEvents: RecordedEvent[], options?: { viewerUrl?: string }) => Promise<Buffer>;

export const DEFAULT_MAIL_FROM = 'Orders service <orders@localhost>';

export interface EmailSenderOptions {
  store: EventStore;
  /** What became of each event's e-mail, with this consumer's checkpoint; the caller opens and closes it. */
  deliveries: DeliveryStore;
  /** outbox/ lives here when there is no SMTP URL. */
  dataDir: string;
  masterData: () => MasterData;
  /** e.g. smtp://user:pass@mail.example:587 or smtps://...; without it messages are written to <dataDir>/outbox. */
  smtpUrl?: string;
  /** Default `Orders service <orders@localhost>`. */
  from?: string;
  renderPdf: RenderPdf;
  /** How long a claim on an e-mail holds off other replicas; default 2 min. */
  claimMs?: number;
  /** A share link to the order's 3D load plan, for the text and the PDF; none when not given. */
  viewerUrl?: (serviceRef: string) => string;
  /** First pause after a transient failure (server unreachable, 4xx reply); doubles up to 1 min. Default 1 s. */
  retryDelayMs?: number;
  /** Called after an outcome event was journaled, so that it reaches the log soon (outcome-journal.ts). */
  onJournaled?: () => void;
  log: Log;
}

export async function startEmailSender(options: EmailSenderOptions): Promise<NotificationConsumer> {
  const { store, log } = options;
  const from = options.from ?? DEFAULT_MAIL_FROM;
  const outbox = join(options.dataDir, 'outbox');
  const records = options.deliveries;
  const deliver = options.smtpUrl ? smtpDelivery(options.smtpUrl) : outboxDelivery(outbox);
  // Rendering the PDF and an SMTP exchange with its retries fit well within this; a replica that
  // dies holding a claim delays that e-mail by at most this long.
  const claimMs = options.claimMs ?? 120_000;
  const claimPollMs = 200;
  const holder = randomUUID();

  // Another replica on the same delivery store may be sending this e-mail: wait until it has
  // recorded the outcome, or its claim has run out and this one takes it over.
  async function claimOrSkip(event: OrderPlannedEvent, stopping: () => boolean): Promise<'claimed' | 'recorded' | 'stopping'> {
    for (;;) {
      if (await records.emailRecord(event.id)) return 'recorded';
      const now = Date.now();
      if (await records.claimEmail(event.id, holder, now, now + claimMs)) {
        // Recorded by the previous holder between the two calls: nothing to send.
        return (await records.emailRecord(event.id)) ? 'recorded' : 'claimed';
      }
      if (stopping()) return 'stopping';
      await sleep(claimPollMs);
    }
  }

  async function handleOne(event: OrderPlannedEvent, stopping: () => boolean): Promise<void> {
    const claim = await claimOrSkip(event, stopping);
    if (claim === 'stopping') return;
    if (claim === 'recorded') {
      await records.saveCheckpoint(EMAIL, event.position);
      return;
    }
    const record = async (result: EmailRecord['result'], detail: string, messageId: string | null = null) => {
      const outcome: EmailRecord = { eventId: event.id, serviceRef: event.data.service_ref, result, detail, messageId };
      await records.recordEmail(outcome, event.position, [emailOutcomeEvent(outcome, event.position)]);
      options.onJournaled?.();
    };

    const history = await readOrderStream(store, event.stream);
    const viewerUrl = options.viewerUrl?.(event.data.service_ref);
    const email = packingInstructionsEmail(event.data, submittedIn(history), options.masterData().groups.get(event.data.company_group), viewerUrl);
    if (!email.send) {
      log(`email: nothing sent for ${event.data.service_ref}: ${email.reason}`);
      await record('skipped', email.reason);
      return;
    }
    // The PDF shows the order as it was planned, not as later events (downloads) left it.
    let pdf: Buffer;
    try {
      pdf = await options.renderPdf(history.filter((e) => e.revision <= event.revision), viewerUrl ? { viewerUrl } : {});
    } catch (error) {
      // Cut short by shutdown (the renderer's worker is terminated): rendered again after the restart.
      if (stopping()) throw error;
      // Rendering is a pure function of the stored events: trying again would fail again and hold up
      // every later e-mail. Record it for operators and go on.
      log(`email: ${event.data.service_ref}: the PDF could not be rendered; no e-mail sent`, error);
      await record('failed', `PDF rendering failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const messageId = `<${envelopeIdFor(event)}@${domainOf(from)}>`;
    const message: SendMailOptions = {
      from,
      to: email.to,
      cc: email.cc,
      subject: email.subject,
      text: email.text,
      messageId,
      attachments: [{ filename: email.filename, content: pdf, contentType: 'application/pdf' }],
    };
    let outcome: Delivered;
    try {
      outcome = await deliver(message, `${safeName(event.data.service_ref)}-${event.id}.eml`);
    } catch (error) {
      const rejected = error as NodemailerError;
      if (rejected.permanent !== true) throw error; // connection trouble or 4xx: the same batch again later
      // The server refused this message for good (5xx); retrying would block every later e-mail.
      log(`email: ${event.data.service_ref} rejected by the SMTP server: ${rejected.response ?? rejected.message}`, undefined, 'error');
      await record('failed', rejected.response ?? rejected.message, messageId);
      return;
    }
    if (outcome.rejected.length > 0) log(`email: ${event.data.service_ref}: the server refused ${outcome.rejected.join(', ')}`, undefined, 'warn');
    await record(outcome.result, outcome.detail, messageId);
  }

  try {
    const follower = await followLog({
      store,
      name: 'email',
      types: ['OrderPlanned'],
      loadCheckpoint: () => records.checkpoint(EMAIL),
      retryDelayMs: options.retryDelayMs ?? 1000,
      log,
      async handle(events, stopping) {
        for (const event of events) {
          if (stopping()) return;
          if (isOrderPlanned(event)) await handleOne(event, stopping);
        }
      },
    });
    return {
      async stop() {
        await follower.stop();
        deliver.close();
        await records.releaseClaims(holder).catch((error: unknown) => log('e-mail: releasing the claims failed; they run out on their own', error, 'warn'));
      },
    };
  } catch (error) {
    deliver.close();
    throw error;
  }
}

interface Delivered {
  result: 'sent' | 'written';
  detail: string;
  rejected: string[];
}

interface Delivery {
  (message: SendMailOptions, fileName: string): Promise<Delivered>;
  close(): void;
}

function smtpDelivery(smtpUrl: string): Delivery {
  // nodemailer's defaults wait minutes on a silent server (socket 10 min); stop() waits for the
  // message in progress, so bound it. A timeout is transient: the e-mail is tried again.
  const transport = createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return Object.assign(
    async (message: SendMailOptions): Promise<Delivered> => {
      const info = await transport.sendMail(message);
      return { result: 'sent', detail: info.response, rejected: info.rejected.map(String) };
    },
    { close: () => transport.close() },
  );
}

function outboxDelivery(outbox: string): Delivery {
  // CRLF line ends: an .eml file is the message as it would go over the wire.
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return Object.assign(
    async (message: SendMailOptions, fileName: string): Promise<Delivered> => {
      const info = await transport.sendMail(message);
      await mkdir(outbox, { recursive: true });
      const path = join(outbox, fileName);
      // Written whole or not at all: a crash leaves at most a .tmp file, and the name is the event's,
      // so writing it again after a crash replaces rather than duplicates.
      const temporary = `${path}.tmp`;
      const file = await open(temporary, 'w');
      try {
        await file.writeFile(info.message as Buffer);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
      return { result: 'written', detail: path, rejected: [] };
    },
    { close: () => transport.close() },
  );
}

function domainOf(from: string): string {
  const address = /<([^>]*)>/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim();
  return /^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'localhost';
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}
