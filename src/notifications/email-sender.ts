// Packing-instructions e-mail: for each OrderPlanned whose order asked for it, the PDF goes to the
// recipients of email-message.ts (and for each OrderCancelled, a notice that the instructions are void), over SMTP when an SMTP URL is configured, otherwise as an .eml file
// in <dataDir>/outbox. What became of each event's e-mail is recorded with the checkpoint, so a
// restart does not send again what the server accepted. A crash after the server accepted a message
// and before the record commits sends it again on restart (at-least-once); the Message-ID is derived
// from the event, so mail clients and archives can tell the copies are one message.
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { createTransport, type NodemailerError } from 'nodemailer';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { MasterData } from '../master-data/master-data.js';
import { EMAIL, type DeliveryStore, type EmailRecord, type JournalEvent } from './delivery-store.js';
import { emailOutcomeEvent } from './delivery-outcomes.js';
import { cancellationEmail, packingInstructionsEmail } from './email-message.js';
import { currentOrderIn, readOrderStream } from '../orders/read-order-stream.js';
import { followLog } from '../eventstore/follow-log.js';
import type { LeaseHolding, Lingering, Log, NotificationConsumer } from './notification-consumer.js';
import { ANNOUNCED_EVENT_TYPES, envelopeIdFor, isAnnounced, type AnnouncedEvent } from './ready-envelope.js';
import { renewWhileWorking } from '../leases/renew-while.js';
import { composeMessage, type ComposedMail, type RenderMessage } from './mail-message.js';

export const DEFAULT_MAIL_FROM = 'Orders service <orders@localhost>';

export interface EmailSenderOptions extends LeaseHolding, Lingering {
  store: EventStore;
  /** What became of each event's e-mail, with this consumer's checkpoint; the caller opens and closes it. */
  deliveries: Pick<DeliveryStore, 'checkpoints' | 'emails' | 'emailLeases'>;
  /** outbox/ lives here when there is no SMTP URL. */
  dataDir: string;
  masterData: () => MasterData;
  /** e.g. smtp://user:pass@mail.example:587 or smtps://...; without it messages are written to <dataDir>/outbox. */
  smtpUrl?: string;
  /** Default `Orders service <orders@localhost>`. */
  from?: string;
  /** The order's PDF and the message around it (mail-message.ts): the service's renderer thread composes both. */
  renderMessage: RenderMessage;
  /**
   * How long a lease on an e-mail holds off other replicas; renewed while it is composed and sent, so it
   * only bounds how long the e-mails of a holder that died wait for another. Default 30 s.
   */
  leaseMs?: number;
  /** A share link to the order's 3D load plan, for the text and the PDF; none when not given. */
  viewerUrl?: (serviceRef: string) => string;
  /** First pause after a transient failure (server unreachable, 4xx reply); doubles up to 1 min. Default 1 s. */
  retryDelayMs?: number;
  /** Called after an outcome event was journaled, so that it reaches the log soon (outcome-journal.ts). */
  onJournaled?: () => void;
  log: Log;
}

/** What sending one event's e-mail needs, fixed for the life of the sender. */
interface Sender {
  options: EmailSenderOptions;
  records: EmailSenderOptions['deliveries'];
  from: string;
  deliver: Delivery;
  /** The replica's (see EmailSenderOptions.holder): a restarted process does not renew its predecessor's leases. */
  holder: string;
  leaseMs: number;
}

/** A leased e-mail is looked at again this often while another replica holds it. */
const LEASE_POLL_MS = 200;

