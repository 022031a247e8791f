import t from 'tap';
import { notificationsConfigFromEnv } from '../../src/config.js';

t.test('defaults: no Kafka, no SMTP (outbox), the default topic', async (t) => {
  t.strictSame(notificationsConfigFromEnv({}), { kafkaBrokers: undefined, kafkaTopic: 'orders.packing-instructions', smtpUrl: undefined, mailFrom: undefined, webhookRetryDelaysMs: undefined });
  t.strictSame(notificationsConfigFromEnv({ KAFKA_BROKERS: ' ', ORDERS_SMTP_URL: '', ORDERS_KAFKA_TOPIC: '' }).kafkaBrokers, undefined, 'empty is unset');
});

t.test('everything set', async (t) => {
  t.strictSame(
    notificationsConfigFromEnv({
      KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9092',
      ORDERS_KAFKA_TOPIC: 'orders.events',
      ORDERS_SMTP_URL: 'smtp://mail.example:587',
      ORDERS_MAIL_FROM: 'Orders <orders@acme.example>',
      ORDERS_WEBHOOK_RETRY_DELAYS_MS: '1000, 5000,60000',
    }),
    { kafkaBrokers: ['kafka-1:9092', 'kafka-2:9092'], kafkaTopic: 'orders.events', smtpUrl: 'smtp://mail.example:587', mailFrom: 'Orders <orders@acme.example>', webhookRetryDelaysMs: [1000, 5000, 60000] },
  );
});

t.test('retry delays that are not whole milliseconds are refused at start-up', async (t) => {
  t.throws(() => notificationsConfigFromEnv({ ORDERS_WEBHOOK_RETRY_DELAYS_MS: '30s,2m' }), /ORDERS_WEBHOOK_RETRY_DELAYS_MS/);
});
