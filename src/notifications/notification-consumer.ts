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

/** How a consumer takes the log's OrderPlanned events: a few at a time under load (FollowOptions.lingerMs). */
export interface Lingering {
  /**
   * After each batch, how long the consumer waits before the next (ORDERS_NOTIFICATIONS_LINGER_MS): each batch
   * costs it a transaction or more whatever its size, and during a burst it would otherwise take one order
   * at a time. Default 0.
   */
  lingerMs?: number | undefined;
}

/** What a consumer that takes leases (e-mail, Kafka, the outcome journal) is told of its replica. */
export interface LeaseHolding {
  /**
   * Who holds its leases: the replica's holder, the same for every start in this process, so that
   * consumers started again after the notifications' lease lapsed and came back take up their own leases
   * at once instead of waiting out those of the consumers they replace. Default: a holder of its own.
   */
  holder?: string;
}
