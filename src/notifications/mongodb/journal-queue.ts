// JournalQueue in MongoDB: `notification_journal`, each entry with its holder, hold and generation.
// Entries are taken one by one: a renewal of this holder's own hold, or a move to the next generation,
// written only by the replica whose marker `journal:<entry id>#<generation>` went in first (FerretDB 1.x
// writes whole documents, so two conditional updates of one entry could both match).
import { ObjectId, type Collection } from 'mongodb';
import type { JournalEvent, JournalQueue } from '../delivery-store.js';
import { firstToMark, type MarkerDoc } from '../../storage/mongodb-lease.js';
import type { DeliveryCollections, JournalDoc } from './collections.js';

export function mongoJournalQueue({ journal, markers }: DeliveryCollections): JournalQueue {
  return {
    async claim(holder, now, leaseUntil, limit) {
      const candidates = await journal.find({ $or: [{ lease_until: { $lte: now } }, { holder }] }, { sort: { _id: 1 }, limit }).toArray();
      const taken: JournalDoc[] = [];
      for (const entry of candidates) if (await takeEntry(journal, markers, entry, holder, now, leaseUntil)) taken.push(entry);
      return taken.map((entry) => ({
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
    async release(holder) {
      await journal.updateMany({ holder }, { $set: { holder: null, lease_until: 0 } });
    },
  };
}

async function takeEntry(
  journal: Collection<JournalDoc>,
  markers: Collection<MarkerDoc>,
  entry: JournalDoc,
  holder: string,
  now: number,
  leaseUntil: number,
): Promise<boolean> {
  const generation = Number(entry.generation ?? 0);
  const sameGeneration = entry.generation ?? { $exists: false };
  if (entry.holder === holder && entry.lease_until > now) {
    const asFound = { _id: entry._id, holder: entry.holder, lease_until: entry.lease_until, generation: sameGeneration };
    return (await journal.updateOne(asFound, { $set: { lease_until: leaseUntil } })).matchedCount === 1;
  }
  if (!(await firstToMark(markers, `journal:${entry._id.toHexString()}#${generation + 1}`, now))) return false;
  const moved = await journal.updateOne(
    { _id: entry._id, generation: sameGeneration },
    { $set: { holder, lease_until: leaseUntil, generation: generation + 1 } },
  );
  return moved.matchedCount === 1;
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
      holder: null,
      lease_until: 0,
      generation: 0,
    })),
    { ordered: true },
  );
}
