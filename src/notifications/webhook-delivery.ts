// Webhooks for `packing_instructions.ready` and `order.cancelled`, in two halves joined by notifications.db:
// - a consumer of the log turns each OrderPlanned and OrderCancelled into one pending delivery per endpoint of the
//   order's company group, recorded in the same transaction that moves its checkpoint (so an event is
//   neither skipped nor queued twice, whatever crashes when);
// - a delivery loop sends due deliveries and records each attempt. A delivery recorded `delivered` is
//   never sent again; one that dies with the process mid-attempt is sent again when its lease runs out
//   (at-least-once: the receiver dedupes on webhook-id, which never changes).
import { randomUUID } from 'node:crypto';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { MasterData } from '../master-data/master-data.js';
import {
  WEBHOOKS,
  type AttemptOutcome,
  type DeliveryStore,
  type DueDelivery,
  type NewWebhookDelivery,
  type StoredWebhookDelivery,
} from './delivery-store.js';
import { webhookOutcomeEvent, webhooksQueuedEvents } from './delivery-outcomes.js';
import { followLog } from '../eventstore/follow-log.js';
import type { Lingering, Log, NotificationConsumer } from './notification-consumer.js';
import { ANNOUNCED_EVENT_TYPES, envelopeBody, envelopeIdFor, isAnnounced } from './ready-envelope.js';
import { attemptOutcome, postWebhook } from './webhook-attempt.js';
import { WakeableLoop } from './wakeable-loop.js';
import { leasedQueue, type LeasedQueue } from '../leases/leased-queue.js';

export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000];
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookDeliveryOptions extends Lingering {
  store: EventStore;
  /** Where deliveries and this consumer's checkpoint are kept; the caller opens and closes it. */
  deliveries: Pick<DeliveryStore, 'checkpoints' | 'webhooks' | 'webhookLeases'>;
  /** Read at send time, so a rotated secret signs the next attempt. */
  masterData: () => MasterData;
  /** Pause before the 2nd, 3rd, ... attempt; attempts = length + 1. Default 30 s, 2 min, 10 min. */
  retryDelaysMs?: readonly number[];
  /** Per attempt, until the response status arrives. Default 10 s. */
  timeoutMs?: number;
  /** Attempts in flight at once, so one slow endpoint does not hold up the others. Default 8. */
  concurrency?: number;
  /** Longest sleep of the delivery loop: how soon deliveries queued by another process are seen. Default 1 s. */
  pollIntervalMs?: number;
  /** First pause after the consumer fails to queue a batch (e.g. disk full). Default 1 s. */
  consumerRetryDelayMs?: number;
  /** Called after outcome events were journaled, so that they reach the log soon (outcome-journal.ts). */
  onJournaled?: () => void;
  log: Log;
}

export async function startWebhookDelivery(options: WebhookDeliveryOptions): Promise<NotificationConsumer> {
  const { deliveries } = options;
  const loop = startDeliveryLoop(deliveries, options);
  const follower = await followLog({
    store: options.store,
    name: 'webhooks',
    types: ANNOUNCED_EVENT_TYPES,
    loadCheckpoint: () => deliveries.checkpoints.checkpoint(WEBHOOKS),
    retryDelayMs: options.consumerRetryDelayMs ?? 1000,
    lingerMs: options.lingerMs ?? 0,
    log: options.log,
    async handle(events) {
      const queued = deliveriesFor(events, options.masterData());
      const through = events.at(-1)!.position;
      await deliveries.webhooks.enqueue(queued, through, Date.now(), webhooksQueuedEvents(queued, through));
      options.onJournaled?.();
      // Nothing new is due when nothing was queued (a group without endpoints): the loop sleeps on.
      if (queued.length > 0) loop.wake();
    },
  });
  return {
    async stop() {
      await follower.stop();
      await loop.stop();
    },
  };
}

/** The endpoints are the group's as master data stands when the event is handled. */
function deliveriesFor(events: readonly RecordedEvent[], masterData: MasterData): NewWebhookDelivery[] {
  const result: NewWebhookDelivery[] = [];
  for (const event of events) {
    if (!isAnnounced(event)) continue;
    const group = masterData.groups.get(event.data.company_group);
    const body = envelopeBody(event);
    for (const { url } of group?.webhooks ?? []) {
      result.push({ envelopeId: envelopeIdFor(event), eventPosition: event.position, companyGroup: event.data.company_group, url, body });
    }
  }
  return result;
}

/** An attempt that failed, for operators: a warning while retries remain, an error once there are none. */
function logOutcome(log: Log, delivery: StoredWebhookDelivery, attempt: number, outcome: AttemptOutcome): void {
  const what = `webhooks: ${delivery.envelopeId} to ${delivery.url}`;
  if (outcome.result === 'retry')
    log(
      `${what}: attempt ${attempt} failed (${outcome.error}); next at ${new Date(outcome.nextAttemptAt).toISOString()}`,
      undefined,
      'warn',
    );
  else if (outcome.result === 'failed') log(`${what}: failed for good after attempt ${attempt} (${outcome.error})`, undefined, 'error');
}

interface DeliveryLoop {
  wake(): void;
  stop(): Promise<void>;
}

