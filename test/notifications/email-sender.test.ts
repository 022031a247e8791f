// The packing-instructions e-mail through a real SMTP server on 127.0.0.1, and as .eml files when no
// SMTP URL is configured.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { ANY, type EventStore, type RecordedEvent } from '../../src/eventstore/event-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import type { MasterData } from '../../src/master-data/master-data.js';
import { EMAIL, type EmailRecord } from '../../src/notifications/delivery-store.js';
import { startEmailSender, type EmailSenderOptions } from '../../src/notifications/email-sender.js';
import { composedHere } from '../../src/notifications/mail-message.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { addresses, attachment, parseMail } from './support/mime.js';
import { appendPlannedOrder, masterDataWith } from './support/order-fixtures.js';
import { startSmtpReceiver } from './support/smtp-receiver.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';

type Tap = { teardown(fn: () => unknown): void };

/** A small stand-in for the renderer's output: a PDF header, binary bytes that need base64, the trailer. */
const FAKE_PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3000), Buffer.from('\n%%EOF\n')]);

interface Setup {
  dir: string;
  store: EventStore;
  logs: string[];
  rendered: RecordedEvent[][];
  start(masterData: MasterData, overrides?: Partial<EmailSenderOptions>): Promise<{ stop(): Promise<void> }>;
  record(eventId: string): Promise<EmailRecord | undefined>;
}

async function setup(t: Tap): Promise<Setup> {
  const dir = await tempDataDir(t, 'email');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 20 });
  const logs: string[] = [];
  const rendered: RecordedEvent[][] = [];
  const running: { stop(): Promise<void> }[] = [];
  t.teardown(async () => {
    for (const consumer of running) await consumer.stop();
    await store.close();
  });
  return {
    dir,
    store,
    logs,
    rendered,
    async start(masterData, overrides = {}) {
      const deliveries = openSqliteDeliveryStore(dir);
      const consumer = await startEmailSender({
        store,
        deliveries,
        dataDir: dir,
        masterData: () => masterData,
        from: 'Orders <orders@acme.example>',
        retryDelayMs: 20,
        renderMessage: composedHere(async (events) => {
          rendered.push(events);
          return FAKE_PDF;
        }),
        log: (message) => logs.push(message),
        ...overrides,
      });
      let stopped = false;
      const handle = {
        stop: async () => {
          if (!stopped) {
            stopped = true;
            await consumer.stop();
            await deliveries.close();
          }
        },
      };
      running.push(handle);
      return handle;
    },
    async record(eventId) {
      const records = openSqliteDeliveryStore(dir);
      try {
        return await records.emails.find(eventId);
      } finally {
        await records.close();
      }
    },
  };
}

const group = { notification_emails: ['logistics@acme.example'] };

t.test('over SMTP: To, Cc, subject and the PDF attached; recorded, and not sent again after a restart', async (t) => {
  const { dir, store, start, record, rendered } = await setup(t);
  const smtp = await startSmtpReceiver();
  t.teardown(() => smtp.close());
  const event = await appendPlannedOrder(store, {
    orderId: 1,
    extraRecipients: ['buyer@globex.example'],
    extraCcRecipients: ['audit@globex.example', 'LOGISTICS@acme.example'],
  });
  // A later event of the order must not change the PDF of the plan being announced.
  await store.append(
    event.stream,
    [{ type: 'PackingInstructionsDownloaded', data: { order_id: 1, downloaded_at: '2026-11-20T10:00:00.000000' } }],
    ANY,
  );

  const first = await start(masterDataWith(group), { smtpUrl: smtp.url });
  await waitFor('the e-mail', () => smtp.received.length === 1);
  await waitFor('the record', async () => (await record(event.id)) !== undefined);

  const [mail] = smtp.received;
  t.strictSame(
    mail!.rcptTo.sort(),
    ['audit@globex.example', 'buyer@globex.example', 'logistics@acme.example'],
    'SMTP envelope: every recipient once',
  );
  t.equal(mail!.mailFrom, 'orders@acme.example');
  const parsed = parseMail(mail!.raw);
  t.strictSame(
    addresses(parsed.headers.get('to')),
    ['logistics@acme.example', 'buyer@globex.example'],
    'To: group notification_emails, then extra_recipients',
  );
  t.strictSame(addresses(parsed.headers.get('cc')), ['audit@globex.example'], 'Cc: extra_cc_recipients, without one already in To');
  t.equal(parsed.headers.get('subject'), 'Packing instructions ready: SO-000001 (reference PO-1)');
  t.equal(parsed.headers.get('message-id'), `<evt_${event.id}@acme.example>`, 'Message-ID derived from the event');
  const pdf = attachment(parsed);
  t.equal(pdf?.filename, 'packing-instructions-SO-000001.pdf');
  t.match(pdf?.contentType, /^application\/pdf/);
  t.ok(pdf?.content.equals(FAKE_PDF), 'the attachment decodes to the rendered PDF, byte for byte');
  t.ok(
    parsed.parts.some((part) => /^text\/plain/.test(part.headers.get('content-type') ?? '') && part.body.includes('SO-000001')),
    'a short text body',
  );

  t.strictSame(
    rendered[0]?.map((e) => e.type),
    ['OrderSubmitted', 'OrderPlanned'],
    'renderPdf got the stream up to the OrderPlanned',
  );
  t.match(await record(event.id), { result: 'sent', serviceRef: 'SO-000001', messageId: `<evt_${event.id}@acme.example>`, detail: /^250/ });

  await first.stop();
  await start(masterDataWith(group), { smtpUrl: smtp.url });
  await sleep(300);
  t.equal(smtp.received.length, 1, 'a restart does not send it again');
  const records = openSqliteDeliveryStore(dir);
  t.equal(await records.checkpoints.checkpoint(EMAIL), event.position);
  await records.close();
});

