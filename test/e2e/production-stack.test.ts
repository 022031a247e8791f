// The whole service on the design card's servers: the log on PostgreSQL, the read models, checkpoints and
// delivery state on a MongoDB-protocol server (FerretDB here: no registry ships a real mongod) and
// readiness on a real Kafka broker, as real processes over real HTTP. The same orders of two company groups go through the service
// on the embedded stores and on the servers, and every answer a client reads (retrieve, list with pages,
// search, paginate=false and scope, pallet contents with its three 400s, load plan, PDF) is compared field
// by field, timestamps and signatures aside. A kafkajs consumer in a consumer group reads exactly one
// message per planned order, `npm run replay` checks the MongoDB read model against the log, and
// `npm run verify-history` the log's hash chain on PostgreSQL.
// Runs where the test servers run (scripts/test-servers/test-servers: POSTGRES_URL, MONGODB_URL, KAFKA_BROKERS).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import { stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';
import t from 'tap';
import { checkReadyMessage } from '../../src/notifications/check-ready-message.js';
import { readPdfText } from '../packing-instructions/inspect-pdf.js';
import { embeddedEnv } from '../support/embedded-env.js';
import { databaseUrl, dropDatabase } from '../support/mongodb.js';
import { scratchSchema } from '../support/postgres.js';
import { ACME_KEY, OTHER_KEY, testSeed } from '../support/seed.js';
import { removeDataDir, tempDataDir } from '../support/service.js';
import { startServiceProcess, until, type ServiceProcess } from './service-process.js';

// kafkajs's 1 ms idle timer off for this process's own clients too (kafkajs-idle-timer.ts)
stopKafkajsIdleTimer();

const mongoUrl = process.env.MONGODB_URL;
const postgresUrl = process.env.POSTGRES_URL;
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
// Two services each plan seven orders and render seven PDFs: longer than the suite's 180 s per file on
// a busy 2-core machine.
t.setTimeout(600_000);

const skip =
  !mongoUrl || !postgresUrl || brokers.length === 0
    ? 'POSTGRES_URL, MONGODB_URL and KAFKA_BROKERS are not all set: start the test servers (scripts/test-servers/test-servers start)'
    : false;

const acme = (reference: string, extra: Record<string, unknown>) => ({
  supplier_name: 'Acme Supplier Ltd',
  consignee_name: 'Globex Consignee GmbH',
  reference,
  transportation_mode: 'OceanFCL',
  order_containers: [{ code: '40ft' }, { code: '20ft' }],
  ...extra,
});
const other = (reference: string, extra: Record<string, unknown>) => ({
  supplier_name: 'Other Supplier',
  consignee_name: 'Other Consignee',
  reference,
  transportation_mode: 'OceanFCL',
  order_containers: [{ code: '40ft-HC' }],
  ...extra,
});

/** The orders, in submission order: SKUs, pre-builts and loose boxes in both groups, and an order of no SKUs. */
const ORDERS: { key: string; body: Record<string, unknown> }[] = [
  {
    key: ACME_KEY,
    body: acme('E2E-A1', {
      order_items: [
        { item: 'SKU-1001', quantity: 240, purchase_order: 'PO-77', line_item_number: '1' },
        { item: 'SKU-1002', quantity: 60 },
      ],
    }),
  },
  { key: OTHER_KEY, body: other('E2E-B1', { order_items: [{ item: 'SKU-1001', quantity: 300 }] }) },
  {
    key: ACME_KEY,
    body: acme('E2E-A2', {
      order_items: [{ item: 'SKU-1002', quantity: 90 }],
      pre_builts: [{ name: 'Machine parts', length: 120, width: 80, height: 150, weight: 640, count: 3 }],
      loose_boxes: [{ name: 'Spare carton', length: 60, width: 40, height: 40, weight: 12, count: 14 }],
    }),
  },
  {
    key: OTHER_KEY,
    body: other('E2E-B2', {
      order_items: [{ item: 'SKU-1001', quantity: 120 }],
      loose_boxes: [{ name: 'Drum', length: 24, width: 24, height: 36, weight: 180, count: 6 }],
    }),
  },
  {
    key: ACME_KEY,
    body: acme('E2E-A3', {
      pre_builts: [{ name: 'Crated pump', length: 110, width: 100, height: 120, weight: 900, count: 2 }],
      loose_boxes: [{ name: 'Manuals', length: 40, width: 30, height: 20, weight: 6, count: 10 }],
    }),
  },
];
/**
 * Submitted last, on a lane whose orders wait for a consolidation window: read at once, its plan is not
 * ready yet (the third 400) on either store, whatever the machine's speed.
 */
