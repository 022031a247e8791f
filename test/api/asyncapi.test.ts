// GET /api/v1/asyncapi.json: the Kafka contract as a running service serves it, for the topic it is
// configured with, checked by the AsyncAPI parser (the reference implementation of the spec's rules).
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import t from 'tap';
import { notificationsConfigFromEnv } from '../../src/config.js';
import { checkReadyMessage } from '../../src/notifications/check-ready-message.js';
import { ReadyEnvelopeSchema } from '../../src/notifications/ready-envelope.js';
import { removeDataDir, startTestService } from '../support/service.js';

const TOPIC = 'acme.orders.packing-ready';
// The topic as the service reads it from the environment; no brokers, so nothing is published.
const service = await startTestService({ config: { notifications: notificationsConfigFromEnv({ ORDERS_KAFKA_TOPIC: TOPIC }) } });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

// `any`: the documents are walked as plain JSON.
type Json = Record<string, any>;

t.test('served without a key, as JSON, naming the configured topic', async (t) => {
  const response = await service.request('GET', '/api/v1/asyncapi.json', { key: null });
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /application\/json/);
  const doc = response.body as Json;
  t.equal(doc.asyncapi, '3.0.0');
  t.equal(doc.channels.packingInstructionsReady.address, TOPIC);
  t.equal(doc.channels.packingInstructionsReady.bindings.kafka.topic, TOPIC);
});

t.test('the AsyncAPI parser finds no error in it', async (t) => {
  const served = (await service.request('GET', '/api/v1/asyncapi.json')).body as Json;
  const { document, diagnostics } = await new Parser().parse(JSON.stringify(served));
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error);
  for (const diagnostic of diagnostics.filter((d) => d.severity !== DiagnosticSeverity.Error)) {
    t.comment(
      `parser ${DiagnosticSeverity[diagnostic.severity]}: ${diagnostic.code} at ${diagnostic.path.join('.') || '(root)'}: ${diagnostic.message}`,
    );
  }
  t.strictSame(
    errors.map((error) => `${error.code} at ${error.path.join('.')}: ${error.message}`),
    [],
  );
  t.ok(document, 'a parsed document');

  // Read back through the parser's model: what a code generator or a catalogue would see.
  const channel = document!.channels().get('packingInstructionsReady')!;
  t.equal(channel.address(), TOPIC);
  const operation = document!.operations().get('publishPackingInstructionsReady')!;
  t.ok(operation.isSend(), 'the service sends');
  t.equal(operation.bindings().get('kafka')?.value()['x-acks'], 'all');
  const message = channel.messages().get('packingInstructionsReady')!;
  t.equal(message.contentType(), 'application/json');
  t.strictSame(message.headers()?.required(), ['event-id', 'event-type', 'content-type']);
  t.strictSame(message.bindings().get('kafka')?.value().key.pattern, '^SO-[0-9]{6,}$');
  t.strictSame(message.payload()?.required(), ['id', 'type', 'timestamp', 'data']);
  t.equal(message.correlationId()?.location(), '$message.header#/event-id');
});

t.test('the value schema is the envelope schema, the same one the OpenAPI webhook uses', async (t) => {
  const asyncApi = (await service.request('GET', '/api/v1/asyncapi.json')).body as Json;
  const openApi = (await service.request('GET', '/api/v1/openapi.json')).body as Json;
  const envelope = JSON.parse(JSON.stringify(ReadyEnvelopeSchema)) as Json;
  t.strictSame(asyncApi.components.schemas.ReadyEnvelope, envelope);
  t.strictSame(openApi.components.schemas.ReadyEnvelope, envelope);
  t.strictSame(openApi.components.pathItems['packing_instructions.ready'].post.requestBody.content['application/json'].schema, {
    $ref: '#/components/schemas/ReadyEnvelope',
  });
  t.match(openApi.info.description, /\/api\/v1\/asyncapi\.json/, 'the OpenAPI document points to it');
});

t.test("the document's example is a message that keeps the contract", async (t) => {
  const doc = (await service.request('GET', '/api/v1/asyncapi.json')).body as Json;
  const [example] = doc.components.messages.packingInstructionsReady.examples as Json[];
  const key = /key (\S+)\.$/.exec(example!.summary)![1]!;
  t.equal(key, 'SO-000042');
  t.strictSame(checkReadyMessage({ key, value: JSON.stringify(example!.payload), headers: example!.headers }), []);
});
