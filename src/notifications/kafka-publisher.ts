// Publishes `packing_instructions.ready` to Kafka: each batch of OrderPlanned events is sent, then the
// events are recorded as published and the checkpoint moves, in the delivery store. A crash between the
// two republishes the batch on restart (at-least-once); the idempotent producer removes the duplicates
// its own retries would make within a session, the `event-id` header lets consumers remove the rest.
// Replicas on one delivery store lease each event before sending it (as the e-mail sender does): a
// replica takes the events of a batch in log order, waits while another holds one, and leaves out those
// recorded as published; so two processes publish each event once.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, Partitioners, type LogEntry, type ProducerRecord } from 'kafkajs';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { KAFKA, type DeliveryStore } from './delivery-store.js';
import { kafkaPublishedEvent } from './delivery-outcomes.js';
import { DEFAULT_KAFKA_TOPIC, kafkaRecordFor } from './kafka-message.js';
import { followLog } from '../eventstore/follow-log.js';
import type { LeaseHolding, Lingering, Log, NotificationConsumer } from './notification-consumer.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import type { LeaseStore } from '../leases/lease-store.js';
import { renewWhileWorking } from '../leases/renew-while.js';
import { ANNOUNCED_EVENT_TYPES, isAnnounced } from './ready-envelope.js';
import { stopKafkajsIdleTimer } from './kafkajs-idle-timer.js';

/** What the publisher needs of a kafkajs producer: the seam where tests put a fake. */
export interface KafkaProducer {
  connect(): Promise<void>;
  send(record: ProducerRecord): Promise<unknown>;
  disconnect(): Promise<void>;
}

export interface KafkaPublisherOptions extends LeaseHolding, Lingering {
  store: EventStore;
  /** Leases, what was published and this consumer's checkpoint (as `kafka`); the caller opens and closes it. */
  deliveries: Pick<DeliveryStore, 'checkpoints' | 'kafka' | 'kafkaLeases'>;
  /**
   * Where earlier versions kept the `kafka` checkpoint: read at start, and the further of it and the
   * delivery store's is used, so an upgrade does not publish everything again.
   */
  legacyCheckpoints?: CheckpointStore;
  /** host:port of the bootstrap brokers. */
  brokers: readonly string[];
  /** Instead of a kafkajs producer on `brokers` (tests). */
  producer?: KafkaProducer;
  /**
   * How long a lease on an event holds off other replicas; renewed while a send goes on, so it only
   * bounds how long the events of a holder that died (or lost the notifications' lease while its store
   * was away) wait for another. Default 30 s.
   */
  leaseMs?: number;
  /** Called after an outcome event was journaled, so that it reaches the log soon (outcome-journal.ts). */
  onJournaled?: () => void;
  /** Default `orders.packing-instructions`. */
  topic?: string;
  clientId?: string;
  /** First pause after a failed send (after kafkajs's own retries); doubles up to maxRetryDelayMs. Default 1 s. */
  retryDelayMs?: number;
  /** The longest pause between sends that fail. Default 5 s (KAFKA_RETRY_CEILING_MS). */
  maxRetryDelayMs?: number;
  /** Resolves once the topic exists (kafka-topic.ts): nothing is sent before, the events wait in the log. */
  topicExists?: () => Promise<void>;
  log: Log;
}

/**
 * Sends that keep failing are tried again at least this often, not once a minute as the other consumers'
 * are: a broker back from a restart gets the waiting messages within seconds. Under the broker being
 * killed again and again, the pause had grown to near that minute and the last messages waited for it
 * after the broker was back (test/e2e/kafka-topic.test.ts, docs/benchmarks.md). A failed attempt costs one
 * connection attempt to the brokers.
 */
export const KAFKA_RETRY_CEILING_MS = 5_000;

