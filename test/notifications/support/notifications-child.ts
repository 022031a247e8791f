// Child process of two-replicas.test and restore-from-log.test: the three notification consumers as the
// service starts them (startNotifications: restore, journal, webhooks, e-mail over SMTP, Kafka through
// the producer seam) on a data directory, until SIGTERM (clean stop, exit 0) or SIGKILL.
// Usage: node notifications-child.js <dataDir> <webhookUrl> <secret> <smtpUrl> [<servers JSON>]
// Prints "ready" once started, and "kafka <event-id>" for each message handed to the producer.
// With servers ({"mongodbUrl", "database", "kafkaBrokers", "topic"}) the checkpoints and the delivery
// store are on MongoDB and the messages go to a real Kafka broker, as on replicas that share no disk.
import type { ProducerRecord } from 'kafkajs';
import { openMongoCheckpointStore } from '../../../src/checkpoints/mongodb-checkpoint-store.js';
import { openSqliteCheckpointStore } from '../../../src/checkpoints/sqlite-checkpoint-store.js';
import { openMongoDeliveryStore } from '../../../src/notifications/mongodb/mongodb-delivery-store.js';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { openSqliteDeliveryStore } from '../../../src/notifications/sqlite/sqlite-delivery-store.js';
import { startNotifications } from '../../../src/notifications/start-notifications.js';
import { composedHere } from '../../../src/notifications/mail-message.js';
import { masterDataWith } from './order-fixtures.js';

const [dataDir, url, secret, smtpUrl, serversJson] = process.argv.slice(2);
const servers = serversJson
  ? (JSON.parse(serversJson) as { mongodbUrl: string; database: string; kafkaBrokers: string[]; topic: string })
  : undefined;
if (!dataDir || !url || !secret || !smtpUrl) {
  // tap runs every .js file under a directory it is given; without arguments this is not a test.
  console.log('1..0 # child process of the notification replica tests, not a test');
  process.exit(0);
}

// Never outlive the test that spawned us.
setTimeout(() => process.exit(2), 90_000).unref();

const store = openSqliteEventStore(dataDir, { pollIntervalMs: 20 });
const deliveries = servers ? await openMongoDeliveryStore(servers.mongodbUrl, servers.database) : openSqliteDeliveryStore(dataDir);
const checkpoints = servers ? await openMongoCheckpointStore(servers.mongodbUrl, servers.database) : openSqliteCheckpointStore(dataDir);
const notifications = await startNotifications({
  store,
  deliveries,
  checkpoints,
  dataDir,
  masterData: () => masterDataWith({ webhooks: [{ url, secret }], notification_emails: ['ops@acme.example'] }),
  renderMessage: composedHere(async () => Buffer.from('%PDF-1.4\n%%EOF\n')),
  config: {
    kafkaBrokers: servers?.kafkaBrokers,
    kafkaTopic: servers?.topic ?? 'orders.test',
    kafkaPartitions: 2,
    kafkaReplicationFactor: undefined,
    smtpUrl,
    mailFrom: 'Orders <orders@acme.example>',
    webhookRetryDelaysMs: [50, 50, 50],
  },
  ...(servers
    ? {}
    : {
        kafkaProducer: {
          connect: async () => undefined,
          disconnect: async () => undefined,
          async send(record: ProducerRecord) {
            for (const message of record.messages) process.stdout.write(`kafka ${String(message.headers?.['event-id'])}\n`);
          },
        },
      }),
  log: (message, error) => process.stderr.write(`${message}${error ? ` ${String(error)}` : ''}\n`),
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  notifications
    .stop()
    .then(() => deliveries.close())
    .then(() => checkpoints.close())
    .then(() => store.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`stop failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
});
