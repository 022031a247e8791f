// What /readyz asks before it says the service is ready, and what it shows beside that. Ready means a
// load balancer may send traffic that reads its own writes: the backends answer, the read models trail
// the log by little, and nothing found would make an answer wrong.
import type { EventStore } from '../eventstore/event-store.js';
import type { Findings, ReadinessCheck } from '../http/health-routes.js';
import type { NotificationConsumer } from '../notifications/notification-consumer.js';
import type { OrderReadModel } from '../orders/read-model/order-read-model.js';
import type { Projector } from '../orders/read-model/projector.js';
import type { ScrubProgress } from '../orders/read-model/read-model-scrubber.js';

/** How long readiness lets the read models trail the log. */
const READY_LAG_MS = 2000;

export interface ReadinessParts {
  store: EventStore;
  orders: Pick<OrderReadModel, 'checkpoint'>;
  projector: Projector;
  /** The scrubber's progress on the replica that scrubs; undefined elsewhere. */
  scrubProgress(): ScrubProgress | undefined;
  /** The notification consumers on the replica that holds their lease; undefined elsewhere. */
  notifications(): NotificationConsumer | undefined;
}

export function readinessChecks(parts: ReadinessParts): ReadinessCheck[] {
  const { store, orders, projector } = parts;
  return [
    { name: 'event_store', check: async () => void (await store.headPosition()) },
    { name: 'read_models', check: async () => void (await orders.checkpoint()) },
    {
      // A chain found broken behind the start-up check's checkpoint: not ready until an operator restores the log.
      name: 'log_chain',
      check: async () => {
        const outcome = parts.scrubProgress()?.logChain;
        if (outcome && !outcome.ok) throw new Error(outcome.line);
      },
    },
    {
      // A consumer group that subscribes once the service is ready must find the readiness topic.
      name: 'kafka_topic',
      check: async () => {
        // The replica that sends the notifications (it holds their lease) is the one that looks the topic up.
        const reason = parts.notifications()?.notReady?.();
        if (reason) throw new Error(reason);
      },
    },
    {
      name: 'projections_caught_up',
      check: async () => {
        const head = await store.headPosition();
        if (head === undefined) return;
        await withTimeout(projector.waitFor(head), READY_LAG_MS, `order read models are more than ${READY_LAG_MS} ms behind the log`);
      },
    },
  ];
}

/** What the background checks found last, shown by /readyz without deciding readiness (but for a broken chain, above). */
export function backgroundFindings(scrubProgress: () => ScrubProgress | undefined): Findings {
  return () => {
    const progress = scrubProgress();
    return {
      ...(progress ? { read_model_scrub: progress.lastFinding } : {}),
      ...(progress?.logChain ? { log_chain: progress.logChain.line } : {}),
    };
  };
}

function withTimeout(promise: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
