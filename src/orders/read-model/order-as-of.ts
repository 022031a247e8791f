// An order as it stood at a past moment: its events recorded up to that moment, folded by the
// read model's own projection (projections/fold-order-documents.ts), as the read model would have held it then.
import type { EventStore } from '../../eventstore/event-store.js';
import type { OrderView } from '../order-view.js';
import { foldOrderDocuments } from '../../../projections/fold-order-documents.js';
import { eventsOfOrder } from './self-repairing-read-model.js';

/** The order's view after every event recorded at or before `moment` (to the millisecond); undefined when it did not exist yet. */
export async function orderViewAsOf(store: EventStore, id: number, stream: string, moment: Date): Promise<OrderView | undefined> {
  const events = await eventsOfOrder(store, id, stream);
  // Events are recorded in log order with rising times, so the moment is a cut at a log position.
  const upTo = events.filter((event) => event.recordedAt.getTime() <= moment.getTime()).at(-1)?.position;
  return upTo === undefined ? undefined : foldOrderDocuments(id, events, upTo).order?.view;
}
