// Appends the delivery store's journal of outcome events (delivery-outcomes.ts) to the log. The journal
// is written with the outcome it describes, so nothing is lost to a crash before the append; an entry
// appended and not yet removed when the process dies is appended again (a duplicate the fold ignores).
// Replicas on one store take turns through one lease on the whole journal (`journalLeases`, key
// JOURNAL_LEASE): its holder appends every entry, whichever replica journaled it, oldest first, so two
// replicas never append the same entries at once. One key rather than one per entry or batch: the
// entries go out in batches of up to a hundred, and a lease per entry would be a write per entry
// where one for the journal is a write per batch; a replica that finds the lease held leaves its
// entries to the holder, which appends what it finds until the journal is empty (an entry that comes
// after its last look waits for the next look of any replica, a poll interval at most). A holder that dies
// holds the journal up until its lease runs out; one that stops, or whose append failed, lets go at
// once.
import { randomUUID } from 'node:crypto';
import { ANY, type EventStore } from '../eventstore/event-store.js';
import { backoffDelay, DEFAULT_MAX_DELAY_MS } from '../storage/retry-with-backoff.js';
import type { DeliveryStore, JournalEntry } from './delivery-store.js';
import type { LeaseHolding, Log } from './notification-consumer.js';
import { WakeableLoop } from './wakeable-loop.js';

export interface OutcomeJournalOptions extends LeaseHolding {
  store: EventStore;
  deliveries: Pick<DeliveryStore, 'journal' | 'journalLeases'>;
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
/** The journal's lease key in `journalLeases`. */
export const JOURNAL_LEASE = 'outcome-journal';
/** A lease outlives any append (it is renewed before each batch); one lost with its process is taken over after this. */
const LEASE_MS = 30_000;

export function startOutcomeJournal(options: OutcomeJournalOptions): OutcomeJournal {
  const { store, deliveries, log } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const holder = options.holder ?? randomUUID();
  let failures = 0;

  /** Appends the journal while this replica holds its lease, batch by batch, until it is empty. */
  async function flush(): Promise<void> {
    // Nothing to append (most looks): no lease taken, nothing written.
    if ((await deliveries.journal.oldest(1)).length === 0) return;
    // Held by another replica: it appends these entries too, or the next look does.
    if (!(await acquireLease())) return;
    try {
      for (;;) {
        const entries = await deliveries.journal.oldest(BATCH);
        if (entries.length === 0) return;
        await appendBatch(store, deliveries.journal, entries);
        // Renewed before each further batch; lost only by stalling past it, and then the new holder goes on.
        if (entries.length < BATCH || !(await acquireLease())) return;
      }
    } finally {
      await deliveries.journalLeases.release(JOURNAL_LEASE, holder).catch(() => undefined);
    }
  }

  function acquireLease(): Promise<boolean> {
    const now = Date.now();
    return deliveries.journalLeases.acquire(JOURNAL_LEASE, holder, now, now + LEASE_MS);
  }

  const loop = new WakeableLoop(async () => {
    try {
      await flush();
      failures = 0;
      return pollIntervalMs;
    } catch (error) {
      failures += 1;
      // The entries stay in the journal, and the lease went with the failed flush: another replica may
      // append them meanwhile. This one looks again two looks' time after the first failure and at most
      // 64 (or a minute) after many.
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
    },
  };
}

/** Appends one batch of the journal to the log and removes from it what went in. */
async function appendBatch(store: EventStore, journal: DeliveryStore['journal'], entries: readonly JournalEntry[]): Promise<void> {
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
  if (done.length > 0) await journal.appended(done);
  const failed = appends.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
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
