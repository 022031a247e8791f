// The readiness topic, there before the service says it is ready and before anything is sent to it.
// A consumer group that subscribes as soon as /readyz answers 200 must find the topic: a broker's
// auto-creation (off on many clusters) would make it only at the first send, with the broker's default
// partition count. So at start-up the topic is looked up and, when missing, created with
// ORDERS_KAFKA_PARTITIONS and ORDERS_KAFKA_REPLICATION_FACTOR. When it cannot be created (a policy, an
// ACL, too few brokers for the replication factor), /readyz names the topic and the fix, and the
// publisher sends nothing: the events wait in the log, and go out once someone creates the topic.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from './notification-consumer.js';

/** What the watch needs of a kafkajs admin client: the seam where tests put a fake. */
export interface KafkaTopicAdmin {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  listTopics(): Promise<string[]>;
  describeCluster(): Promise<{ brokers: unknown[] }>;
  createTopics(options: {
    topics: { topic: string; numPartitions: number; replicationFactor: number }[];
    waitForLeaders: boolean;
  }): Promise<boolean>;
}

export interface KafkaTopicOptions {
  admin: KafkaTopicAdmin;
  topic: string;
  partitions: number;
  /** Undefined: as many replicas as the cluster has brokers, at most 3. */
  replicationFactor: number | undefined;
  /** First pause between looks while the topic is missing or the brokers away; doubles up to 5 s. Default 500 ms. */
  retryDelayMs?: number;
  log: Log;
}

export interface KafkaTopic {
  /** Resolves once the topic exists. */
  exists(): Promise<void>;
  /** Undefined once the topic exists, or while no broker answers; else why the service is not ready, naming the topic and the fix. */
  notReady(): string | undefined;
  stop(): Promise<void>;
}

const MAX_RETRY_DELAY_MS = 5000;

export function watchKafkaTopic(options: KafkaTopicOptions): KafkaTopic {
  const { admin, topic, partitions, log } = options;
  let state: { kind: 'checking' | 'exists' | 'unreachable' } | { kind: 'missing'; reason: string } = { kind: 'checking' };
  let found!: () => void;
  const exists = new Promise<void>((resolve) => (found = resolve));
  const controller = new AbortController();

  const lookOnce = async (): Promise<void> => {
    await admin.connect();
    if ((await admin.listTopics()).includes(topic)) {
      state = { kind: 'exists' };
      return;
    }
    const replicationFactor = options.replicationFactor ?? Math.min(3, Math.max(1, (await admin.describeCluster()).brokers.length));
    try {
      await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor }], waitForLeaders: true });
      log(`kafka: created the topic ${topic} (${partitions} partitions, replication factor ${replicationFactor})`, undefined, 'info');
      state = { kind: 'exists' };
    } catch (error) {
      // Another replica created it meanwhile: the next look finds it.
      if ((error as { type?: string }).type === 'TOPIC_ALREADY_EXISTS') return;
      const reason = creationRefusal(error);
      if (state.kind !== 'missing' || state.reason !== reason) {
        log(`kafka: ${missingLine(topic, partitions, replicationFactor, reason)}`, undefined, 'error');
      }
      state = { kind: 'missing', reason: missingLine(topic, partitions, replicationFactor, reason) };
    }
  };

  const watching = (async () => {
    let delay = options.retryDelayMs ?? 500;
    while (!controller.signal.aborted) {
      try {
        await lookOnce();
      } catch (error) {
        if (state.kind !== 'unreachable') log(`kafka: could not look up the topic ${topic}; trying again`, error, 'warn');
        if (state.kind === 'checking') state = { kind: 'unreachable' };
      }
      if (state.kind === 'exists') {
        found();
        break;
      }
      await sleep(delay, undefined, { signal: controller.signal }).catch(() => undefined);
      delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
    }
    await admin.disconnect().catch(() => undefined);
  })();

  return {
    exists: () => exists,
    notReady() {
      if (state.kind === 'checking') return `kafka topic ${topic}: being looked up`;
      return state.kind === 'missing' ? state.reason : undefined;
    },
    async stop() {
      controller.abort();
      await watching;
    },
  };
}

function missingLine(topic: string, partitions: number, replicationFactor: number, reason: string): string {
  return (
    `the topic ${topic} does not exist and this service could not create it (${reason}): create it ` +
    `(kafka-topics.sh --create --topic ${topic} --partitions ${partitions} --replication-factor ${replicationFactor}, with a replication factor the cluster has brokers for), ` +
    'or let the service create it (the CREATE permission on the topic; ORDERS_KAFKA_PARTITIONS, ORDERS_KAFKA_REPLICATION_FACTOR). ' +
    'Readiness events wait in the log and are published once it exists'
  );
}

/** kafkajs's error for a refused CreateTopics: its broker error type says more than its message. */
function creationRefusal(error: unknown): string {
  const { type, message } = error as { type?: string; message?: string };
  const inner = (error as { errors?: { type?: string; message?: string }[] }).errors?.[0];
  const detail = inner?.message ?? message ?? String(error);
  return [inner?.type ?? type, detail].filter(Boolean).join(': ');
}
