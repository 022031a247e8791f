// The fold of the log's delivery outcomes into delivery-store state (pure), and a restore into a real
// SQLite store where a delivery was queued but not yet sent when the store was lost.
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import {
  emailOutcomeEvent,
  foldDeliveryOutcomes,
  kafkaPublishedEvent,
  MAX_DETAIL,
  MAX_QUEUED_PER_EVENT,
  webhookOutcomeEvent,
  webhooksQueuedEvents,
  type JournalEvent,
} from '../../src/notifications/delivery-outcomes.js';
import { restoreDeliveries } from '../../src/notifications/restore-deliveries.js';
import { readyEnvelopeBody } from '../../src/notifications/ready-envelope.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { ANY } from '../../src/eventstore/event-store.js';
import { appendPlannedOrder } from './support/order-fixtures.js';
import { tempDataDir } from './support/temp-dir.js';

const A = 'http://127.0.0.1:1/a';
const B = 'http://127.0.0.1:1/b';
const queued = (n: number, url: string) => ({ envelopeId: `evt_${n}`, eventPosition: BigInt(n), url });

t.test('given queued deliveries and their outcomes, the fold restores each state and the checkpoints', async (t) => {
  const events: JournalEvent[] = [
    ...webhooksQueuedEvents([queued(1, A), queued(1, B), queued(2, A)], 2n),
    ...webhooksQueuedEvents([], 5n), // a batch without endpoints still moves the checkpoint
    ...webhookOutcomeEvent(queued(1, A), 1, { result: 'delivered', status: 200 }),
    ...webhookOutcomeEvent(queued(1, B), 4, { result: 'failed', status: 503, error: 'HTTP 503' }),
    ...webhookOutcomeEvent(queued(2, A), 1, { result: 'retry' }),
    emailOutcomeEvent({ eventId: 'e1', serviceRef: 'SO-000001', result: 'sent', detail: '250 OK', messageId: '<evt_1@x>' }, 1n),
    emailOutcomeEvent({ eventId: 'e2', serviceRef: 'SO-000002', result: 'skipped', detail: 'send_email is false', messageId: null }, 2n),
    kafkaPublishedEvent(1n, 2n, 2),
  ];
  const folded = foldDeliveryOutcomes(events);
  t.strictSame(folded.checkpoints, { webhooks: 5n, email: 2n, kafka: 2n });
  t.strictSame(
    folded.webhooks.map((w) => [w.envelopeId, w.url, w.state, w.attempts, w.lastStatus, w.lastError]),
    [
      ['evt_1', A, 'delivered', 1, 200, null],
      ['evt_1', B, 'failed', 4, 503, 'HTTP 503'],
      ['evt_2', A, 'pending', 0, null, null],
    ],
  );
  t.strictSame(
    folded.emails.map((e) => [e.eventId, e.result, e.position]),
    [
      ['e1', 'sent', 1n],
      ['e2', 'skipped', 2n],
    ],
  );

  t.strictSame(foldDeliveryOutcomes([...events].reverse()), folded, 'independent of order');
  t.strictSame(foldDeliveryOutcomes([...events, ...events]), folded, 'duplicates (a journal entry appended twice) change nothing');
});

t.test(
  'delivered wins over failed (an attempt of a replica whose lease ran out); an outcome whose queueing was lost still counts',
  async (t) => {
    const folded = foldDeliveryOutcomes([
      ...webhookOutcomeEvent(queued(7, A), 2, { result: 'delivered', status: 204 }),
      ...webhookOutcomeEvent(queued(7, A), 1, { result: 'failed', status: 500, error: 'late record' }),
    ]);
    t.strictSame(
      folded.webhooks.map((w) => [w.envelopeId, w.eventPosition, w.state]),
      [['evt_7', 7n, 'delivered']],
    );
    t.strictSame(folded.checkpoints, {}, 'no WebhooksQueued: no checkpoint');
  },
);