t.test('without an SMTP URL the message is written to <dataDir>/outbox as an .eml file', async (t) => {
  const { dir, store, start, record } = await setup(t);
  const event = await appendPlannedOrder(store, { orderId: 2, extraCcRecipients: ['audit@globex.example'] });
  await start(masterDataWith(group));
  await waitFor('the record', async () => (await record(event.id)) !== undefined);

  const outbox = join(dir, 'outbox');
  const file = join(outbox, `SO-000002-${event.id}.eml`);
  t.strictSame(await readdir(outbox), [`SO-000002-${event.id}.eml`], 'one file, named <service_ref>-<event id>.eml, no temp file left');
  t.match(await record(event.id), { result: 'written', detail: file });
  const raw = (await readFile(file)).toString('latin1');
  t.ok(raw.includes('\r\n') && !/[^\r]\n/.test(raw), 'CRLF line ends throughout');
  const parsed = parseMail(raw);
  t.strictSame(addresses(parsed.headers.get('to')), ['logistics@acme.example']);
  t.strictSame(addresses(parsed.headers.get('cc')), ['audit@globex.example']);
  t.equal(parsed.headers.get('subject'), 'Packing instructions ready: SO-000002 (reference PO-2)');
  const pdf = attachment(parsed);
  t.equal(pdf?.filename, 'packing-instructions-SO-000002.pdf');
  t.ok(pdf?.content.equals(FAKE_PDF), 'the attachment decodes to the PDF');
});

t.test('send_email false: nothing is sent; the orders after it still are', async (t) => {
  const { store, start, record, rendered } = await setup(t);
  const smtp = await startSmtpReceiver();
  t.teardown(() => smtp.close());
  const quiet = await appendPlannedOrder(store, { orderId: 3, sendEmail: false, extraRecipients: ['buyer@globex.example'] });
  const next = await appendPlannedOrder(store, { orderId: 4 });
  await start(masterDataWith(group), { smtpUrl: smtp.url });
  await waitFor("the second order's record", async () => (await record(next.id)) !== undefined);
  await sleep(100);
  t.equal(smtp.received.length, 1, 'only the order that asked for it');
  t.match(parseMail(smtp.received[0]!.raw).headers.get('subject'), /SO-000004/);
  t.match(await record(quiet.id), { result: 'skipped', detail: 'the order has send_email false' });
  t.equal(rendered.length, 1, 'no PDF rendered for the quiet order');
});

t.test('no recipients at all: skipped, and the reason logged', async (t) => {
  const { store, start, record, logs } = await setup(t);
  const smtp = await startSmtpReceiver();
  t.teardown(() => smtp.close());
  const event = await appendPlannedOrder(store, { orderId: 5 });
  await start(masterDataWith({ notification_emails: [] }), { smtpUrl: smtp.url });
  await waitFor('the record', async () => (await record(event.id)) !== undefined);
  t.equal(smtp.received.length, 0);
  t.match(await record(event.id), { result: 'skipped', detail: /no recipients/ });
  t.ok(
    logs.some((line) => /SO-000005.*no recipients/.test(line)),
    'logged',
  );
});

