// The Kafka record of `packing_instructions.ready`: keyed by service_ref, so every event of an order
// lands in one partition in order; the envelope id in a header lets consumers drop the duplicates that
// at-least-once publishing can produce.
import type { Message, ProducerRecord } from 'kafkajs';
import type { RecordedEvent } from '../eventstore/event-store.js';
import { isOrderPlanned, PACKING_INSTRUCTIONS_READY, readyEnvelope } from './ready-envelope.js';

export const DEFAULT_KAFKA_TOPIC = 'orders.packing-instructions';

export function kafkaMessageFor(event: RecordedEvent): Message | undefined {
  if (!isOrderPlanned(event)) return undefined;
  const envelope = readyEnvelope(event);
  return {
    key: envelope.data.order_id,
    value: JSON.stringify(envelope),
    headers: { 'event-id': envelope.id, 'event-type': PACKING_INSTRUCTIONS_READY, 'content-type': 'application/json' },
  };
}

/** acks -1 (all in-sync replicas): the idempotent producer requires it, and it is what makes a send durable. */
export function kafkaRecordFor(events: readonly RecordedEvent[], topic: string): ProducerRecord {
  return { topic, acks: -1, messages: events.map(kafkaMessageFor).filter((message): message is Message => message !== undefined) };
}
