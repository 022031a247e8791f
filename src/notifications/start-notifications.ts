// The three consumers as the composition root starts them: webhooks and e-mail always, Kafka when
// brokers are configured. Each keeps its own checkpoint, so one that is stuck (SMTP down) does not
// hold up the others. The stores are the composition root's: it picks, opens and closes them.
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import type { EventStore } from '../eventstore/event-store.js';
import type { DeliveryStore } from './delivery-store.js';
import type { MasterData } from '../master-data/master-data.js';
import { startEmailSender, type RenderPdf } from './email-sender.js';
import { startKafkaPublisher } from './kafka-publisher.js';
import type { Log, NotificationConsumer } from './notification-consumer.js';
import type { NotificationsConfig } from './notifications-config.js';
import { startWebhookDelivery } from './webhook-delivery.js';

export interface NotificationsOptions {
  store: EventStore;
  deliveries: DeliveryStore;
  /** Kafka's checkpoint. */
  checkpoints: CheckpointStore;
  /** The e-mail outbox is <dataDir>/outbox when there is no SMTP URL. */
  dataDir: string;
  masterData: () => MasterData;
  renderPdf: RenderPdf;
  viewerUrl?: (serviceRef: string) => string;
  config: NotificationsConfig;
  log: Log;
}

export async function startNotifications(options: NotificationsOptions): Promise<NotificationConsumer> {
  const { store, deliveries, checkpoints, dataDir, masterData, renderPdf, viewerUrl, config, log } = options;
  const started: NotificationConsumer[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((consumer) => consumer.stop()));
  };
  try {
    started.push(await startWebhookDelivery({ store, deliveries, masterData, log, ...(config.webhookRetryDelaysMs ? { retryDelaysMs: config.webhookRetryDelaysMs } : {}) }));
    started.push(
      await startEmailSender({
        store, deliveries, dataDir, masterData, renderPdf, log,
        ...(viewerUrl ? { viewerUrl } : {}),
        ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
        ...(config.mailFrom ? { from: config.mailFrom } : {}),
      }),
    );
    if (config.kafkaBrokers) started.push(await startKafkaPublisher({ store, checkpoints, brokers: config.kafkaBrokers, topic: config.kafkaTopic, log }));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { stop: stopAll };
}
