// What every adapter checks of an append before it is queued or sent: its stream, events and expected
// revision are well formed, its data is JSON, and it is within the store's size limit. A bad append
// fails alone, at once, and never disturbs the batch it would have joined.
import { AppendTooLarge, type ExpectedRevision, type NewEvent } from './event-store.js';
import { assertHashable } from './hash-chain.js';
import { timeOrderedId } from './time-ordered-id.js';

// Above a 1 MiB submit body with its lane copied into OrderSubmitted; docker-compose.yml gives KurrentDB the same.
export const DEFAULT_MAX_APPEND_BYTES = 4 * 1024 * 1024;

/** One caller's append, validated and serialized, waiting for the next group commit. */
export interface QueuedAppend {
  stream: string;
  expected: ExpectedRevision;
  events: { id: string; type: string; data: string }[];
}

/** Checks the arguments and serializes the data now, so a bad append fails alone and before queueing. */
export function prepareAppend(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, maxBytes: number): QueuedAppend {
  if (typeof stream !== 'string' || stream === '') throw new TypeError('stream must be a non-empty string');
  if (!Array.isArray(events) || events.length === 0) {
    throw new RangeError(`append to ${stream}: at least one event is required`);
  }
  // The types already say all this; these checks are for values that crossed a JS or JSON boundary.
  const validExpected =
    expected?.kind === 'any' || expected?.kind === 'no_stream' || (expected?.kind === 'exact' && typeof expected.revision === 'bigint');
  if (!validExpected) throw new TypeError(`append to ${stream}: invalid expected revision`);
  let bytes = 0;
  const prepared: QueuedAppend = {
    stream,
    expected,
    events: events.map((event, i) => {
      if (typeof event?.type !== 'string' || event.type === '') {
        throw new TypeError(`append to ${stream}: event ${i} needs a non-empty type`);
      }
      assertHashable(stream, event.type);
      // Throws for bigint and cycles; undefined for undefined, functions and symbols.
      const data: unknown = JSON.stringify(event.data);
      if (typeof data !== 'string') throw new TypeError(`append to ${stream}: event ${i} (${event.type}) data is not JSON`);
      bytes += Buffer.byteLength(data);
      return { id: timeOrderedId(), type: event.type, data };
    }),
  };
  // A bound, as on KurrentDB: what is too large for one store is too large for the other.
  if (bytes > maxBytes) throw new AppendTooLarge(stream, bytes, maxBytes);
  return prepared;
}
