// The command loop of emmett's shape, for any decider: read the stream, decide on what it holds,
// append expecting the revision that was read. When another writer got there first, the stream is
// read and the command decided again on what it holds now.
import { exactly, NO_STREAM, type EventStore, type NewEvent, type RecordedEvent, WrongExpectedRevision } from './event-store.js';

// A stream's writers are a handful (a submit, a plan result, downloads; a window's reactor): past
// this many conflicts something is wrong, and the caller hears of it rather than spinning.
const MAX_ATTEMPTS = 10;

export interface Decided<T> {
  /** Events to append; none appends nothing. */
  events: readonly NewEvent[];
  /** What the caller is told, decided with the events. */
  outcome: T;
}

/**
 * `read`: the stream as the caller has just read it, decided on first instead of reading it again (a
 * submit reads it to check the order before it takes an id); a conflict reads it anew as ever.
 */
export async function appendDecided<T>(
  store: EventStore,
  stream: string,
  decide: (history: RecordedEvent[]) => Decided<T>,
  read?: RecordedEvent[],
): Promise<{ outcome: T; position: bigint | undefined }> {
  for (let attempt = 1; ; attempt++) {
    const history = attempt === 1 && read ? read : await store.readStream(stream);
    const { events, outcome } = decide(history);
    if (events.length === 0) return { outcome, position: undefined };
    const last = history.at(-1);
    try {
      const appended = await store.append(stream, events, last ? exactly(last.revision) : NO_STREAM);
      return { outcome, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
