// The environment variables of the outbound notifications (documented for README.md in the hand-off).
import { DEFAULT_KAFKA_TOPIC } from './kafka-message.js';

export interface NotificationsConfig {
  /** KAFKA_BROKERS, comma-separated host:port; unset or empty: no Kafka publishing. */
  kafkaBrokers: string[] | undefined;
  /** ORDERS_KAFKA_TOPIC, default orders.packing-instructions. */
  kafkaTopic: string;
  /** ORDERS_SMTP_URL; unset or empty: e-mails are written to <ORDERS_DATA_DIR>/outbox as .eml files. */
  smtpUrl: string | undefined;
  /** ORDERS_MAIL_FROM; unset: the sender's default. */
  mailFrom: string | undefined;
  /** ORDERS_WEBHOOK_RETRY_DELAYS_MS, comma-separated; unset: 30 s, 2 min, 10 min (4 attempts in all). */
  webhookRetryDelaysMs: number[] | undefined;
}

export function notificationsConfigFromEnv(env: NodeJS.ProcessEnv = process.env): NotificationsConfig {
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((broker) => broker.trim()).filter(Boolean);
  return {
    kafkaBrokers: brokers.length > 0 ? brokers : undefined,
    kafkaTopic: env.ORDERS_KAFKA_TOPIC?.trim() || DEFAULT_KAFKA_TOPIC,
    smtpUrl: env.ORDERS_SMTP_URL?.trim() || undefined,
    mailFrom: env.ORDERS_MAIL_FROM?.trim() || undefined,
    webhookRetryDelaysMs: retryDelays(env.ORDERS_WEBHOOK_RETRY_DELAYS_MS),
  };
}

function retryDelays(raw: string | undefined): number[] | undefined {
  if (!raw?.trim()) return undefined;
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.some((delay) => !Number.isInteger(delay) || delay < 0)) {
    throw new Error(`ORDERS_WEBHOOK_RETRY_DELAYS_MS must be comma-separated whole milliseconds, got "${raw}"`);
  }
  return delays;
}
