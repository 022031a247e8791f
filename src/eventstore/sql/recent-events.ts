// The newest events of the log, kept in memory for this process's subscriptions. Every consumer of the
// log (projector, reactors, notifications) reads each new event: from SQL, that was one query and one
// JSON.parse per consumer per event, the largest share of the main thread's work per submit after the
// HTTP request itself. Here each event is parsed once and handed to all of them. SQLite fills the ring
// with what this process committed; PostgreSQL with the tail as one read for all subscriptions found it.
//
// Exact by construction: the ring holds a run of consecutive positions [first, last], and positions are
// unique, so for after >= first - 1 and upTo <= last the events in (after, upTo] are exactly the log's.
// Rows that do not follow the last one held (another process committed in between) start the ring
// again, and a page reaching below it is read from SQL as before. What is on disk is still decided by
// the caller (durableHead), not here.
import type { RecordedEvent } from '../event-store.js';
import { toRecordedEvent, type EventRow } from './event-rows.js';

/** Most events kept, and most bytes of their data (text); past either the oldest go. */
export interface RecentEventsBounds {
  events: number;
  dataChars: number;
}

interface Entry {
  row: EventRow;
  /** Parsed and frozen on first use: shared by every subscription that reads it. */
  event: RecordedEvent | undefined;
}

export class RecentEvents {
  readonly #bounds: RecentEventsBounds;
  #entries: Entry[] = [];
  /** Index of the oldest entry still held; entries before it are dropped at the next compaction. */
  #start = 0;
  #dataChars = 0;

  constructor(bounds: RecentEventsBounds) {
    this.#bounds = bounds;
  }

  /** The first position held; undefined when empty. */
  get first(): bigint | undefined {
    return this.#held() === 0 ? undefined : this.#entries[this.#start]!.row.position;
  }

  /** The last position held; undefined when empty. */
  get last(): bigint | undefined {
    return this.#held() === 0 ? undefined : this.#entries.at(-1)!.row.position;
  }

  /** Consecutive rows of the log, in position order (SQLite: just committed by this process). */
  add(rows: readonly EventRow[]): void {
    for (const row of rows) {
      const last = this.#entries.at(-1);
      // not right after the last one held: another process committed in between (or the ring is empty)
      if (last === undefined || row.position !== last.row.position + 1n || this.#start === this.#entries.length) this.clear();
      this.#entries.push({ row, event: undefined });
      this.#dataChars += row.data.length;
    }
    while (this.#held() > 0 && (this.#held() > this.#bounds.events || this.#dataChars > this.#bounds.dataChars)) {
      this.#dataChars -= this.#entries[this.#start]!.row.data.length;
      this.#start += 1;
    }
    if (this.#start > this.#bounds.events) {
      this.#entries = this.#entries.slice(this.#start);
      this.#start = 0;
    }
  }

  clear(): void {
    this.#entries = [];
    this.#start = 0;
    this.#dataChars = 0;
  }

  /**
   * Events with after < position <= upTo (of the given types), in log order, at most `limit`, when the
   * ring holds every position in that range; undefined when it does not (read them from SQL).
   */
  page(after: bigint, upTo: bigint, limit: number, types: readonly string[] | undefined): RecordedEvent[] | undefined {
    if (this.#held() === 0) return undefined;
    const first = this.#entries[this.#start]!.row.position;
    const last = this.#entries.at(-1)!.row.position;
    if (after < first - 1n || upTo > last) return undefined;
    const page: RecordedEvent[] = [];
    for (let i = this.#start + Number(after + 1n - first); i < this.#entries.length && page.length < limit; i++) {
      const entry = this.#entries[i]!;
      if (entry.row.position > upTo) break;
      if (types !== undefined && !types.includes(entry.row.type)) continue;
      entry.event ??= frozen(toRecordedEvent(entry.row));
      page.push(entry.event);
    }
    return page;
  }

  #held(): number {
    return this.#entries.length - this.#start;
  }
}

// Shared by every consumer: one that changed an event would change it for the others. Frozen, such a
// write throws (modules are strict) instead. recordedAt stays a Date: its setters cannot be frozen.
function frozen(event: RecordedEvent): RecordedEvent {
  deepFreeze(event.data);
  return Object.freeze(event);
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  Object.freeze(value);
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
}