const LATE = {
  key: ACME_KEY,
  body: {
    supplier_name: 'Acme Supplier Ltd',
    consignee_name: 'Initech Receiving',
    reference: 'E2E-A4-LATE',
    transportation_mode: 'TruckFTL',
    order_items: [{ item: 'SKU-2001', quantity: 90 }],
    order_containers: [{ code: '20ft' }],
  },
};
const WINDOW_SECONDS = 4;

interface Answers {
  submits: unknown[];
  readings: Record<string, unknown>;
  planned: string[];
}

/**
 * What a client reads, without what differs by nature between two runs: times (every `*_at` field, the
 * envelope `timestamp`), the service's own address (list links, viewer links) and the viewer link's token.
 */
function comparable(value: unknown, origin: string): unknown {
  if (typeof value === 'string') {
    return value
      .split(origin)
      .join('<origin>')
      .replace(/token=[^&"\s]+/g, 'token=<signature>');
  }
  if (Array.isArray(value)) return value.map((item) => comparable(item, origin));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !key.endsWith('_at') && key !== 'timestamp')
        .map(([key, item]) => [key, comparable(item, origin)]),
    );
  }
  return value;
}

/** The PDF as a reader sees it: its pages' text, with dates, times and the viewer link set aside. */
async function pdfReading(bytes: Buffer, origin: string): Promise<unknown> {
  const { pages } = await readPdfText(bytes);
  // The viewer link's signature wraps onto a line of its own or not, as its characters' widths fall.
  return pages.map((page) =>
    (comparable(page.replace(/token=[\s\S]*?\n(?=Summary\n)/, 'token=<signature>\n'), origin) as string)
      .replace(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?( UTC)?/g, '<time>')
      .replace(/\d{4}-\d\d-\d\d/g, '<date>'),
  );
}

