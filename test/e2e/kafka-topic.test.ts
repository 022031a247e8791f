// A Kafka consumer deployed before the first order: on a broker that never creates a topic by itself
// (auto.create.topics.enable=false, as on many production clusters), the service creates its topic
// before /readyz answers 200, or, where it cannot, says so in /readyz and keeps every readiness event
// in the log until someone creates the topic. Then the broker is killed (SIGKILL) and started again 10
// times while submits keep coming. The three share one broker of their own (the suite's is left alone),
// each with its own topic and the service as a process on the embedded storage; they run when the test
// servers are there (KAFKA_BROKERS set: the jars are cached).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import { stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';
import t from 'tap';
import type { TapTest } from '../eventstore/event-store-contract.js';
import { checkReadyMessage } from '../../src/notifications/check-ready-message.js';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { kafkaServer, type KafkaServer } from '../support/servers/test-servers.js';
import { startServiceProcess, until, type ServiceProcess } from './service-process.js';

// kafkajs's 1 ms idle timer off for this process's own clients too (kafkajs-idle-timer.ts)
stopKafkajsIdleTimer();

t.setTimeout(600_000);
const skip = process.env.KAFKA_BROKERS
  ? false
  : 'KAFKA_BROKERS is not set: start the test servers (scripts/test-servers/test-servers start)';

function scratch(t: TapTest, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Started once, for the three tests below; the last of them kills it again and again.
let kafka: KafkaServer;
if (!skip) {
  t.before(async () => {
    kafka = await kafkaServer(scratch(t, 'kafka-topic-'), { autoCreateTopics: false, quickRestart: true });
    // Stopped, not killed, at the end: a graceful stop keeps its class-data archive for the next run's restarts.
    t.teardown(() => kafka.stop());
    t.comment(`own broker (auto.create.topics.enable=false) up in ${await kafka.start()} ms (pid ${kafka.pid})`);
  });
}

async function service(t: TapTest, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const dataDir = scratch(t, 'orders-kafka-topic-');
  writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(testSeed()));
  const started = await startServiceProcess({
    ORDERS_DATA_DIR: dataDir,
    ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
    KAFKA_BROKERS: kafka.brokers,
    ORDERS_PLANNER_THREADS: '1',
    ...env,
  });
  t.teardown(() => started.stop());
  return started;
}