t.test('unknown types and malformed data are passed over', async (t) => {
  const folded = foldDeliveryOutcomes([
    { type: 'SomethingNewer', data: { through: '99' } },
    { type: 'WebhooksQueued', data: null },
    { type: 'WebhooksQueued', data: { through: 'x', deliveries: [] } },
    { type: 'KafkaPublished', data: { through: 12 } },
    { type: 'EmailSent', data: { event: '-1', event_id: 'e' } },
  ]);
  t.strictSame(folded, { checkpoints: {}, webhooks: [], emails: [] });
});

t.test('events stay small: long reasons are cut, large batches split', async (t) => {
  const [failed] = webhookOutcomeEvent(queued(1, A), 1, { result: 'failed', status: null, error: 'x'.repeat(10_000) });
  t.equal((failed!.data as { error: string }).error.length, MAX_DETAIL);
  const email = emailOutcomeEvent({ eventId: 'e', serviceRef: 'SO-1', result: 'failed', detail: 'y'.repeat(10_000), messageId: null }, 1n);
  t.equal((email.data as { detail: string }).detail.length, MAX_DETAIL);
  const many = webhooksQueuedEvents(
    Array.from({ length: 250 }, (_, i) => queued(i + 1, A)),
    250n,
  );
  t.strictSame(
    many.map((e) => (e.data as { deliveries: unknown[] }).deliveries.length),
    [MAX_QUEUED_PER_EVENT, MAX_QUEUED_PER_EVENT, 50],
  );
  t.ok(many.every((e) => (e.data as { through: string }).through === '250'));
  t.notOk(JSON.stringify(many).includes('order_id'), 'no order_id: the order read model passes over these events');
});

t.test(
  'restore: a delivery queued and not yet sent when the store was lost is queued again with its body; a restored store is not restored twice',
  async (t) => {
    const dir = await tempDataDir(t, 'restore-pending');
    const store = openSqliteEventStore(dir);
    t.teardown(() => store.close());
    const planned = await appendPlannedOrder(store, { orderId: 1 });
    const envelopeId = `evt_${planned.id}`;
    const journal = [
      ...webhooksQueuedEvents(
        [
          { envelopeId, eventPosition: planned.position, url: A },
          { envelopeId, eventPosition: planned.position, url: B },
        ],
        planned.position,
      ),
      ...webhookOutcomeEvent({ envelopeId, eventPosition: planned.position, url: A }, 1, { result: 'delivered', status: 200 }),
    ];
    for (const event of journal) await store.append(event.stream, [{ type: event.type, data: event.data }], ANY);

    const deliveries = openSqliteDeliveryStore(dir);
    t.teardown(() => deliveries.close());
    const logs: string[] = [];
    const summary = await restoreDeliveries(store, deliveries, (message) => logs.push(message));
    t.match(summary, { webhooks: 2, pendingWebhooks: 1, emails: 0, checkpoints: { webhooks: planned.position } });
    const rows = await deliveries.webhookReport.deliveries();
    t.strictSame(
      rows.map((r) => [r.url, r.state]),
      [
        [A, 'delivered'],
        [B, 'pending'],
      ],
    );
    t.equal(rows[1]!.body, readyEnvelopeBody(planned), 'the body derived from the event, as when it was first queued');
    t.equal(rows[1]!.companyGroup, planned.data.company_group);
    t.equal(logs.length, 1, 'logged');
    t.equal(await restoreDeliveries(store, deliveries, () => undefined), undefined, 'a store that is not empty is left alone');
  },
);

t.test('restore: nothing to do on a new log', async (t) => {
  const dir = await tempDataDir(t, 'restore-nothing');
  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  await appendPlannedOrder(store, { orderId: 1 });
  const deliveries = openSqliteDeliveryStore(dir);
  t.teardown(() => deliveries.close());
  t.equal(await restoreDeliveries(store, deliveries, () => undefined), undefined);
  t.equal(await deliveries.restore.isEmpty(), true);
});