export async function startEmailSender(options: EmailSenderOptions): Promise<NotificationConsumer> {
  const { store, log } = options;
  const deliver = options.smtpUrl ? smtpDelivery(options.smtpUrl) : outboxDelivery(join(options.dataDir, 'outbox'));
  const sender: Sender = {
    options,
    records: options.deliveries,
    from: options.from ?? DEFAULT_MAIL_FROM,
    deliver,
    holder: options.holder ?? randomUUID(),
    leaseMs: options.leaseMs ?? 30_000,
  };
  try {
    const follower = await followLog({
      store,
      name: 'email',
      types: ANNOUNCED_EVENT_TYPES,
      loadCheckpoint: () => sender.records.checkpoints.checkpoint(EMAIL),
      retryDelayMs: options.retryDelayMs ?? 1000,
      lingerMs: options.lingerMs ?? 0,
      log,
      async handle(events, stopping) {
        // The outcomes of e-mails not to be sent, recorded together: before the next e-mail that is
        // sent (the checkpoint moves in log order) and at the end of the batch. They need no lease: no
        // message goes out, and a second record of one changes nothing.
        const unsent: { record: EmailRecord; journal: JournalEvent[] }[] = [];
        let through: bigint | undefined;
        const recordUnsent = async () => {
          if (through === undefined) return;
          const journaled = unsent.length > 0;
          await sender.records.emails.recordAll(unsent.splice(0), through);
          through = undefined;
          if (journaled) options.onJournaled?.();
        };
        for (const event of events) {
          if (stopping()) break;
          if (!isAnnounced(event)) continue;
          const decided = await decide(sender, event);
          if ('skipped' in decided) {
            // recorded before (a restart, or the replica before this one): not journaled twice
            if (!(await sender.records.emails.find(event.id))) {
              const record = emailRecord(event, 'skipped', decided.skipped);
              unsent.push({ record, journal: [emailOutcomeEvent(record, event.position)] });
            }
            through = event.position;
            continue;
          }
          await recordUnsent();
          await handleOne(sender, event, decided, stopping);
        }
        await recordUnsent();
      },
    });
    return {
      async stop() {
        await follower.stop();
        deliver.close();
        await sender.records.emailLeases
          .releaseAll(sender.holder)
          .catch((error: unknown) => log('e-mail: releasing its leases failed; they run out on their own', error, 'warn'));
      },
    };
  } catch (error) {
    deliver.close();
    throw error;
  }
}

// Another replica on the same delivery store may be sending this e-mail: wait until it has recorded
// the outcome, or its lease has run out and this one takes it over.
async function leaseOrSkip(
  { records, holder, leaseMs }: Sender,
  event: AnnouncedEvent,
  stopping: () => boolean,
): Promise<'leased' | 'recorded' | 'stopping'> {
  for (;;) {
    if (await records.emails.find(event.id)) return 'recorded';
    const now = Date.now();
    if (await records.emailLeases.acquire(event.id, holder, now, now + leaseMs)) {
      // Recorded by the previous holder between the two calls: nothing to send.
      return (await records.emails.find(event.id)) ? 'recorded' : 'leased';
    }
    if (stopping()) return 'stopping';
    await sleep(LEASE_POLL_MS);
  }
}

async function handleOne(sender: Sender, event: AnnouncedEvent, toSend: ToSend, stopping: () => boolean): Promise<void> {
  const lease = await leaseOrSkip(sender, event, stopping);
  if (lease === 'stopping') return;
  if (lease === 'recorded') {
    await sender.records.checkpoints.saveCheckpoint(EMAIL, event.position);
    return;
  }
  // Held while the PDF renders and the SMTP exchange runs, however long they take.
  const stopRenewing = renewWhileWorking(sender.records.emailLeases, { keys: [event.id], holder: sender.holder, leaseMs: sender.leaseMs });
  try {
    await sendLeased(sender, event, toSend, stopping);
  } finally {
    stopRenewing();
  }
}

function emailRecord(event: AnnouncedEvent, result: EmailRecord['result'], detail: string, messageId: string | null = null): EmailRecord {
  return { eventId: event.id, serviceRef: event.data.service_ref, result, detail, messageId };
}

async function sendLeased(sender: Sender, event: AnnouncedEvent, toSend: ToSend, stopping: () => boolean): Promise<void> {
  const record = async (result: EmailRecord['result'], detail: string, messageId: string | null = null) => {
    const outcome = emailRecord(event, result, detail, messageId);
    await sender.records.emails.record(outcome, event.position, [emailOutcomeEvent(outcome, event.position)]);
    sender.options.onJournaled?.();
  };
  const composed = await compose(sender, event, toSend, stopping);
  if ('failed' in composed) {
    await record('failed', composed.failed);
    return;
  }
  const { mail, messageId } = composed;
  let outcome: Delivered;
  try {
    outcome = await sender.deliver(mail, `${safeName(event.data.service_ref)}-${event.id}.eml`);
  } catch (error) {
    const rejected = error as NodemailerError;
    if (rejected.permanent !== true) throw error; // connection trouble or 4xx: the same batch again later
    // The server refused this message for good (5xx); retrying would block every later e-mail.
    sender.options.log(
      `email: ${event.data.service_ref} rejected by the SMTP server: ${rejected.response ?? rejected.message}`,
      undefined,
      'error',
    );
    await record('failed', rejected.response ?? rejected.message, messageId);
    return;
  }
  if (outcome.rejected.length > 0)
    sender.options.log(`email: ${event.data.service_ref}: the server refused ${outcome.rejected.join(', ')}`, undefined, 'warn');
  await record(outcome.result, outcome.detail, messageId);
}

