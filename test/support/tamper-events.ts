// What someone with write access to events.db can do to a stopped service's log, with the file left a
// valid database: the four changes the hash chain must show.
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type Tampering = 'changed' | 'removed' | 'inserted' | 'reordered';
export const TAMPERINGS: readonly Tampering[] = ['changed', 'removed', 'inserted', 'reordered'];

/**
 * Changes the log in `dataDir` at `position`: one byte of its data (a digit), the event deleted, a forged
 * event put in its place (the later ones moved up to make room), or the event swapped with the one two
 * positions later.
 */
export function tamper(dataDir: string, how: Tampering, position: number): void {
  const db = new Database(join(dataDir, 'events.db'));
  try {
    const row = db.prepare('SELECT data FROM events WHERE position = ?').get(position) as { data: string } | undefined;
    if (!row) throw new Error(`no event at position ${position}`);
    switch (how) {
      case 'changed': {
        const at = row.data.search(/\d/);
        if (at < 0) throw new Error(`the event at position ${position} holds no digit`);
        const data = row.data.slice(0, at) + String((Number(row.data[at]) + 7) % 10) + row.data.slice(at + 1);
        db.prepare('UPDATE events SET data = ? WHERE position = ?').run(data, position);
        break;
      }
      case 'removed':
        db.prepare('DELETE FROM events WHERE position = ?').run(position);
        break;
      case 'inserted': {
        const { last } = db.prepare('SELECT max(position) AS last FROM events').get() as { last: number };
        for (let p = last; p >= position; p--) db.prepare('UPDATE events SET position = position + 1 WHERE position = ?').run(p);
        db.prepare(`INSERT INTO events (position, id, stream, revision, type, data, recorded_at, hash)
          SELECT ?, 'forged-' || id, 'forged', 0, type, data, recorded_at, hash FROM events WHERE position = ?`).run(
          position,
          position - 1,
        );
        break;
      }
      case 'reordered': {
        const swap = db.transaction(() => {
          db.prepare('UPDATE events SET position = -1 WHERE position = ?').run(position);
          db.prepare('UPDATE events SET position = ? WHERE position = ?').run(position, position + 2);
          db.prepare('UPDATE events SET position = ? WHERE position = -1').run(position + 2);
        });
        swap();
        break;
      }
    }
  } finally {
    db.close();
  }
}
