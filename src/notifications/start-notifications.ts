// The three consumers as the composition root starts them: webhooks and e-mail always, Kafka when
// brokers are configured. Each keeps its own checkpoint, so one that is stuck (SMTP down) does not
// hold up the others. The stores are the composition root's: it picks, opens and closes them.
// Before any consumer starts, an empty delivery store is restored from the outcome events in the log;
// while they run, the outcome journal appends their outcomes to the log.
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import type { EventStore } from '../eventstore/event-store.js';
import type { DeliveryStore } from './delivery-store.js';
import type { MasterData } from '../master-data/master-data.js';
import { startEmailSender } from './email-sender.js';
import type { RenderMessage } from './mail-message.js';
import type { KafkaProducer } from './kafka-publisher.js';
import { watchKafkaTopic } from './kafka-topic.js';
import { startOutcomeJournal } from './outcome-journal.js';
import { restoreDeliveries } from './restore-deliveries.js';
import type { LeaseHolding, Log, NotificationConsumer } from './notification-consumer.js';
import type { NotificationsConfig } from './notifications-config.js';
import { startWebhookDelivery } from './webhook-delivery.js';

export interface NotificationsOptions extends LeaseHolding {
  store: EventStore;
  deliveries: DeliveryStore;
  /** Where versions before the delivery store kept Kafka's checkpoint (read once on an upgrade). */
  checkpoints: CheckpointStore;
  /** The e-mail outbox is <dataDir>/outbox when there is no SMTP URL. */
  dataDir: string;
  masterData: () => MasterData;
  renderMessage: RenderMessage;
  viewerUrl?: (serviceRef: string) => string;
  config: NotificationsConfig;
  /** Instead of a kafkajs producer on config.kafkaBrokers (tests). */
  kafkaProducer?: KafkaProducer;
  log: Log;
}

export async function startNotifications(options: NotificationsOptions): Promise<NotificationConsumer> {
  const { store, deliveries, checkpoints, dataDir, masterData, renderMessage, viewerUrl, config, log } = options;
  await restoreDeliveries(store, deliveries, log);
  const holding = options.holder ? { holder: options.holder } : {};
  const lingerMs = config.lingerMs ?? 0;
  const journal = startOutcomeJournal({ store, deliveries, log, ...holding });
  const onJournaled = journal.wake;
  const started: NotificationConsumer[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((consumer) => consumer.stop()));
    // After the consumers: what they recorded last goes to the log now rather than at the next start.
    await journal.stop();
  };
  try {
    started.push(
      await startWebhookDelivery({
        store,
        deliveries,
        masterData,
        log,
        onJournaled,
        lingerMs,
        ...(config.webhookRetryDelaysMs ? { retryDelaysMs: config.webhookRetryDelaysMs } : {}),
      }),
    );
    started.push(
      await startEmailSender({
        store,
        deliveries,
        dataDir,
        masterData,
        renderMessage,
        log,
        onJournaled,
        lingerMs,
        ...holding,
        ...(viewerUrl ? { viewerUrl } : {}),
        ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
        ...(config.mailFrom ? { from: config.mailFrom } : {}),
      }),
    );
    if (config.kafkaBrokers || options.kafkaProducer) {
      // Loaded only here: a service without Kafka does not load kafkajs at every start.
      const { kafkaClient, startKafkaPublisher } = await import('./kafka-publisher.js');
      // The topic is looked up (and created where allowed) on the brokers; a producer given by a test has none.
      const topic = options.kafkaProducer
        ? undefined
        : watchKafkaTopic({
            admin: kafkaClient({ brokers: config.kafkaBrokers ?? [], log }).admin(),
            topic: config.kafkaTopic,
            partitions: config.kafkaPartitions,
            replicationFactor: config.kafkaReplicationFactor,
            log,
          });
      if (topic) started.push({ stop: () => topic.stop(), notReady: () => topic.notReady() });
      started.push(
        await startKafkaPublisher({
          store,
          deliveries,
          legacyCheckpoints: checkpoints,
          brokers: config.kafkaBrokers ?? [],
          topic: config.kafkaTopic,
          log,
          onJournaled,
          lingerMs,
          ...holding,
          ...(options.kafkaProducer ? { producer: options.kafkaProducer } : {}),
          ...(topic ? { topicExists: () => topic.exists() } : {}),
        }),
      );
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    stop: stopAll,
    notReady: () => started.map((consumer) => consumer.notReady?.()).find((reason) => reason !== undefined),
  };
}
