// What the SQLite ports of notifications.db share: the connection, the fsync of its -wal file (every
// write resolves once it is durable), the guard against use after close, and the two writes that
// several ports make inside their own transactions: journal events and a consumer's checkpoint.
import type Database from 'better-sqlite3';
import type { WalSync } from '../../storage/wal-sync.js';
import type { JournalEvent } from '../delivery-store.js';

export interface DeliveryDatabase {
  db: Database.Database;
  wal: WalSync;
  /** Throws once the store is closed. */
  guard(): void;
  /** Inserts journal events; call inside the transaction of the outcome they describe. */
  journal(events: readonly JournalEvent[]): void;
  /** Moves a consumer's checkpoint forward (never back); call inside the transaction it belongs to. */
  moveCheckpoint(consumer: string, position: bigint): void;
}

export function deliveryDatabase(db: Database.Database, wal: WalSync, isClosed: () => boolean): DeliveryDatabase {
  const insertJournal = db.prepare<[string, string, string]>('INSERT INTO outcome_journal (stream, type, data) VALUES (?, ?, ?)');
  const writeCheckpoint = db.prepare<[string, bigint]>(
    'INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = max(position, excluded.position)',
  );
  return {
    db,
    wal,
    guard() {
      if (isClosed()) throw new Error('delivery store is closed');
    },
    journal(events) {
      for (const event of events) insertJournal.run(event.stream, event.type, JSON.stringify(event.data));
    },
    moveCheckpoint(consumer, position) {
      writeCheckpoint.run(consumer, position);
    },
  };
}
