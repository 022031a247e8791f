import type { RecordedEvent } from './event-store.js';
import { microsToDate } from './recorded-at.js';

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
