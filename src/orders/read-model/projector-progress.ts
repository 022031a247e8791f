// How the replica that projects tells the others what the read model shows, where the log can carry
// the announcement (ProgressSignals): the others then need not ask the read model's checkpoint every
// few milliseconds while a submit of theirs waits to be visible. Announcements are coalesced: one in
// flight at a time, then the newest position reached meanwhile, so a burst of applies costs the log a
// few notifications rather than one per batch.
import type { ProgressSignals } from '../../eventstore/event-store.js';

/** The consumer name the order projector's announcements carry. */
export const ORDER_PROJECTION = 'order-read-model';

export function progressAnnouncer(signals: ProgressSignals, onError: (error: unknown) => void): (position: bigint) => void {
  let sending = false;
  let pending: bigint | undefined;
  const send = async (position: bigint): Promise<void> => {
    sending = true;
    try {
      await signals.announce(ORDER_PROJECTION, position);
    } catch (error) {
      // Only a hint: the others' checkpoint reads still find the position.
      onError(error);
    }
    sending = false;
    const next = pending;
    pending = undefined;
    if (next !== undefined) void send(next);
  };
  return (position) => {
    if (!sending) void send(position);
    else if (pending === undefined || position > pending) pending = position;
  };
}