async function runOrders(service: ServiceProcess): Promise<Answers> {
  const get = async (key: string, path: string) => {
    const { status, body } = await service.request('GET', path, { key });
    return { status, body: comparable(body, service.url) };
  };
  const submits: unknown[] = [];
  for (const order of ORDERS) {
    const response = await service.request('POST', '/api/v1/orders/submit-order/', { key: order.key, body: order.body });
    submits.push({ status: response.status, body: response.body });
  }
  const ids = submits.map((s) => (s as { body: { order_id: number } }).body.order_id);
  await until(
    'every order planned',
    async () => {
      for (const [i, id] of ids.entries()) {
        const { body } = await service.request('GET', `/api/v1/orders/detailed-orders/${id}/`, { key: ORDERS[i]!.key });
        if (body.status !== 'planned') return false;
      }
      return true;
    },
    120_000,
  );
  const late = await service.request('POST', '/api/v1/orders/submit-order/', { key: LATE.key, body: LATE.body });
  submits.push({ status: late.status, body: late.body });
  ids.push(late.body.order_id);
  const notReady = await get(ACME_KEY, '/api/v1/orders/pallet-contents/?order=E2E-A4-LATE');
  // As a client waits: for the order's status, which the read model writes after the plan's documents.
  await until(
    'the window closed and the last order planned',
    async () =>
      (await service.request('GET', `/api/v1/orders/detailed-orders/${late.body.order_id}/`, { key: ACME_KEY })).body.status === 'planned',
    120_000,
  );

  const readings: Record<string, unknown> = { 'pallet contents of an order not planned yet': notReady };
  for (const [key, group] of [
    [ACME_KEY, 'acme'],
    [OTHER_KEY, 'other'],
  ] as const) {
    for (const query of [
      '',
      '?page=2&page_size=2',
      '?page_size=2',
      '?search=e2e-a',
      '?search=OceanFCL&page_size=1',
      '?search=%25',
      '?paginate=false',
      '?search=nothing-like-it',
    ]) {
      readings[`${group} list ${query}`] = await get(key, `/api/v1/orders/detailed-orders/${query}`);
    }
  }
  for (const [i, order] of [...ORDERS, LATE].entries()) {
    const reference = order.body.reference as string;
    const stranger = order.key === ACME_KEY ? OTHER_KEY : ACME_KEY;
    readings[`retrieve ${reference}`] = await get(order.key, `/api/v1/orders/detailed-orders/${ids[i]}/`);
    readings[`retrieve ${reference} by the other group`] = await get(stranger, `/api/v1/orders/detailed-orders/${ids[i]}/`);
    readings[`pallet contents ${reference}`] = await get(order.key, `/api/v1/orders/pallet-contents/?order=${reference}`);
    readings[`pallet contents ${reference} by service_ref`] = await get(
      order.key,
      `/api/v1/orders/pallet-contents/?order=${(submits[i] as { body: { service_ref: string } }).body.service_ref}`,
    );
    readings[`load plan ${reference}`] = await get(order.key, `/api/v1/orders/load-plan/?order=${reference}`);
    const pdf = await service.request('GET', `/api/v1/orders/download-packing-instructions/?order=${reference}`, { key: order.key });
    readings[`PDF ${reference}`] = {
      status: pdf.status,
      type: pdf.headers.get('content-type'),
      pages: pdf.status === 200 ? await pdfReading(pdf.bytes, service.url) : pdf.body,
    };
    readings[`retrieve ${reference} after the download`] = await get(order.key, `/api/v1/orders/detailed-orders/${ids[i]}/`);
  }
  readings['pallet contents of an unknown order'] = await get(ACME_KEY, '/api/v1/orders/pallet-contents/?order=NO-SUCH-ORDER');
  readings['retrieve of an unknown id'] = await get(ACME_KEY, '/api/v1/orders/detailed-orders/999/');
  const planned = submits.map((s) => (s as { body: { service_ref: string } }).body.service_ref);
  // Issue 59 on either stack: E2E-A1 amended (If-Match its ETag) and planned again, E2E-B1 cancelled.
  const [a1, b1] = [ids[0]!, ids[1]!];
  const etag = (await service.request('GET', `/api/v1/orders/detailed-orders/${a1}/`, { key: ACME_KEY })).headers.get('etag')!;
  const amended = await service.request('PUT', `/api/v1/orders/detailed-orders/${a1}/`, {
    key: ACME_KEY,
    body: { ...ORDERS[0]!.body, order_items: [{ item: 'SKU-1001', quantity: 480, purchase_order: 'PO-77', line_item_number: '1' }] },
    headers: { 'if-match': etag },
  });
  readings['amend E2E-A1'] = { status: amended.status, etag, body: comparable(amended.body, service.url) };
  await until(
    'E2E-A1 planned again',
    async () => (await service.request('GET', `/api/v1/orders/detailed-orders/${a1}/`, { key: ACME_KEY })).body.status === 'planned',
    120_000,
  );
  readings['retrieve E2E-A1 amended'] = await get(ACME_KEY, `/api/v1/orders/detailed-orders/${a1}/`);
  readings['load plan E2E-A1 amended'] = await get(ACME_KEY, '/api/v1/orders/load-plan/?order=E2E-A1');
  const cancelled = await service.request('POST', `/api/v1/orders/detailed-orders/${b1}/cancel/`, {
    key: OTHER_KEY,
    body: { reason: 'e2e' },
  });
  readings['cancel E2E-B1'] = { status: cancelled.status, body: comparable(cancelled.body, service.url) };
  const refused = await get(OTHER_KEY, '/api/v1/orders/pallet-contents/?order=E2E-B1');
  // the message names when it was cancelled: the moment aside, as every timestamp here
  readings['pallet contents E2E-B1 cancelled'] = JSON.parse(
    JSON.stringify(refused).replace(/cancelled at [0-9T:.-]+ UTC/, 'cancelled at <time> UTC'),
  );
  readings['other list of cancelled orders'] = await get(OTHER_KEY, '/api/v1/orders/detailed-orders/?status=cancelled');
  // each announced: A1 ready again, B1 cancelled
  planned.push(planned[0]!, planned[1]!);
  return { submits, readings, planned };
}

