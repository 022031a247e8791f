// notifications.db deleted: the log's delivery outcomes are the memory of what went out. Real processes
// on a real data directory deliver webhooks (real HTTP receiver), e-mails (real SMTP server) and Kafka
// messages (through the producer seam); the file is deleted between two runs; the second run sends
// nothing again, and a new order still goes out once on every channel.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { EMAIL_OUTCOMES_STREAM, KAFKA_OUTCOMES_STREAM, WEBHOOK_OUTCOMES_STREAM } from '../../src/notifications/delivery-outcomes.js';
import { EMAIL, KAFKA, WEBHOOKS } from '../../src/notifications/delivery-store.js';
import { NOTIFICATIONS_FILE, openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { appendPlannedOrder, SECRET } from './support/order-fixtures.js';
import { killReplicas, mailEventId, startReplica } from './support/replica-process.js';
import { startSmtpReceiver } from './support/smtp-receiver.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';

const ORDERS = 25;

const countOf = (ids: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
};

t.test(
  'notifications.db deleted between two runs: nothing the log shows as delivered is sent again; a new order goes out once',
  async (t) => {
    const dataDir = await tempDataDir(t, 'restore');
    const store = openSqliteEventStore(dataDir);
    t.teardown(() => store.close());
    const webhooks: string[] = [];
    const receiver = await startWebhookReceiver(SECRET, (request) => {
      webhooks.push(request.id);
      return 200;
    });
    t.teardown(() => receiver.close());
    const smtp = await startSmtpReceiver();
    t.teardown(() => smtp.close());
    const kafka: string[] = [];
    const args = { dataDir, webhookUrl: receiver.url(), secret: SECRET, smtpUrl: smtp.url };
    const emails = () => smtp.received.map((mail) => mailEventId(mail.raw) ?? '?');

    const ids: string[] = [];
    for (let i = 1; i <= ORDERS; i++) ids.push(`evt_${(await appendPlannedOrder(store, { orderId: i })).id}`);
    t.teardown(killReplicas);
    const first = await startReplica(args, kafka);
    await waitFor(
      `${ORDERS} webhooks, e-mails and Kafka messages`,
      () => webhooks.length >= ORDERS && smtp.received.length >= ORDERS && kafka.length >= ORDERS,
      30_000,
    );
    t.equal(await first.stop(), 0, 'the first run stops cleanly');

    const outcomes = async (stream: string) => (await store.readStream(stream)).map((event) => event.type);
    const webhookOutcomes = await outcomes(WEBHOOK_OUTCOMES_STREAM);
    t.equal(webhookOutcomes.filter((type) => type === 'WebhookDelivered').length, ORDERS, 'each delivery is in the log');
    t.ok(webhookOutcomes.includes('WebhooksQueued'), 'and what was queued');
    t.equal((await outcomes(EMAIL_OUTCOMES_STREAM)).filter((type) => type === 'EmailSent').length, ORDERS, 'each e-mail is in the log');
    t.ok((await outcomes(KAFKA_OUTCOMES_STREAM)).includes('KafkaPublished'), 'Kafka publishing is in the log');
    const largest = Math.max(
      ...(await store.readAll(undefined, 10_000))
        .filter((e) => e.stream.startsWith('notifications-'))
        .map((e) => JSON.stringify(e.data).length),
    );
    t.ok(largest < 4096, `outcome events stay small (largest ${largest} bytes of JSON)`);
    t.comment(
      `log events for ${ORDERS} orders: ${(await store.readAll(undefined, 10_000)).length} (${webhookOutcomes.length} webhook, ${(await outcomes(EMAIL_OUTCOMES_STREAM)).length} e-mail, ${(await outcomes(KAFKA_OUTCOMES_STREAM)).length} Kafka outcome events)`,
    );

    for (const suffix of ['', '-wal', '-shm']) await rm(join(dataDir, NOTIFICATIONS_FILE + suffix), { force: true });

    const second = await startReplica(args, kafka);
    const newId = `evt_${(await appendPlannedOrder(store, { orderId: ORDERS + 1 })).id}`;
    await waitFor(
      'the new order on every channel',
      () => webhooks.includes(newId) && emails().includes(newId) && kafka.includes(newId),
      30_000,
    );
    await sleep(1000); // time for anything sent again to arrive, had it been
    t.equal(await second.stop(), 0, 'the second run stops cleanly');
    t.match(second.logs(), /restored 25 webhook deliveries \(0 still to send\), 25 e-mail records/, 'the restore is logged');

    const all = [...ids, newId];
    for (const [channel, sent] of [
      ['webhooks', webhooks],
      ['e-mails', emails()],
      ['Kafka messages', kafka],
    ] as const) {
      t.strictSame(
        [...countOf(sent).entries()].filter(([, n]) => n > 1),
        [],
        `no ${channel} sent twice`,
      );
      t.strictSame([...countOf(sent).keys()].sort(), [...all].sort(), `every order's ${channel} once`);
    }
    const restored = openSqliteDeliveryStore(dataDir);
    t.teardown(() => restored.close());
    const head = await store.headPosition();
    t.ok(
      (await restored.checkpoints.checkpoint(WEBHOOKS))! > 0n &&
        (await restored.checkpoints.checkpoint(EMAIL))! > 0n &&
        (await restored.checkpoints.checkpoint(KAFKA))! > 0n,
      'checkpoints restored',
    );
    t.ok((await restored.checkpoints.checkpoint(WEBHOOKS))! <= head!, 'not past the log');
    t.strictSame(
      await restored.webhookReport.counts(),
      { pending: 0, delivered: ORDERS + 1, failed: 0 },
      'the restored deliveries and the new one',
    );
  },
);