t.test('a transient SMTP refusal (451) is retried; a permanent one (550) is recorded and passed over', async (t) => {
  const { store, start, record, logs } = await setup(t);
  // 1st transaction: 451 (transient), 2nd: accepted (order 6); 3rd: 550 (order 7, permanent); then accepted (order 8).
  const smtp = await startSmtpReceiver({ mailFrom: (n) => (n === 1 ? 451 : n === 3 ? 550 : undefined) });
  t.teardown(() => smtp.close());
  const six = await appendPlannedOrder(store, { orderId: 6 });
  await start(masterDataWith(group), { smtpUrl: smtp.url });
  await waitFor('order 6 recorded', async () => (await record(six.id)) !== undefined);
  const seven = await appendPlannedOrder(store, { orderId: 7 });
  const eight = await appendPlannedOrder(store, { orderId: 8 });
  await waitFor('order 8 recorded', async () => (await record(eight.id)) !== undefined);

  t.match(await record(six.id), { result: 'sent' }, '451: tried again and sent');
  t.match(await record(seven.id), { result: 'failed', detail: /550/ }, '550: recorded as failed');
  t.match(await record(eight.id), { result: 'sent' }, 'the next order is not held up');
  t.strictSame(
    smtp.received.map((mail) => /SO-\d+/.exec(parseMail(mail.raw).headers.get('subject') ?? '')?.[0]),
    ['SO-000006', 'SO-000008'],
  );
  t.ok(
    logs.some((line) => /failed \(1 time\(s\)\)/.test(line)),
    'the transient failure is logged',
  );
  t.ok(
    logs.some((line) => /SO-000007 rejected by the SMTP server/.test(line)),
    'the permanent one too',
  );
});

t.test('a PDF that cannot be rendered is recorded as failed and does not hold up the next e-mail', async (t) => {
  const { store, start, record, logs } = await setup(t);
  const smtp = await startSmtpReceiver();
  t.teardown(() => smtp.close());
  const broken = await appendPlannedOrder(store, { orderId: 9 });
  const fine = await appendPlannedOrder(store, { orderId: 10 });
  await start(masterDataWith(group), {
    smtpUrl: smtp.url,
    renderMessage: composedHere(async (events) => {
      if (events.some((e) => e.id === broken.id)) throw new Error('plan has no containers');
      return FAKE_PDF;
    }),
  });
  await waitFor('order 10 recorded', async () => (await record(fine.id)) !== undefined);
  t.match(await record(broken.id), { result: 'failed', detail: 'PDF rendering failed: plan has no containers' });
  t.match(await record(fine.id), { result: 'sent' });
  t.equal(smtp.received.length, 1);
  t.ok(logs.some((line) => /SO-000009: the PDF could not be rendered/.test(line)));
});

t.test(
  'a run of orders that ask for no e-mail is recorded in one commit, not one each; in log order around one that is sent',
  async (t) => {
    const { dir, store, start, record } = await setup(t);
    const smtp = await startSmtpReceiver();
    t.teardown(() => smtp.close());
    const quietBefore = [];
    for (let i = 0; i < 20; i++) quietBefore.push(await appendPlannedOrder(store, { orderId: 100 + i, sendEmail: false }));
    const sent = await appendPlannedOrder(store, { orderId: 200 });
    const quietAfter = [];
    for (let i = 0; i < 10; i++) quietAfter.push(await appendPlannedOrder(store, { orderId: 300 + i, sendEmail: false }));
    // the sender's own store, its calls counted
    const deliveries = openSqliteDeliveryStore(dir);
    t.teardown(() => deliveries.close());
    const calls = { record: 0, recordAll: 0, recordedInAll: 0 };
    const emails = deliveries.emails;
    const counted = {
      ...deliveries,
      emails: {
        find: (id: string) => emails.find(id),
        record: (...args: Parameters<typeof emails.record>) => {
          calls.record++;
          return emails.record(...args);
        },
        recordAll: (...args: Parameters<typeof emails.recordAll>) => {
          calls.recordAll++;
          calls.recordedInAll += args[0].length;
          return emails.recordAll(...args);
        },
      },
    };
    const sender = await start(masterDataWith(group), { smtpUrl: smtp.url, deliveries: counted });
    const last = quietAfter.at(-1)!;
    await waitFor('the last record', async () => (await record(last.id)) !== undefined);
    t.equal(smtp.received.length, 1, 'the one order that asked for it');
    for (const event of [...quietBefore, ...quietAfter]) t.match(await record(event.id), { result: 'skipped' });
    t.match(await record(sent.id), { result: 'sent' });
    t.equal(calls.record, 1, 'the e-mail sent: a commit of its own');
    t.equal(calls.recordedInAll, 30, 'the 30 not sent, in runs');
    t.ok(calls.recordAll <= 4, `in ${calls.recordAll} commits (one for each run before and after the sent one, whatever the pages)`);
    t.equal(await deliveries.checkpoints.checkpoint(EMAIL), last.position, 'the checkpoint at the last event');
    await sender.stop();
  },
);
