// Signing follows Standard Webhooks exactly: the spec's published vector, an independent HMAC with
// node:crypto, and a loopback receiver that verifies what the sender really sent.
import { createHmac } from 'node:crypto';
import t from 'tap';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { readyEnvelope, readyEnvelopeBody, type OrderPlannedEvent } from '../../src/notifications/ready-envelope.js';
import { postWebhook } from '../../src/notifications/webhook-attempt.js';
import { signWebhook, webhookHeaders, webhookSigningKey } from '../../src/notifications/webhook-signature.js';
import { SECRET } from './support/order-fixtures.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';
import { emptyPlan } from '../support/plans.js';

t.test('the Standard Webhooks test vector', async (t) => {
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';
  const independent = createHmac('sha256', Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  t.equal(independent, 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=', 'the value published with the spec');
  t.equal(signWebhook(id, timestamp, body, SECRET), `v1,${independent}`);
  t.strictSame(webhookHeaders(id, timestamp, body, SECRET), {
    'webhook-id': id,
    'webhook-timestamp': '1614265330',
    'webhook-signature': `v1,${independent}`,
  });
});

t.test('non-ASCII bodies are signed as their UTF-8 bytes', async (t) => {
  const body = '{"reference":"Müller-🚚"}';
  const independent = createHmac('sha256', webhookSigningKey(SECRET))
    .update(Buffer.from(`evt_1.1700000000.${body}`, 'utf8'))
    .digest('base64');
  t.equal(signWebhook('evt_1', 1700000000, body, SECRET), `v1,${independent}`);
});

t.test('a secret without the whsec_ prefix is refused, not used as a raw key', async (t) => {
  t.throws(() => signWebhook('evt_1', 1, '{}', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'), /whsec_/);
  t.throws(() => signWebhook('evt_1', 1, '{}', 'whsec_'), /no key/);
});

const planned: OrderPlannedEvent = {
  id: '0b6f3c1e-8f0a-4d1e-9d7e-2f1a3b4c5d6e',
  stream: 'order:Acme%20Group:PO-7',
  type: 'OrderPlanned',
  data: {
    order_id: 7,
    service_ref: 'SO-000007',
    reference: 'PO-7',
    company_group: 'Acme Group',
    plan: emptyPlan(),
    planned_at: '2026-11-20T09:15:03.654321',
  },
  revision: 1n,
  position: 42n,
  recordedAt: new Date('2026-11-20T09:15:03.700Z'),
};

t.test('the packing_instructions.ready envelope', async (t) => {
  t.equal(
    readyEnvelopeBody(planned),
    '{"id":"evt_0b6f3c1e-8f0a-4d1e-9d7e-2f1a3b4c5d6e","type":"packing_instructions.ready","timestamp":"2026-11-20T09:15:03.654321Z",' +
      '"data":{"order_id":"SO-000007","reference":"PO-7"}}',
    "id from the event, ISO 8601 UTC timestamp, service_ref as order_id, in the issue's field order",
  );
  t.equal(readyEnvelopeBody({ ...planned }), readyEnvelopeBody(planned), 'the same bytes every time');
  const odd = { ...planned, data: { ...planned.data, planned_at: 'yesterday' } } as RecordedEvent as OrderPlannedEvent;
  t.equal(readyEnvelope(odd).timestamp, '2026-11-20T09:15:03.700Z', 'an unexpected planned_at falls back to the stored time');
});

t.test('a loopback receiver verifies what postWebhook sends; the wrong secret does not verify', async (t) => {
  const receiver = await startWebhookReceiver(SECRET, () => 204);
  t.teardown(() => receiver.close());
  const body = readyEnvelopeBody(planned);
  const ok = await postWebhook({ url: receiver.url(), envelopeId: 'evt_x', body, secret: SECRET, timeoutMs: 2000 });
  t.strictSame(ok, { status: 204 });
  const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const refused = await postWebhook({ url: receiver.url(), envelopeId: 'evt_x', body, secret: other, timeoutMs: 2000 });
  t.strictSame(refused, { status: 401 }, 'the receiver rejects a signature made with another key');
  const [first, second] = receiver.received;
  t.ok(first?.verified, 'signature verifies');
  t.equal(first?.body, body, 'body bytes as signed');
  t.equal(first?.id, 'evt_x');
  t.equal(first?.contentType, 'application/json');
  t.ok(Math.abs(Number(first?.timestamp) - Date.now() / 1000) < 5, 'webhook-timestamp is now, in unix seconds');
  t.notOk(second?.verified);
});
