// Publishes `packing_instructions.ready` to Kafka: each batch of OrderPlanned events is sent, then the
// checkpoint moves. A crash between the two republishes the batch on restart (at-least-once); the
// idempotent producer removes the duplicates its own retries would make within a session, the
// `event-id` header lets consumers remove the rest.
import { Kafka, logLevel, Partitioners, type LogEntry, type Producer } from 'kafkajs';
import type { EventStore } from '../eventstore/event-store.js';
import { KAFKA } from './delivery-store.js';
import { DEFAULT_KAFKA_TOPIC, kafkaRecordFor } from './kafka-message.js';
import { followLog } from '../eventstore/follow-log.js';
import type { Log, NotificationConsumer } from './notification-consumer.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';

export interface KafkaPublisherOptions {
  store: EventStore;
  /** Where this consumer's checkpoint is kept (as `kafka`); the caller opens and closes it. */
  checkpoints: CheckpointStore;
  /** host:port of the bootstrap brokers. */
  brokers: readonly string[];
  /** Default `orders.packing-instructions`. */
  topic?: string;
  clientId?: string;
  /** First pause after a failed send (after kafkajs's own retries); doubles up to 1 min. Default 1 s. */
  retryDelayMs?: number;
  log: Log;
}

export async function startKafkaPublisher(options: KafkaPublisherOptions): Promise<NotificationConsumer> {
  const { log } = options;
  const topic = options.topic ?? DEFAULT_KAFKA_TOPIC;
  const kafka = new Kafka({
    clientId: options.clientId ?? 'orders-service',
    brokers: [...options.brokers],
    // Connecting is retried by our own loop, with backoff and without holding up shutdown; kafkajs's
    // own retries (5 by default, ~10 s) would only make stop() and restarts slower.
    retry: { retries: 2 },
    logLevel: logLevel.WARN,
    // Only WARN and ERROR reach here (logLevel above); they keep their level.
    logCreator: () => (entry: LogEntry) => log(`kafka (${entry.namespace}): ${entry.log.message}`, undefined, entry.level === logLevel.ERROR ? 'error' : 'warn'),
  });
  // Idempotence needs one request in flight per connection and acks from all in-sync replicas.
  // Retries without end, as kafkajs does for an idempotent producer by default (an explicit value,
  // else the client's short connect retry above would be inherited and break idempotence).
  // The partitioner is named so a key lands where Java clients would put it (murmur2), and so kafkajs
  // does not warn about its v2 default change at every start.
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    retry: { retries: Number.MAX_SAFE_INTEGER },
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const { checkpoints } = options;
  // Connect on first use, and again after a failure: a broker that is down at start-up must not stop
  // the service from starting, only delay publishing.
  let connected: Promise<void> | undefined;
  const connect = (): Promise<void> => (connected ??= producer.connect().catch((error: unknown) => {
    connected = undefined;
    throw error;
  }));

  let stop!: () => void;
  const stopping = new Promise<'stopping'>((resolve) => (stop = () => resolve('stopping')));

  const follower = await followLog({
    store: options.store,
    name: 'kafka',
    types: ['OrderPlanned'],
    loadCheckpoint: () => checkpoints.load(KAFKA),
    retryDelayMs: options.retryDelayMs ?? 1000,
    log,
    async handle(events) {
      const record = kafkaRecordFor(events, topic);
      if (record.messages.length > 0) {
        const sent = (async () => {
          await connect();
          await producer.send(record);
        })();
        // The idempotent producer retries a send without end while the brokers are away; shutdown must
        // not wait for them. A send given up on here may still land: then it is published again on the
        // next start, which at-least-once allows.
        sent.catch(() => undefined);
        if ((await Promise.race([sent.then(() => 'sent' as const), stopping])) === 'stopping') return;
      }
      await checkpoints.save(KAFKA, events.at(-1)!.position);
    },
  });
  return {
    async stop() {
      stop();
      await follower.stop();
      if (connected) {
        const disconnected = producer.disconnect().catch((error: unknown) => log('kafka: disconnect failed', error));
        await Promise.race([disconnected, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      }
    },
  };
}
