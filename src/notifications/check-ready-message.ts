// Checks a Kafka message as a consumer received it against the contract of the AsyncAPI document
// (asyncapi-document.ts): the same schemas, compiled by the service's ajv, plus what the document
// states in words (key = data.order_id, event-id = id). For tests that read a real broker: the
// answer is a list of problems, empty when the message keeps the contract.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { validatorFor } from '../validation/ajv.js';
import { ReadyMessageHeadersSchema, ReadyMessageKeySchema } from './kafka-message.js';
import { CancelledEnvelopeSchema, ORDER_CANCELLED, ReadyEnvelopeSchema } from './ready-envelope.js';

/** A message as kafkajs hands it to a consumer (KafkaMessage), or as a producer was given it. */
export interface ReceivedKafkaMessage {
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Record<string, unknown>;
}

export function checkReadyMessage(message: ReceivedKafkaMessage): string[] {
  const problems: string[] = [];
  const key = message.key === null ? null : text(message.key);
  const keyProblems = key === null ? ["key: missing; expected the order's service_ref"] : schemaProblems('key', ReadyMessageKeySchema, key);
  problems.push(...keyProblems);

  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(message.headers ?? {})) {
    if (raw === undefined) continue;
    // kafkajs gives a list when a header name occurs more than once.
    if (Array.isArray(raw)) problems.push(`headers["${name}"]: occurs ${raw.length} times; expected once`);
    else if (typeof raw === 'string' || Buffer.isBuffer(raw)) headers[name] = text(raw);
    else problems.push(`headers["${name}"]: expected a string or bytes, got ${typeof raw}`);
  }
  const headerProblems = schemaProblems('headers', ReadyMessageHeadersSchema, headers);
  problems.push(...headerProblems);

  if (message.value === null) {
    problems.push('value: missing (a tombstone); expected the packing_instructions.ready envelope as JSON');
    return problems;
  }
  let value: unknown;
  try {
    value = JSON.parse(text(message.value));
  } catch (error) {
    problems.push(`value: not JSON (${(error as Error).message})`);
    return problems;
  }
  // the envelope of the kind it says it is (an order.cancelled, else a packing_instructions.ready)
  const cancelled = (value as { type?: unknown } | null)?.type === ORDER_CANCELLED;
  const valueProblems = schemaProblems('value', cancelled ? CancelledEnvelopeSchema : ReadyEnvelopeSchema, value);
  problems.push(...valueProblems);
  // What the document states in words; only between parts that are well formed, so one mistake is one problem.
  if (valueProblems.length === 0) {
    const envelope = value as { id: string; data: { order_id: string } };
    if (keyProblems.length === 0 && key !== envelope.data.order_id)
      problems.push(`key: "${key}" differs from value.data.order_id "${envelope.data.order_id}"`);
    if (headerProblems.length === 0 && headers['event-id'] !== envelope.id)
      problems.push(`headers["event-id"]: "${headers['event-id']}" differs from value.id "${envelope.id}"`);
    const type = (value as { type: string }).type;
    if (headerProblems.length === 0 && headers['event-type'] !== type)
      problems.push(`headers["event-type"]: "${headers['event-type']}" differs from value.type "${type}"`);
  }
  return problems;
}

function text(bytes: Buffer | string): string {
  return typeof bytes === 'string' ? bytes : bytes.toString('utf8');
}

function schemaProblems(part: string, schema: object, data: unknown): string[] {
  const validate = validatorFor(schema);
  if (validate(data)) return [];
  return (validate.errors ?? []).map((error) => `${part}${where(error.instancePath)}: ${describe(error)}`);
}

/** `/data/order_id` as `.data.order_id`; header names with dashes as `["event-id"]`. */
function where(instancePath: string): string {
  if (instancePath === '') return '';
  return instancePath
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^[A-Za-z_]\w*$/.test(segment) ? `.${segment}` : `["${segment}"]`))
    .join('');
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const got = JSON.stringify(error.data);
  switch (error.keyword) {
    case 'required':
      return `missing "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `unexpected field "${String(params.additionalProperty)}"; the contract has no such field`;
    case 'const':
      return `expected ${JSON.stringify(params.allowedValue)}, got ${got}`;
    case 'enum':
      return `expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${got}`;
    case 'pattern':
      return `${got} does not match ${String(params.pattern)}`;
    case 'format':
      return `${got} is not a ${String(params.format)}`;
    case 'type':
      return `expected ${String(params.type)}, got ${error.data === null ? 'null' : Array.isArray(error.data) ? 'array' : typeof error.data}`;
    default:
      return `${error.message ?? 'invalid'} (got ${got})`;
  }
}