/** Every message of `topic` from the beginning, read by a consumer group of its own, until `enough` holds. */
async function readAll(
  t: TapTest,
  topic: string,
  enough: (messages: KafkaMessage[]) => boolean,
  timeoutMs = 120_000,
): Promise<KafkaMessage[]> {
  const client = new Kafka({ clientId: 'topic-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING, retry: { retries: 30 } });
  const consumer = client.consumer({ groupId: `topic-test-${Date.now()}`, retry: { retries: 30 } });
  const received: KafkaMessage[] = [];
  await consumer.connect();
  t.teardown(() => consumer.disconnect());
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
  await until(`messages on ${topic}`, () => enough(received), timeoutMs);
  return received;
}

async function submit(
  service: ServiceProcess,
  reference: string,
): Promise<{ status: number; serviceRef: string | undefined; orderId: number | undefined }> {
  const response = await service.request('POST', '/api/v1/orders/submit-order/', { key: ACME_KEY, body: acmeOrder({ reference }) });
  return { status: response.status, serviceRef: response.body?.service_ref, orderId: response.body?.order_id };
}

/** Issue 59 in the storm: every fourth order amended (If-Match *), every fourth cancelled, each right after its submit. */
async function changeSome(service: ServiceProcess, i: number, orderId: number): Promise<number> {
  const path = `/api/v1/orders/detailed-orders/${orderId}/`;
  if (i % 4 === 1) {
    const body = acmeOrder({ reference: `STORM-${i}`, order_items: [{ item: 'SKU-1001', quantity: 30 }] });
    return (await service.request('PUT', path, { key: ACME_KEY, body, headers: { 'if-match': '*' } })).status;
  }
  if (i % 4 === 2) return (await service.request('POST', `${path}cancel/`, { key: ACME_KEY })).status;
  return 200;
}

const keysOf = (messages: KafkaMessage[]) => new Set(messages.map((message) => message.key!.toString()));

t.test(
  'the service creates its topic, with ORDERS_KAFKA_PARTITIONS, before /readyz answers 200; a consumer subscribed then reads every order',
  { skip },
  async (t) => {
    const topic = 'orders.created-by-the-service';
    const orders = await service(t, { ORDERS_KAFKA_TOPIC: topic, ORDERS_KAFKA_PARTITIONS: '3', LOG_LEVEL: 'info' });
    await until('/readyz 200', async () => (await orders.request('GET', '/readyz')).status === 200);

    const admin = new Kafka({ clientId: 'topic-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    t.teardown(() => admin.disconnect());
    const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    t.equal(metadata?.partitions.length, 3, 'there as soon as the service is ready, with 3 partitions');
    // Its log lines reach this process through a pipe, a moment after /readyz may have answered.
    const said = new RegExp(`created the topic ${topic.replace('.', '\\.')} \\(3 partitions, replication factor 1\\)`);
    await until('the line saying so', () => said.test(orders.output()), 10_000).catch(() => {});
    t.match(orders.output(), said, 'and it says so (one broker: one replica)');

    const refs: string[] = [];
    for (const reference of ['TOPIC-1', 'TOPIC-2', 'TOPIC-3']) {
      const { status, serviceRef } = await submit(orders, reference);
      t.equal(status, 201);
      refs.push(serviceRef!);
    }
    const messages = await readAll(t, topic, (received) => keysOf(received).size >= refs.length);
    t.strictSame([...keysOf(messages)].sort(), refs.sort(), 'a message for every order');
    for (const message of messages) t.strictSame(checkReadyMessage(message), [], `${message.key}: keeps the contract`);
  },
);

t.test(
  'a topic the service cannot create: /readyz names it and the fix; the events wait, and go out once it is created by hand',
  { skip },
  async (t) => {
    const topic = 'orders.created-by-hand';
    // Three replicas asked of a cluster of one broker: the broker refuses to create the topic.
    const orders = await service(t, { ORDERS_KAFKA_TOPIC: topic, ORDERS_KAFKA_REPLICATION_FACTOR: '3' });
    let ready: { status: number; body: any } = { status: 0, body: undefined };
    await until('/readyz to name the missing topic', async () => {
      ready = await orders.request('GET', '/readyz');
      return /does not exist/.test(ready.body?.checks?.kafka_topic ?? '');
    });
    t.equal(ready.status, 503, 'not ready');
    t.match(
      ready.body.checks.kafka_topic,
      new RegExp(
        `the topic ${topic.replace('.', '\\.')} does not exist and this service could not create it \\(.*\\): create it \\(kafka-topics\\.sh --create --topic ${topic.replace('.', '\\.')} --partitions 6 --replication-factor 3`,
      ),
    );
    t.match(ready.body.checks.kafka_topic, /Readiness events wait in the log and are published once it exists/);

    // Orders are taken and planned meanwhile; their readiness events stay in the log.
    const refs: string[] = [];
    for (const reference of ['HAND-1', 'HAND-2']) {
      const { status, serviceRef } = await submit(orders, reference);
      t.equal(status, 201, `${reference} accepted while the topic is missing`);
      refs.push(serviceRef!);
    }
    await until('both orders planned', async () => {
      const list = await orders.request('GET', '/api/v1/orders/detailed-orders/', { key: ACME_KEY });
      return list.body.results.every((order: { status: string }) => order.status === 'planned');
    });

    const admin = new Kafka({ clientId: 'topic-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    t.teardown(() => admin.disconnect());
    t.notOk((await admin.listTopics()).includes(topic), 'nothing created the topic: no send reached the broker');
    await admin.createTopics({ topics: [{ topic, numPartitions: 2, replicationFactor: 1 }], waitForLeaders: true });
    t.comment('topic created by hand');
    await until('/readyz 200 once the topic exists', async () => (await orders.request('GET', '/readyz')).status === 200);
    const messages = await readAll(t, topic, (received) => keysOf(received).size >= refs.length);
    t.strictSame([...keysOf(messages)].sort(), refs.sort(), 'the events that waited are published');
  },
);

// Ten: each restart is a JVM start that takes the two cores for seconds, and the suite keeps to its time;
// the chaos harness and production-stack-outages kill the broker mid-burst as well.
const KILLS = 10;
// A submit every ~200 ms on top of its own time: a steady stream through every kill and restart, without
// the hundreds of plans per minute that would compete for the two cores with the broker's restarts.
const SUBMIT_PAUSE_MS = 200;

t.test(
  `the broker killed with SIGKILL and started again ${KILLS} times while submits keep coming: every submit answered, the process up, every order's message arrives under one event id`,
  { skip },
  async (t) => {
    const topic = 'orders.through-kills';
    const orders = await service(t, { ORDERS_KAFKA_TOPIC: topic, ORDERS_KAFKA_PARTITIONS: '2' });
    await until('/readyz 200', async () => (await orders.request('GET', '/readyz')).status === 200);

    let storming = true;
    const answers: number[] = [];
    const refs: string[] = [];
    const ids = new Map<string, number>();
    // Submits one after the other for as long as the broker is being killed, some amended or cancelled: each must get an answer.
    const submitting = (async () => {
      for (let i = 0; storming; i++) {
        const { status, serviceRef, orderId } = await submit(orders, `STORM-${i}`).catch(() => ({
          status: 0,
          serviceRef: undefined,
          orderId: undefined,
        }));
        answers.push(status);
        if (status === 201) {
          refs.push(serviceRef!);
          ids.set(serviceRef!, orderId!);
          const changed = await changeSome(orders, i, orderId!).catch(() => 0);
          if (changed !== 200) answers.push(changed);
        }
        await new Promise((resolve) => setTimeout(resolve, SUBMIT_PAUSE_MS));
      }
    })();
    for (let kill = 1; kill <= KILLS; kill++) {
      await kafka.kill();
      const restartMs = await kafka.start();
      t.comment(
        `kill ${kill}: broker back in ${restartMs} ms, ${answers.length} submits so far, service ${orders.child.exitCode === null ? 'up' : `exited ${orders.child.exitCode}`}`,
      );
    }
    storming = false;
    await submitting;
    t.comment(`${answers.length} submits during ${KILLS} kills`);
    t.strictSame(
      answers.filter((status) => status !== 201),
      [],
      'every submit answered 201, every amend and cancel 200',
    );
    const up = orders.child.exitCode === null && orders.child.signalCode === null;
    t.ok(up, 'the service process is still up');
    if (!up)
      t.comment(`it exited (${orders.child.exitCode ?? orders.child.signalCode}); its last output:\n${orders.output().slice(-4000)}`);

    // What each order's stream recorded to announce, in order: its plans (one per version planned) and its cancel.
    const expected = new Map<string, string[]>();
    for (const ref of refs) {
      await until(
        `${ref} settled`,
        async () => {
          const history = (await orders.request('GET', `/api/v1/orders/detailed-orders/${ids.get(ref)}/history/`, { key: ACME_KEY }))
            .body as {
            event_id: string;
            type: string;
          }[];
          const last = history.at(-1)?.type;
          if (last !== 'OrderPlanned' && last !== 'OrderCancelled' && last !== 'OrderPlanningFailed') return false;
          expected.set(
            ref,
            history.filter((e) => e.type === 'OrderPlanned' || e.type === 'OrderCancelled').map((e) => `evt_${e.event_id}`),
          );
          return true;
        },
        60_000,
      );
    }
    const total = [...expected.values()].reduce((sum, list) => sum + list.length, 0);
    const messages = await readAll(
      t,
      topic,
      (received) => new Set(received.map((m) => m.headers!['event-id']!.toString())).size >= total,
      240_000,
    );
    t.strictSame([...keysOf(messages)].sort(), [...refs].sort(), 'a message for every order');
    // First copies per key, in partition order: exactly what the stream recorded, in its order (a cancel last).
    const firstCopies = new Map<string, string[]>();
    for (const message of messages) {
      const key = message.key!.toString();
      const id = message.headers!['event-id']!.toString();
      const seen = firstCopies.get(key) ?? [];
      if (!seen.includes(id)) firstCopies.set(key, [...seen, id]);
    }
    t.strictSame(
      refs.filter((ref) => JSON.stringify(firstCopies.get(ref)) !== JSON.stringify(expected.get(ref))),
      [],
      "each order's messages are its stream's plans and cancel, each under one event id, in recorded order (copies may repeat: at least once)",
    );
    const cancelled = refs.filter((ref) =>
      messages.some((m) => m.key!.toString() === ref && m.headers!['event-type']!.toString() === 'order.cancelled'),
    );
    const amended = [...expected.values()].filter((list) => list.length > 1 && !cancelled.some((ref) => expected.get(ref) === list)).length;
    t.ok(
      cancelled.length > 0 && amended > 0,
      `${cancelled.length} orders cancelled, ${amended} announced more than once (amended after their first plan)`,
    );
    t.strictSame(
      messages.map((m) => checkReadyMessage(m)).filter((problems) => problems.length > 0),
      [],
      'every message, ready or cancelled, keeps the contract',
    );
    t.comment(`${messages.length} messages for ${refs.length} orders (${messages.length - total} re-sent copies)`);
  },
);
