// Reads a data directory's log directly, to check what a request recorded (or did not).
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';

export async function allEvents(dataDir: string): Promise<RecordedEvent[]> {
  const store = openSqliteEventStore(dataDir);
  try {
    const events: RecordedEvent[] = [];
    for (;;) {
      const page = await store.readAll(events.at(-1)?.position, 1000);
      if (page.length === 0) return events;
      events.push(...page);
    }
  } finally {
    await store.close();
  }
}
