// Issue 4 end to end, over real HTTP: submit -> plan -> pallet contents -> PDF -> flag, the e-mail
// with the PDF at a real SMTP server, the signed webhook redelivered after a 503.
import t from 'tap';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { header, startSmtpServer, startWebhookReceiver } from './loopback-peers.js';
import { readPdfText } from '../packing-instructions/inspect-pdf.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const smtp = await startSmtpServer();
const receiver = await startWebhookReceiver(SECRET);
// The first attempt of every event is refused with 503: each must come again, the same.
receiver.answer = (request, seen) => (seen.some((earlier) => earlier.id === request.id) ? 200 : 503);

const seed = testSeed();
seed.company_groups[0]!.webhooks = [{ url: receiver.url, secret: SECRET }];
process.env.ORDERS_SMTP_URL = smtp.url;
process.env.ORDERS_WEBHOOK_RETRY_DELAYS_MS = '300,600,1200';
const service = await startTestService({ key: ACME_KEY, seed });
delete process.env.ORDERS_SMTP_URL;
delete process.env.ORDERS_WEBHOOK_RETRY_DELAYS_MS;
t.teardown(async () => {
  await service.stop();
  await smtp.stop();
  await receiver.stop();
  removeDataDir(service.dataDir);
});

t.test('an order goes from submit to pallets, PDF, e-mail and webhook', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      reference: 'E2E-1',
      order_items: [{ item: 'SKU-1001', quantity: 120, purchase_order: 'PO-9', line_item_number: '1' }],
      extra_recipients: ['buyer@globex.example'],
      extra_cc_recipients: ['audit@acme.example'],
    }),
  });
  t.equal(created.status, 201);
  const serviceRef: string = created.body.service_ref;

  await eventually(async () => (await service.request('GET', '/api/v1/orders/pallet-contents/?order=E2E-1')).status === 200);
  const pallets = await service.request('GET', `/api/v1/orders/pallet-contents/?order=${serviceRef}`);
  t.equal(
    pallets.body
      .flatMap((p: { contents: { quantity: number }[] }) => p.contents)
      .reduce((sum: number, c: { quantity: number }) => sum + c.quantity, 0),
    120,
  );

  const pdf = await fetch(`${service.url}/api/v1/orders/download-packing-instructions/?order=E2E-1`, {
    headers: { authorization: `Api-Key ${ACME_KEY}` },
  });
  t.equal(pdf.status, 200);
  const pdfBytes = Buffer.from(await pdf.arrayBuffer());
  t.equal(
    (await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`)).body.packing_instructions_downloaded,
    true,
  );
  // Parsed after the request: pdf.js holds the event loop, and a keep-alive socket closed meanwhile would be reset.
  t.match((await readPdfText(pdfBytes)).text, new RegExp(serviceRef));

  await eventually(async () => smtp.mails.some((mail) => mail.raw.includes(serviceRef)));
  const mail = smtp.mails.find((m) => m.raw.includes(serviceRef))!;
  t.match(header(mail.raw, 'To'), /logistics@acme\.example/);
  t.match(header(mail.raw, 'To'), /buyer@globex\.example/);
  t.match(header(mail.raw, 'Cc'), /audit@acme\.example/);
  t.same(mail.recipients.sort(), ['audit@acme.example', 'buyer@globex.example', 'logistics@acme.example']);
  t.match(mail.raw, new RegExp(`filename="?packing-instructions-${serviceRef}\\.pdf`));
  const attachment = /Content-Type: application\/pdf[\s\S]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(mail.raw)?.[1];
  t.equal(
    Buffer.from(attachment ?? '', 'base64')
      .subarray(0, 5)
      .toString(),
    '%PDF-',
    'the attachment is the PDF',
  );

  await eventually(async () => receiver.requests.filter((r) => r.body.includes(serviceRef)).length >= 2);
  const attempts = receiver.requests.filter((r) => r.body.includes(serviceRef));
  t.same(
    attempts.map((a) => a.status),
    [503, 200],
    'refused once, delivered on the retry',
  );
  t.equal(attempts[0]!.id, attempts[1]!.id, 'the same webhook-id');
  t.equal(attempts[0]!.body, attempts[1]!.body, 'the same body');
  t.ok(
    attempts.every((a) => a.signatureValid),
    'signed with the group secret',
  );
  const envelope = JSON.parse(attempts[1]!.body);
  t.same(Object.keys(envelope).sort(), ['data', 'id', 'timestamp', 'type']);
  t.match(envelope, { id: attempts[1]!.id, type: 'packing_instructions.ready', data: { order_id: serviceRef, reference: 'E2E-1' } });
  t.ok(Math.abs(Number(attempts[1]!.timestamp) - Date.now() / 1000) < 120, 'webhook-timestamp is unix seconds, now');
});

t.test('send_email false: the webhook still goes out, no e-mail does', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({ reference: 'E2E-QUIET', send_email: false }),
  });
  await eventually(async () => receiver.requests.some((r) => r.body.includes(created.body.service_ref) && r.status === 200));
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.notOk(smtp.mails.some((mail) => mail.raw.includes(created.body.service_ref)));
});

t.test('amend then cancel: ready again with a new id and an e-mail that voids the first, then order.cancelled on both', async (t) => {
  const order = acmeOrder({ reference: 'E2E-AMEND', order_items: [{ item: 'SKU-1001', quantity: 40 }] });
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: order });
  const serviceRef: string = created.body.service_ref;
  const path = `/api/v1/orders/detailed-orders/${created.body.order_id}/`;
  const delivered = (type: string) =>
    receiver.requests.filter((r) => r.status === 200 && r.body.includes(serviceRef) && r.body.includes(type));
  await eventually(async () => delivered('packing_instructions.ready').length === 1);
  const etag = (await service.request('GET', path)).headers.get('etag')!;
  const amended = await service.request('PUT', path, {
    body: { ...order, order_items: [{ item: 'SKU-1001', quantity: 400 }] },
    headers: { 'if-match': etag },
  });
  t.equal(amended.status, 200);
  await eventually(async () => delivered('packing_instructions.ready').length === 2);
  const [first, second] = delivered('packing_instructions.ready');
  t.not(first!.id, second!.id, 'the new plan is announced with a new event id');
  await eventually(async () => smtp.mails.filter((mail) => mail.raw.includes(serviceRef)).length === 2);
  const replaced = smtp.mails.filter((mail) => mail.raw.includes(serviceRef))[1]!;
  t.match(header(replaced.raw, 'Subject'), /Packing instructions replaced/);
  t.match(replaced.raw.replace(/=\r?\n/g, ''), /earlier instructions are void/);

  const cancelled = await service.request('POST', `${path}cancel/`, { body: { reason: 'called off' } });
  t.equal(cancelled.status, 200);
  await eventually(async () => delivered('order.cancelled').length === 1);
  const envelope = JSON.parse(delivered('order.cancelled')[0]!.body);
  t.match(envelope, { type: 'order.cancelled', data: { order_id: serviceRef, reference: 'E2E-AMEND', reason: 'called off' } });
  t.ok(delivered('order.cancelled')[0]!.signatureValid, 'signed like the readies');
  await eventually(async () => smtp.mails.filter((mail) => mail.raw.includes(serviceRef)).length === 3);
  const notice = smtp.mails.filter((mail) => mail.raw.includes(serviceRef))[2]!;
  t.match(header(notice.raw, 'Subject'), /Order cancelled: .*packing instructions void/);
  t.notMatch(notice.raw, /application\/pdf/, 'no PDF with the notice');
  t.match(notice.raw.replace(/=\r?\n/g, ''), /Reason: called off/);
});
