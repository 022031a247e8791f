// The Kafka record of `packing_instructions.ready` and `order.cancelled`: keyed by service_ref, so every
// event of an order lands in one partition in order (a cancel after the readies it voids); the envelope id in a header lets consumers drop the duplicates that
// at-least-once publishing can produce. The schemas of key and headers are the contract the AsyncAPI
// document (asyncapi-document.ts) publishes; the value is the envelope (ready-envelope.ts).
import type { Message, ProducerRecord } from 'kafkajs';
import Type, { type Static } from 'typebox';
import type { RecordedEvent } from '../eventstore/event-store.js';
import {
  EnvelopeIdSchema,
  envelopeOf,
  isAnnounced,
  ORDER_CANCELLED,
  PACKING_INSTRUCTIONS_READY,
  ServiceRefSchema,
} from './ready-envelope.js';

export const DEFAULT_KAFKA_TOPIC = 'orders.packing-instructions';

/** The key: data.order_id of the value. */
export const ReadyMessageKeySchema = ServiceRefSchema;

// Further headers are not forbidden: brokers, proxies and mirroring tools may add their own.
export const ReadyMessageHeadersSchema = Type.Object(
  {
    'event-id': EnvelopeIdSchema,
    'event-type': Type.Enum([PACKING_INSTRUCTIONS_READY, ORDER_CANCELLED], { description: 'The envelope type (value.type).' }),
    'content-type': Type.Literal('application/json', { description: 'The value is the envelope as UTF-8 JSON.' }),
  },
  { description: 'Kafka record headers, UTF-8 strings. event-id equals value.id.' },
);

export type ReadyMessageHeaders = Static<typeof ReadyMessageHeadersSchema>;

export function kafkaMessageFor(event: RecordedEvent): Message | undefined {
  if (!isAnnounced(event)) return undefined;
  const envelope = envelopeOf(event);
  const headers: ReadyMessageHeaders = {
    'event-id': envelope.id,
    'event-type': envelope.type,
    'content-type': 'application/json',
  };
  return { key: envelope.data.order_id, value: JSON.stringify(envelope), headers };
}

/** acks -1 (all in-sync replicas): the idempotent producer requires it, and it is what makes a send durable. */
export function kafkaRecordFor(events: readonly RecordedEvent[], topic: string): ProducerRecord {
  return { topic, acks: -1, messages: events.map(kafkaMessageFor).filter((message): message is Message => message !== undefined) };
}
