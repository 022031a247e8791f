// Two replicas on one embedded data directory: two real processes run every notification consumer
// (startNotifications, as the service does) on the same log and the same notifications.db while orders
// keep coming. Each webhook reaches the HTTP receiver once, each e-mail the SMTP server once, and each
// Kafka message is handed to a producer once (through the producer seam). The same again on the test
// servers (MONGODB_URL, KAFKA_BROKERS): checkpoints and delivery claims on MongoDB, messages on a real
// broker read back by a consumer. The store-level claims are in the delivery store contract.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';
import t from 'tap';
import { openMongoDeliveryStore } from '../../src/notifications/mongodb/mongodb-delivery-store.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { dropDatabase } from '../support/mongodb.js';
import { appendPlannedOrder, SECRET } from './support/order-fixtures.js';
import { killReplicas, mailEventId, startReplica, type Replica, type ReplicaServers } from './support/replica-process.js';
import { startSmtpReceiver } from './support/smtp-receiver.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';
import type { TapTest } from '../eventstore/event-store-contract.js';

// kafkajs's 1 ms idle timer off for this process's own clients too (kafkajs-idle-timer.ts)
stopKafkajsIdleTimer();

const ORDERS = 40;

const duplicates = (ids: readonly string[]) => ids.filter((id, i) => ids.indexOf(id) !== i);

async function twoReplicas(t: TapTest, servers?: ReplicaServers): Promise<void> {
  const dataDir = await tempDataDir(t, 'replicas');
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
  const emails = () => smtp.received.map((mail) => mailEventId(mail.raw) ?? '?');
  const kafkaBy: [string[], string[]] = [[], []];
  if (servers) {
    // The messages as a consumer reads them from the broker (the producer seam is not used).
    const kafka = new Kafka({ clientId: 'two-replicas', brokers: servers.kafkaBrokers, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: servers.topic, numPartitions: 2 }], waitForLeaders: true });
    const consumer = kafka.consumer({ groupId: `two-replicas-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: servers.topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void kafkaBy[0].push(String(message.headers?.['event-id'])) });
    t.teardown(async () => {
      await consumer.disconnect();
      await admin.deleteTopics({ topics: [servers.topic] }).catch(() => undefined);
      await admin.disconnect();
      await dropDatabase(servers.mongodbUrl, servers.database);
    });
  }
  const args = { dataDir, webhookUrl: receiver.url(), secret: SECRET, smtpUrl: smtp.url, servers };
  // both replicas create checkpoints.db and notifications.db at the same moment: each store retries
  // SQLite's SQLITE_BUSY from the switch to WAL
  t.teardown(killReplicas);
  const replicas: Replica[] = await Promise.all(kafkaBy.map((kafka) => startReplica(args, kafka)));

  const ids: string[] = [];
  for (let i = 1; i <= ORDERS; i++) {
    ids.push(`evt_${(await appendPlannedOrder(store, { orderId: i })).id}`);
    await sleep(10);
  }
  const kafka = () => [...kafkaBy[0], ...kafkaBy[1]];
  await waitFor(
    `all ${ORDERS} orders on every channel`,
    () => ids.every((id) => webhooks.includes(id) && emails().includes(id) && kafka().includes(id)),
    30_000,
  );
  // Long enough for a second replica's duplicate to arrive, had it sent one.
  await sleep(1000);
  t.same(await Promise.all(replicas.map((replica) => replica.stop())), [0, 0], 'both replicas stop cleanly');

  for (const [channel, sent] of [
    ['webhooks', webhooks],
    ['e-mails', emails()],
    ['Kafka messages', kafka()],
  ] as const) {
    t.strictSame(duplicates(sent), [], `no ${channel} sent twice`);
    t.strictSame([...sent].sort(), [...ids].sort(), `every order's ${channel} once`);
  }
  if (!servers) t.comment(`Kafka messages handed to the producer: ${kafkaBy[0].length} by one replica, ${kafkaBy[1].length} by the other`);
  const records = servers ? await openMongoDeliveryStore(servers.mongodbUrl, servers.database) : openSqliteDeliveryStore(dataDir);
  t.teardown(() => records.close());
  const rows = await records.webhookReport.deliveries();
  t.equal(rows.length, ORDERS, 'one delivery row per event, though both replicas read every event');
  const odd = rows.filter((row) => row.state !== 'delivered' || row.attempts !== 1);
  t.strictSame(
    odd.map((row) => `${row.envelopeId}: ${row.state} after ${row.attempts} attempt(s), last ${row.lastStatus} ${row.lastError ?? ''}`),
    [],
    'each delivered on its first attempt',
  );
  if (odd.length > 0) for (const replica of replicas) t.comment(replica.logs());
  const delivered = (await store.readStream('notifications-webhooks')).filter((event) => event.type === 'WebhookDelivered');
  t.equal(delivered.length, ORDERS, 'and each delivery in the log once');
}

t.test('two processes on one data directory: every webhook, e-mail and Kafka message exactly once', (t) => twoReplicas(t));

const mongodbUrl = process.env.MONGODB_URL;
const kafkaBrokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
t.test(
  'the same on MongoDB and a real Kafka broker: every webhook, e-mail and Kafka message exactly once',
  {
    skip:
      !mongodbUrl || kafkaBrokers.length === 0
        ? 'MONGODB_URL and KAFKA_BROKERS are not both set: no test servers (scripts/test-servers/test-servers start)'
        : false,
  },
  (t) =>
    twoReplicas(t, {
      mongodbUrl: mongodbUrl!,
      database: `replicas_${randomUUID().slice(0, 8)}`,
      kafkaBrokers,
      topic: `orders.replicas-${randomUUID().slice(0, 8)}`,
    }),
);
