// The rows of the SQL logs' `events` table (SQLite and PostgreSQL alike), as read, and what they become:
// a RecordedEvent for the event store port, a HashedEvent (the data as the stored text) for the hash chain's.
import type { RecordedEvent } from '../event-store.js';
import type { HashedEvent } from '../hash-chain.js';
import { microsToDate } from '../recorded-at.js';

/** A row of the `events` table as read with safe integers on. */
export interface EventRow {
  position: bigint;
  id: string;
  stream: string;
  revision: bigint;
  type: string;
  data: string;
  recorded_at: bigint;
}

export const EVENT_COLUMNS = 'position, id, stream, revision, type, data, recorded_at';

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    revision: row.revision,
    position: row.position,
    recordedAt: microsToDate(row.recorded_at),
  };
}

export interface HashedRow {
  position: bigint;
  stream: string;
  revision: bigint;
  type: string;
  data: string;
  recorded_at: bigint;
  hash: Buffer | null;
}

export const HASHED_COLUMNS = 'position, stream, revision, type, data, recorded_at, hash';

export function toHashedEvent(row: HashedRow): HashedEvent {
  return {
    position: row.position,
    stream: row.stream,
    revision: row.revision,
    type: row.type,
    data: row.data,
    recordedAtMicros: row.recorded_at,
    hash: row.hash === null ? null : row.hash.toString('hex'),
  };
}