export async function startKafkaPublisher(options: KafkaPublisherOptions): Promise<NotificationConsumer> {
  const { log, deliveries } = options;
  const topic = options.topic ?? DEFAULT_KAFKA_TOPIC;
  const producer = options.producer ?? kafkajsProducer(options);
  const leaseMs = options.leaseMs ?? 30_000;
  const leasePollMs = 200;
  const holder = options.holder ?? randomUUID();
  const connection = lazyConnection(producer);
  let stop!: () => void;
  const stopping = new Promise<'stopping'>((resolve) => (stop = () => resolve('stopping')));
  let isStopping = false;
  const leasing = { deliveries, holder, leaseMs, pollMs: leasePollMs, stopping: () => isStopping };

  const follower = await followLog({
    store: options.store,
    name: 'kafka',
    types: ANNOUNCED_EVENT_TYPES,
    loadCheckpoint: () => kafkaCheckpoint(options),
    retryDelayMs: options.retryDelayMs ?? 1000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? KAFKA_RETRY_CEILING_MS,
    lingerMs: options.lingerMs ?? 0,
    log,
    async handle(events) {
      const mine: RecordedEvent[] = [];
      for (const event of events) {
        if (!isAnnounced(event)) continue;
        const lease = await leaseOrSkip(leasing, event);
        if (lease === 'stopping') return;
        if (lease === 'leased') mine.push(event);
      }
      const record = kafkaRecordFor(mine, topic);
      if (record.messages.length > 0) {
        // A send to a missing topic would be retried without end, or create it with the broker's defaults.
        if ((await Promise.race([options.topicExists?.(), stopping])) === 'stopping') return;
        const held = { leases: deliveries.kafkaLeases, ids: mine.map((event) => event.id), holder, leaseMs };
        const sent = sendHoldingLeases(() => connection.connect().then(() => producer.send(record)), held, stopping);
        if ((await sent) === 'stopping') return;
      }
      const through = events.at(-1)!.position;
      const journal = mine.length > 0 ? [kafkaPublishedEvent(mine[0]!.position, through, mine.length)] : [];
      await deliveries.kafka.recordPublished(
        mine.map((event) => event.id),
        through,
        journal,
      );
      if (journal.length > 0) options.onJournaled?.();
    },
  });
  return {
    async stop() {
      isStopping = true;
      stop();
      await follower.stop();
      await deliveries.kafkaLeases
        .releaseAll(holder)
        .catch((error: unknown) => log('kafka: releasing its leases failed; they run out on their own', error, 'warn'));
      if (connection.used()) {
        const disconnected = producer.disconnect().catch((error: unknown) => log('kafka: disconnect failed', error));
        await Promise.race([disconnected, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      }
    },
  };
}

/** The further of the two: a delivery store may still hold a stale `kafka` row from the version before the checkpoint store kept it. */
async function kafkaCheckpoint(options: Pick<KafkaPublisherOptions, 'deliveries' | 'legacyCheckpoints'>): Promise<bigint | undefined> {
  const [current, legacy] = await Promise.all([options.deliveries.checkpoints.checkpoint(KAFKA), options.legacyCheckpoints?.load(KAFKA)]);
  return current === undefined || (legacy !== undefined && legacy > current) ? legacy : current;
}

/**
 * Connects on first use, and again after a failure: a broker that is down at start-up must not stop
 * the service from starting, only delay publishing.
 */
function lazyConnection(producer: KafkaProducer): { connect(): Promise<void>; used(): boolean } {
  let connected: Promise<void> | undefined;
  return {
    connect: () =>
      (connected ??= producer.connect().catch((error: unknown) => {
        connected = undefined;
        throw error;
      })),
    used: () => connected !== undefined,
  };
}

interface Leasing {
  deliveries: KafkaPublisherOptions['deliveries'];
  holder: string;
  leaseMs: number;
  pollMs: number;
  stopping: () => boolean;
}

/** Leases an event's message, waiting while another replica holds it; 'published' once someone has sent it. */
async function leaseOrSkip(leasing: Leasing, event: RecordedEvent): Promise<'leased' | 'published' | 'stopping'> {
  const { deliveries, holder, leaseMs } = leasing;
  for (;;) {
    if (await deliveries.kafka.published(event.id)) return 'published';
    const now = Date.now();
    if (await deliveries.kafkaLeases.acquire(event.id, holder, now, now + leaseMs)) {
      return (await deliveries.kafka.published(event.id)) ? 'published' : 'leased';
    }
    if (leasing.stopping()) return 'stopping';
    await sleep(leasing.pollMs);
  }
}

/**
 * Sends, holding the events' leases while the send goes on, however long the brokers take. The
 * idempotent producer retries a send without end while the brokers are away; shutdown must not wait for
 * them. A send given up on here may still land: then it is published again on the next start, which
 * at-least-once allows.
 */
async function sendHoldingLeases(
  send: () => Promise<unknown>,
  held: { leases: LeaseStore; ids: readonly string[]; holder: string; leaseMs: number },
  stopping: Promise<'stopping'>,
): Promise<'sent' | 'stopping'> {
  const sent = send();
  sent.catch(() => undefined);
  const stopRenewing = renewWhileWorking(held.leases, { keys: held.ids, holder: held.holder, leaseMs: held.leaseMs });
  try {
    return await Promise.race([sent.then(() => 'sent' as const), stopping]);
  } finally {
    stopRenewing();
  }
}

/** The kafkajs client of the publisher and of the topic's watch (kafka-topic.ts). */
export function kafkaClient(options: { brokers: readonly string[]; clientId?: string | undefined; log: Log }): Kafka {
  const { log } = options;
  stopKafkajsIdleTimer();
  return new Kafka({
    clientId: options.clientId ?? 'orders-service',
    brokers: [...options.brokers],
    // Connecting is retried by our own loop, with backoff and without holding up shutdown; kafkajs's
    // own retries (5 by default, ~10 s) would only make stop() and restarts slower.
    retry: { retries: 2 },
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => log(kafkaLogLine(entry), undefined, kafkaLogLevel(entry)),
  });
}

function kafkajsProducer(options: KafkaPublisherOptions): KafkaProducer {
  const kafka = kafkaClient(options);
  // Idempotence needs one request in flight per connection and acks from all in-sync replicas.
  // Retries without end, as kafkajs does for an idempotent producer by default (an explicit value,
  // else the client's short connect retry above would be inherited and break idempotence).
  // The partitioner is named so a key lands where Java clients would put it (murmur2), and so kafkajs
  // does not warn about its v2 default change at every start.
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    retry: { retries: Number.MAX_SAFE_INTEGER },
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}

/** kafkajs's line with its reason: a bare "Response InitProducerId(key: 22, version: 1)" says nothing. */
export function kafkaLogLine(entry: LogEntry): string {
  const reason = (entry.log as { error?: unknown }).error;
  return `kafka (${entry.namespace}): ${entry.log.message}${typeof reason === 'string' && reason ? `: ${reason}` : ''}`;
}

/**
 * Only WARN and ERROR reach here (logLevel above). kafkajs logs every error answer of a broker at ERROR,
 * the retriable ones too: a new broker answers the first InitProducerId with "The coordinator is not
 * available" while it creates its transaction log, and the producer retries. Those are warnings: a send
 * that fails for good is logged as an error by the publisher's own loop.
 */
export function kafkaLogLevel(entry: LogEntry): 'warn' | 'error' {
  if (entry.level !== logLevel.ERROR) return 'warn';
  return entry.namespace === 'Connection' && entry.log.message.startsWith('Response ') ? 'warn' : 'error';
}
