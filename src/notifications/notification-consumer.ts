// What the three notification consumers have in common for the composition root. Each follows the
// log's OrderPlanned events with followLog (src/eventstore/follow-log.ts) and moves its checkpoint
// itself, in the same transaction as what it records.
import type { Log } from '../eventstore/follow-log.js';

export type { Log };

export interface NotificationConsumer {
  /** Stops after the batch in progress (its checkpoint moved, or not, as it finished) and releases resources. */
  stop(): Promise<void>;
  /** Why the service should not say it is ready because of this consumer (kafka-topic.ts), else undefined. */
  notReady?(): string | undefined;
}
