// Appends the delivery store's journal of outcome events (delivery-outcomes.ts) to the log. The journal
// is written with the outcome it describes, so nothing is lost to a crash before the append; an entry
// appended and not yet removed when the process dies is appended again (a duplicate the fold ignores).
// Entries are claimed for a while, so two replicas on one store do not append the same ones at once.
import { randomUUID } from 'node:crypto';
import { ANY, type EventStore } from '../eventstore/event-store.js';
import { backoffDelay, DEFAULT_MAX_DELAY_MS } from '../eventstore/retry-with-backoff.js';
import type { DeliveryStore, JournalEntry } from './delivery-store.js';
import type { Log } from './notification-consumer.js';
import { WakeableLoop } from './wakeable-loop.js';

export interface OutcomeJournalOptions {
  store: EventStore;
  deliveries: Pick<DeliveryStore, 'journal'>;
  /** Longest pause between looks at the journal: how soon entries of another replica (or a failed append) go out. Default 1 s. */
  pollIntervalMs?: number;
  log: Log;
}

export interface OutcomeJournal {
  /** Something was journaled: append it soon. */
  wake(): void;
  /** Appends what is in the journal now (best effort), then stops. */
  stop(): Promise<void>;
}

const BATCH = 100;
const APPEND_BYTES = 256 * 1024;
/** A claim outlives any append; one lost with its process is taken over after this. */
const CLAIM_MS = 30_000;

export function startOutcomeJournal(options: OutcomeJournalOptions): OutcomeJournal {
  const { store, deliveries, log } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const holder = randomUUID();
  let failures = 0;

  async function flush(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const entries = await deliveries.journal.claim(holder, now, now + CLAIM_MS, BATCH);
      if (entries.length === 0) return;
      // One append per stream, in journal order, cut where it would pass APPEND_BYTES: far below any
      // store's append limit (KurrentDB's default is 1 MiB), whatever backlog built up. The streams are
      // appended to at once (one group commit on SQLite, not one per order) and what went in is removed
      // from the journal in one write.
      const byStream = new Map<string, JournalEntry[]>();
      for (const entry of entries) byStream.set(entry.stream, [...(byStream.get(entry.stream) ?? []), entry]);
      const done: string[] = [];
      const appends = await Promise.allSettled(
        [...byStream].map(async ([stream, group]) => {
          for (const chunk of bySize(group)) {
            await store.append(
              stream,
              chunk.map(({ type, data }) => ({ type, data })),
              ANY,
            );
            done.push(...chunk.map((entry) => entry.id));
          }
        }),
      );
      if (done.length > 0) await deliveries.journal.appended(done);
      const failed = appends.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      if (entries.length < BATCH) return;
    }
  }

  const loop = new WakeableLoop(async () => {
    try {
      await flush();
      failures = 0;
      return pollIntervalMs;
    } catch (error) {
      failures += 1;
      // The entries stay in the journal, claimed until their hold runs out; the next look retries them,
      // two looks' time after the first failure and at most 64 (or a minute) after many.
      const delay = backoffDelay(failures, {
        firstDelayMs: 2 * pollIntervalMs,
        maxDelayMs: Math.min(DEFAULT_MAX_DELAY_MS, 64 * pollIntervalMs),
      });
      if (!loop.stopped)
        log(
          `notifications: appending delivery outcomes to the log failed (${failures} time(s)); trying again in ${delay} ms`,
          error,
          'warn',
        );
      return delay;
    }
  });

  loop.wake();
  return {
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      try {
        await flush();
      } catch (error) {
        log('notifications: delivery outcomes left in the journal at shutdown; appended at the next start', error, 'warn');
      }
      // what a failed flush still holds goes to the other replicas now, not when the holds run out
      await deliveries.journal.release(holder).catch(() => undefined);
    },
  };
}

function bySize(entries: readonly JournalEntry[]): JournalEntry[][] {
  const chunks: JournalEntry[][] = [];
  let current: JournalEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = JSON.stringify(entry.data).length + entry.type.length;
    if (current.length > 0 && bytes + size > APPEND_BYTES) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