function startDeliveryLoop(deliveries: Pick<DeliveryStore, 'webhooks' | 'webhookLeases'>, options: WebhookDeliveryOptions): DeliveryLoop {
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const concurrency = options.concurrency ?? 8;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  // Longer than any attempt can take (it is aborted at timeoutMs), so a live attempt is never
  // duplicated; short enough that one lost to a crash is retried soon after a restart.
  const leaseMs = 2 * timeoutMs + 1000;
  const { log } = options;
  // A holder of its own, not the replica's (LeaseHolding): what this loop knows of its leases (heldUntil)
  // is not handed to the loop that replaces it, which must not take them again before they run out.
  // One lease per delivery, keyed by its id: deliveries are never deleted, so an id names one for good.
  const queue = leasedQueue<DueDelivery, StoredWebhookDelivery>(deliveries.webhooks, deliveries.webhookLeases, randomUUID());
  const inFlight = new Set<Promise<void>>();
  // This process's own leases, which taking them again would only renew: those in flight (held until
  // their attempt ends, however long it stalls) and those whose attempt could not be recorded (held
  // until the lease runs out, then attempted again, as after a crash).
  const heldUntil = new Map<number, number>();
  const passOver = (id: number) => (heldUntil.get(id) ?? 0) > Date.now();
  const attempting: Attempting = { deliveries, queue, heldUntil, retryDelaysMs, timeoutMs, options };

  // Takes due deliveries while a slot is free; sleeps until the next falls due (at most a poll interval),
  // or, with every slot busy, until an attempt ends and wakes the loop. A due delivery held by another
  // replica is looked at again at the next poll.
  const loop = new WakeableLoop(async () => {
    try {
      let now = Date.now();
      while (!loop.stopped && inFlight.size < concurrency) {
        now = Date.now();
        const delivery = await queue.acquireNextDue(now, now + leaseMs, passOver);
        if (!delivery) break;
        heldUntil.set(delivery.id, Number.POSITIVE_INFINITY);
        const attempt: Promise<void> = attemptDelivery(attempting, delivery, now + leaseMs).finally(() => {
          inFlight.delete(attempt);
          loop.wake();
        });
        inFlight.add(attempt);
      }
      if (inFlight.size >= concurrency) return undefined;
      for (const [id, until] of heldUntil) if (until <= now) heldUntil.delete(id);
      const due = await deliveries.webhooks.nextDueAfter(now);
      return due === undefined ? pollIntervalMs : Math.min(pollIntervalMs, Math.max(0, due - Date.now()));
    } catch (error) {
      if (!loop.stopped) log('webhooks: the delivery loop could not read notifications.db; trying again', error);
      return pollIntervalMs;
    }
  });

  loop.wake();
  return {
    wake: () => loop.wake(),
    async stop() {
      // Attempts already sent finish (each bounded by timeoutMs) and are recorded before the file closes;
      // what is still held (an attempt not recorded) goes to the other replicas now.
      await loop.stop();
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      await queue.releaseAll().catch(() => undefined);
    },
  };
}

/** What an attempt needs: where it is recorded, the lease that holds it, and its loop's own holds. */
interface Attempting {
  deliveries: Pick<DeliveryStore, 'webhooks'>;
  queue: LeasedQueue<StoredWebhookDelivery>;
  heldUntil: Map<number, number>;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  options: Pick<WebhookDeliveryOptions, 'masterData' | 'onJournaled' | 'log'>;
}

/** One attempt of a leased delivery, recorded with its outcome; its lease is let go once it is recorded. */
async function attemptDelivery(attempting: Attempting, delivery: StoredWebhookDelivery, leaseUntil: number): Promise<void> {
  const { deliveries, queue, heldUntil, retryDelaysMs, timeoutMs, options } = attempting;
  const attempt = delivery.attempts + 1;
  const at = Date.now();
  let outcome: AttemptOutcome;
  try {
    const secret = options
      .masterData()
      .groups.get(delivery.companyGroup)
      ?.webhooks.find((endpoint) => endpoint.url === delivery.url)?.secret;
    outcome = secret
      ? attemptOutcome(
          await postWebhook({ url: delivery.url, envelopeId: delivery.envelopeId, body: delivery.body, secret, timeoutMs }),
          attempt,
          retryDelaysMs,
          Date.now(),
        )
      : { result: 'failed', status: null, error: `${delivery.url} is no longer a webhook of ${delivery.companyGroup}` };
    const journal = webhookOutcomeEvent(delivery, attempt, outcome);
    await deliveries.webhooks.recordAttempt({ deliveryId: delivery.id, attempt, at, durationMs: Date.now() - at, outcome }, journal);
    if (journal.length > 0) options.onJournaled?.();
  } catch (error) {
    // The lease runs out and the delivery is attempted again: at-least-once, as after a crash.
    heldUntil.set(delivery.id, leaseUntil);
    options.log(`webhooks: attempt ${attempt} of ${delivery.envelopeId} to ${delivery.url} could not be made or recorded`, error, 'warn');
    return;
  }
  // Recorded: a retry is due when the record says, so the lease goes (one that cannot be let go runs
  // out, and until then only this process takes the delivery again). Passed over until it has gone,
  // or a retry due at once could be taken, as a renewal, and then let go by this release.
  await queue.release(delivery.id).catch(() => undefined);
  heldUntil.delete(delivery.id);
  logOutcome(options.log, delivery, attempt, outcome);
}