type Composed = { mail: ComposedMail; messageId: string } | { failed: string };

/** An e-mail the order asks for: its stream as read, recipients and text, and the viewer link. */
interface ToSend {
  history: RecordedEvent[];
  email: Extract<ReturnType<typeof packingInstructionsEmail>, { send: true }>;
  viewerUrl: string | undefined;
}

/** Whether the event's order gets an e-mail (its recipients, the group's settings), from the order's stream: no PDF yet. */
async function decide({ options }: Sender, event: AnnouncedEvent): Promise<ToSend | { skipped: string }> {
  // the order as it stood at the event: its recipients then, and the PDF of that plan
  const history = (await readOrderStream(options.store, event.stream)).filter((e) => e.revision <= event.revision);
  const group = options.masterData().groups.get(event.data.company_group);
  if (event.type === 'OrderCancelled') {
    const email = cancellationEmail(event.data, currentOrderIn(history), group);
    if (!email.send) return { skipped: email.reason };
    return { history, email, viewerUrl: undefined };
  }
  const viewerUrl = options.viewerUrl?.(event.data.service_ref);
  const email = packingInstructionsEmail(event.data, currentOrderIn(history), group, viewerUrl);
  if (!email.send) {
    options.log(`email: nothing sent for ${event.data.service_ref}: ${email.reason}`);
    return { skipped: email.reason };
  }
  return { history, email, viewerUrl };
}

/** The message for an e-mail the order asks for, or why there is none: its PDF cannot be rendered. */
async function compose({ options, from }: Sender, event: AnnouncedEvent, toSend: ToSend, stopping: () => boolean): Promise<Composed> {
  const { history, email, viewerUrl } = toSend;
  const messageId = `<${envelopeIdFor(event)}@${domainOf(from)}>`;
  const fields = { from, to: email.to, cc: email.cc, subject: email.subject, text: email.text, messageId, filename: email.filename };
  // a cancel's notice has no PDF: composed here, at once
  if (event.type === 'OrderCancelled') return { mail: await composeMessage(fields, undefined), messageId };
  // The PDF shows the order as it was planned, not as later events (downloads) left it: the history is read up to the event.
  try {
    const mail = await options.renderMessage(history, viewerUrl ? { viewerUrl } : {}, fields);
    return { mail, messageId };
  } catch (error) {
    // Cut short by shutdown (the renderer's worker is terminated): rendered again after the restart.
    if (stopping()) throw error;
    // Rendering is a pure function of the stored events: trying again would fail again and hold up
    // every later e-mail. Record it for operators and go on.
    options.log(`email: ${event.data.service_ref}: the PDF could not be rendered; no e-mail sent`, error);
    return { failed: `PDF rendering failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

interface Delivered {
  result: 'sent' | 'written';
  detail: string;
  rejected: string[];
}

interface Delivery {
  (mail: ComposedMail, fileName: string): Promise<Delivered>;
  close(): void;
}

function smtpDelivery(smtpUrl: string): Delivery {
  // nodemailer's defaults wait minutes on a silent server (socket 10 min); stop() waits for the
  // message in progress, so bound it. A timeout is transient: the e-mail is tried again.
  const transport = createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return Object.assign(
    async ({ raw, envelope }: ComposedMail): Promise<Delivered> => {
      const info = await transport.sendMail({ envelope, raw: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) });
      return { result: 'sent', detail: info.response, rejected: info.rejected.map(String) };
    },
    { close: () => transport.close() },
  );
}

function outboxDelivery(outbox: string): Delivery {
  // An .eml file is the message as it would go over the wire (CRLF line ends, as composed).
  return Object.assign(
    async ({ raw }: ComposedMail, fileName: string): Promise<Delivered> => {
      await mkdir(outbox, { recursive: true });
      const path = join(outbox, fileName);
      // Written whole or not at all: a crash leaves at most a .tmp file, and the name is the event's,
      // so writing it again after a crash replaces rather than duplicates.
      const temporary = `${path}.tmp`;
      const file = await open(temporary, 'w');
      try {
        await file.writeFile(raw);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
      return { result: 'written', detail: path, rejected: [] };
    },
    { close: () => {} },
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
