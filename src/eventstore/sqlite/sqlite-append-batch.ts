import Database from 'better-sqlite3';
import { WrongExpectedRevision, revisionMatches, type AppendResult } from '../event-store.js';
import { eventHash } from '../hash-chain.js';
import { chainHead } from './sqlite-hash-chain.js';
import type { EventRow } from '../sql/event-rows.js';
import type { QueuedAppend } from '../prepare-append.js';
import { TEXT_PARAM } from '../../storage/sqlite-parameters.js';

/** `rows`: the events as written, for the store's recent events (sql/recent-events.ts). */
export type AppendOutcome = { ok: true; result: AppendResult; rows: EventRow[] } | { ok: false; error: unknown };

/**
 * Returns a function that writes a batch of appends in ONE write transaction (one fsync), checking each
 * append's expected revision against the stream as left by the appends before it in the batch.
 * An append that fails its check (or hits a constraint) is rolled back to its savepoint and reported
 * alone; any other error (I/O, disk full, busy) throws and the whole batch is rolled back.
 */
export function prepareAppendBatch(db: Database.Database): (batch: readonly QueuedAppend[], recordedAt: bigint) => AppendOutcome[] {
  const currentRevision = db
    .prepare<[string], bigint>(`SELECT revision FROM events WHERE stream = ${TEXT_PARAM} ORDER BY revision DESC LIMIT 1`)
    .pluck();
  const insert = db.prepare<[string, string, bigint, string, string, bigint, Buffer]>(
    'INSERT INTO events (id, stream, revision, type, data, recorded_at, hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  // The hash chain (sqlite-hash-chain.ts): read once per batch inside its transaction, carried from event to event.
  const readChainHead = chainHead(db);
  let head = '';

  // Called inside the batch transaction, better-sqlite3 runs this in a SAVEPOINT.
  const appendOne = db.transaction((append: QueuedAppend, recordedAt: bigint): { result: AppendResult; rows: EventRow[] } => {
    const actual = currentRevision.get(append.stream);
    if (!revisionMatches(append.expected, actual)) {
      throw new WrongExpectedRevision(append.stream, append.expected, actual ?? 'no_stream');
    }
    let revision = actual ?? -1n;
    let position = 0n;
    let chained = head;
    const rows: EventRow[] = [];
    for (const event of append.events) {
      revision += 1n;
      chained = eventHash(chained, { stream: append.stream, revision, type: event.type, data: event.data, recordedAtMicros: recordedAt });
      position = BigInt(
        insert.run(event.id, append.stream, revision, event.type, event.data, recordedAt, Buffer.from(chained, 'hex')).lastInsertRowid,
      );
      rows.push({ position, id: event.id, stream: append.stream, revision, type: event.type, data: event.data, recorded_at: recordedAt });
    }
    // Only once every insert of the append held: a rolled-back append leaves the head where it was.
    head = chained;
    return { result: { nextRevision: revision, position }, rows };
  });

  const appendAll = db.transaction((batch: readonly QueuedAppend[], recordedAt: bigint): AppendOutcome[] => {
    head = readChainHead();
    return batch.map((append): AppendOutcome => {
      try {
        return { ok: true, ...appendOne(append, recordedAt) };
      } catch (error) {
        if (failsAlone(error)) return { ok: false, error };
        throw error;
      }
    });
  });

  // IMMEDIATE takes the write lock up front, so another process cannot make the batch fail halfway
  // with SQLITE_BUSY on lock upgrade; it waits up to the busy timeout instead.
  return (batch, recordedAt) => appendAll.immediate(batch, recordedAt);
}

function failsAlone(error: unknown): boolean {
  return error instanceof WrongExpectedRevision || (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_CONSTRAINT'));
}
