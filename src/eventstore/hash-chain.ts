// The hash chain over the log: every event carries SHA-256 over its content chained to the
// hash of the event before it. What "before" means is the store's (`ChainScope`): the previous event of
// the one log on SQLite, the previous event of the same stream on KurrentDB (README.md, Hash chain).
// The preimage is plain text so that an auditor can recompute a hash with printf and openssl:
//   <previous hash, hex>\n<type>\n<stream>\n<revision>\n<recorded at, µs since the epoch>\n<data as stored>
// Type and stream never hold a newline (appends are refused otherwise) and data comes last, so two
// different events never have the same preimage.
import { hash } from 'node:crypto';

/** The previous hash of the first event of a chain. */
export const GENESIS = '0'.repeat(64);

/** Which event an event's hash is chained to. */
export type ChainScope = 'log' | 'stream';

/** An event as it is hashed: its data as the stored JSON text, its time in microseconds. */
export interface HashedEvent {
  position: bigint;
  stream: string;
  revision: bigint;
  type: string;
  /** The event's data, the JSON text exactly as stored. */
  data: string;
  /** Microseconds since the Unix epoch, UTC, as stored. */
  recordedAtMicros: bigint;
  /** Hex SHA-256; null for an event written before the chain existed and not yet chained. */
  hash: string | null;
}

export type EventContent = Pick<HashedEvent, 'stream' | 'revision' | 'type' | 'data' | 'recordedAtMicros'>;

/** The text hashed for an event. */
export function preimage(previousHash: string, event: EventContent): string {
  return `${previousHash}\n${event.type}\n${event.stream}\n${event.revision}\n${event.recordedAtMicros}\n${event.data}`;
}

export function eventHash(previousHash: string, event: EventContent): string {
  // The one-shot form: no Hash object per event, on the append path's hot loop.
  return hash('sha256', preimage(previousHash, event), 'hex');
}

/** Refuses what would make the preimage ambiguous; called where appends are validated. */
export function assertHashable(stream: string, type: string): void {
  if (stream.includes('\n') || type.includes('\n'))
    throw new TypeError(`append to ${JSON.stringify(stream)}: a stream name or event type must not hold a line break`);
}
