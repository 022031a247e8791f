// JournalQueue in MongoDB: `notification_journal`, oldest entry (lowest ObjectId) first.
import { ObjectId, type Collection } from 'mongodb';
import type { JournalEvent, JournalQueue } from '../delivery-store.js';
import type { DeliveryCollections, JournalDoc } from './collections.js';

export function mongoJournalQueue({ journal }: DeliveryCollections): JournalQueue {
  return {
    async oldest(limit) {
      const entries = await journal.find({}, { sort: { _id: 1 }, limit }).toArray();
      return entries.map((entry) => ({
        id: entry._id.toHexString(),
        stream: entry.stream,
        type: entry.type,
        data: JSON.parse(entry.data) as unknown,
      }));
    },
    async appended(ids) {
      if (ids.length === 0) return;
      await journal.deleteMany({ _id: { $in: ids.map((id) => new ObjectId(id)) } });
    },
  };
}

/** Journals outcome events; the first write of every port call that has some, as they describe what was done. */
export async function writeJournal(journal: Collection<JournalDoc>, events: readonly JournalEvent[]): Promise<void> {
  if (events.length === 0) return;
  await journal.insertMany(
    events.map((event) => ({
      _id: new ObjectId(),
      stream: event.stream,
      type: event.type,
      data: JSON.stringify(event.data),
    })),
    { ordered: true },
  );
}
