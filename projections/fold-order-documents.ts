// An order's read-model documents folded from its events alone, by the projections that build them
// event by event: what a repair stores and what the scrubber compares the stored documents with.
import type { RecordedEvent } from '../src/eventstore/event-store.js';
import { orderIdOf, projectOrderView, type OrderDocument } from './order-view.js';
import { projectPalletContents, type PalletContentsDocument } from './pallet-contents.js';

/** The documents of order `id` after its events up to log position `upTo` (the read model's checkpoint); later ones are left out. */
export function foldOrderDocuments(
  id: number,
  events: readonly RecordedEvent[],
  upTo: bigint,
): { order: OrderDocument | undefined; pallets: PalletContentsDocument | undefined } {
  let order: OrderDocument | undefined;
  let pallets: PalletContentsDocument | undefined;
  for (const event of events) {
    if (event.position > upTo || orderIdOf(event) !== id) continue;
    order = projectOrderView(order, event);
    pallets = projectPalletContents(pallets, event);
  }
  return { order, pallets };
}
