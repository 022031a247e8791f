import t from 'tap';
import { notificationsConfigFromEnv } from '../../src/config.js';

t.test('defaults: no Kafka, no SMTP (outbox), the default topic', async (t) => {
  t.strictSame(notificationsConfigFromEnv({}), {
    kafkaBrokers: undefined,
    kafkaTopic: 'orders.packing-instructions',
    kafkaPartitions: 6,
    kafkaReplicationFactor: undefined,
    smtpUrl: undefined,
    mailFrom: undefined,
    webhookRetryDelaysMs: undefined,
    emailYieldMs: 2000,
    lingerMs: 20,
  });
  t.strictSame(
    notificationsConfigFromEnv({ KAFKA_BROKERS: ' ', ORDERS_SMTP_URL: '', ORDERS_KAFKA_TOPIC: '' }).kafkaBrokers,
    undefined,
    'empty is unset',
  );
});

t.test('everything set', async (t) => {
  t.strictSame(
    notificationsConfigFromEnv({
      KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9092',
      ORDERS_KAFKA_TOPIC: 'orders.events',
      ORDERS_KAFKA_PARTITIONS: '12',
      ORDERS_KAFKA_REPLICATION_FACTOR: '3',
      ORDERS_SMTP_URL: 'smtp://mail.example:587',
      ORDERS_MAIL_FROM: 'Orders <orders@acme.example>',
      ORDERS_WEBHOOK_RETRY_DELAYS_MS: '1000, 5000,60000',
      ORDERS_EMAIL_YIELD_MS: '0',
      ORDERS_NOTIFICATIONS_LINGER_MS: '0',
    }),
    {
      kafkaBrokers: ['kafka-1:9092', 'kafka-2:9092'],
      kafkaTopic: 'orders.events',
      kafkaPartitions: 12,
      kafkaReplicationFactor: 3,
      smtpUrl: 'smtp://mail.example:587',
      mailFrom: 'Orders <orders@acme.example>',
      webhookRetryDelaysMs: [1000, 5000, 60000],
      emailYieldMs: 0,
      lingerMs: 0,
    },
  );
});

t.test('partitions, replication factor, e-mail yield and linger that are not whole numbers in range are refused at start-up', async (t) => {
  t.throws(
    () => notificationsConfigFromEnv({ ORDERS_EMAIL_YIELD_MS: '-1' }),
    /ORDERS_EMAIL_YIELD_MS must be a whole number from 0 to 60000/,
  );
  t.throws(
    () => notificationsConfigFromEnv({ ORDERS_NOTIFICATIONS_LINGER_MS: '5000' }),
    /ORDERS_NOTIFICATIONS_LINGER_MS must be a whole number from 0 to 1000/,
  );
  t.throws(() => notificationsConfigFromEnv({ ORDERS_KAFKA_PARTITIONS: '0' }), /ORDERS_KAFKA_PARTITIONS must be a whole number from 1/);
  t.throws(
    () => notificationsConfigFromEnv({ ORDERS_KAFKA_REPLICATION_FACTOR: 'three' }),
    /ORDERS_KAFKA_REPLICATION_FACTOR must be a whole number/,
  );
});

t.test('retry delays that are not whole milliseconds are refused at start-up', async (t) => {
  t.throws(() => notificationsConfigFromEnv({ ORDERS_WEBHOOK_RETRY_DELAYS_MS: '30s,2m' }), /ORDERS_WEBHOOK_RETRY_DELAYS_MS/);
});