t.test(
  'the same orders on the embedded stores and on PostgreSQL + MongoDB + Kafka: the same answers, one Kafka message each, replay and verify-history agree',
  { skip, timeout: 540_000 },
  async (t) => {
    const seed = testSeed();
    seed.company_groups[0]!.lanes[1]!.consolidation_window_seconds = WINDOW_SECONDS;
    const database = `e2e_${randomUUID().slice(0, 8)}`;
    const topic = `orders.e2e-${randomUUID().slice(0, 8)}`;
    const serversUrl = databaseUrl(mongoUrl!, database);
    const schema = await scratchSchema(postgresUrl!, 'e2e');
    const kafka = new Kafka({ clientId: 'e2e-consumer', brokers, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    const received: KafkaMessage[] = [];
    const consumer = kafka.consumer({ groupId: `e2e-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
    t.teardown(async () => {
      await consumer.disconnect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
      await dropDatabase(mongoUrl!, database);
      await schema.drop();
    });

    const answers: Answers[] = [];
    let asyncApiTopic: string | undefined;
    for (const env of [
      {},
      { POSTGRES_URL: schema.url, MONGODB_URL: serversUrl, KAFKA_BROKERS: brokers.join(','), ORDERS_KAFKA_TOPIC: topic },
    ]) {
      const dataDir = tempDataDir();
      t.teardown(() => removeDataDir(dataDir));
      writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(seed));
      const service = await startServiceProcess({
        ...env,
        ORDERS_DATA_DIR: dataDir,
        ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
        ORDERS_PLANNER_THREADS: '1',
      });
      try {
        answers.push(await runOrders(service));
        if ('MONGODB_URL' in env) {
          const document = await service.request('GET', '/api/v1/asyncapi.json');
          asyncApiTopic = Object.values(document.body.channels as Record<string, { address: string }>)[0]?.address;
          // one per order planned, one more for the amended order's new plan and one for the cancel
          await until('one Kafka message per announced event', () => received.length >= ORDERS.length + 3, 60_000);
          await new Promise((resolve) => setTimeout(resolve, 1000)); // room for a duplicate, had one been sent
          const replay = await promisify(execFile)(process.execPath, [fileURLToPath(new URL('../../src/replay.js', import.meta.url))], {
            env: embeddedEnv({ ...env, ORDERS_DATA_DIR: dataDir }),
          }).then(
            ({ stdout }) => ({ code: 0, stdout }),
            (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
          );
          t.equal(replay.code, 0, 'npm run replay: the MongoDB read model matches the log');
          t.match(replay.stdout, /compared 6 orders .*read models match the log/, replay.stdout.trim());
          const verified = await promisify(execFile)(
            process.execPath,
            [fileURLToPath(new URL('../../src/verify-history.js', import.meta.url))],
            { env: embeddedEnv({ ...env, ORDERS_DATA_DIR: dataDir }) },
          ).then(
            ({ stdout }) => ({ code: 0, stdout }),
            (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
          );
          t.equal(verified.code, 0, 'npm run verify-history: the hash chain holds over the PostgreSQL log');
          t.match(verified.stdout, /the PostgreSQL event log: the hash chain holds over \d+ events/, verified.stdout.trim());
        }
      } finally {
        // A failure here is read in CI's output only: the service's own last lines say what it was doing.
        if (!t.passing())
          t.comment(`the service's last output (${'MONGODB_URL' in env ? 'server stack' : 'embedded'}):\n${service.output().slice(-6000)}`);
        t.equal(await service.stop(), 0, 'the service stops cleanly');
      }
    }

    const [embedded, servers] = answers as [Answers, Answers];
    t.strictSame(servers.submits, embedded.submits, 'submit answers');
    t.equal(
      (embedded.readings['pallet contents of an order not planned yet'] as { status: number }).status,
      400,
      'the not-ready case was met',
    );
    for (const key of Object.keys(embedded.readings)) t.strictSame(servers.readings[key], embedded.readings[key], key);
    t.equal(Object.keys(servers.readings).length, Object.keys(embedded.readings).length);

    const keys = received.map((message) => message.key?.toString());
    t.strictSame(
      [...keys].sort(),
      [...servers.planned].sort(),
      "one message per plan stored and per cancel, keyed by the order's service_ref",
    );
    t.strictSame(
      received.filter((m) => m.key?.toString() === servers.planned[1]).map((m) => m.headers?.['event-type']?.toString()),
      ['packing_instructions.ready', 'order.cancelled'],
      'the cancelled order: its ready, then its cancel, in its partition',
    );
    // What the consumer read is what the service's AsyncAPI document promises (its schemas, its topic).
    t.equal(asyncApiTopic, topic, 'the served AsyncAPI document names the topic the messages came on');
    for (const message of received) {
      t.strictSame(checkReadyMessage(message), [], `${message.key?.toString()}: key, headers and envelope as the AsyncAPI document says`);
    }
  },
);
