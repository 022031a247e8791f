// The read model behind pallet contents (spec 4.4): per order, whether its plan is ready and the
// service-built pallets in planner order, as spec 2.2 shows them.
import type { RecordedEvent } from '../src/eventstore/event-store.js';
import { isOrderEvent } from '../src/orders/read-order-stream.js';
import { storedPalletContents } from '../src/plan-contract/plan-storage.js';

export interface PalletContents {
  pallet_index: string;
  pallet_code: string;
  contents: { sku: string; purchase_order: string; line_item_number: string; quantity: number }[];
}

export type PalletContentsDocument =
  | { status: 'pending' }
  | { status: 'planned'; pallets: PalletContents[] }
  | { status: 'failed'; reason: string }
  | { status: 'cancelled'; cancelled_at: string; reason: string | null };

export function projectPalletContents(
  document: PalletContentsDocument | undefined,
  event: RecordedEvent,
): PalletContentsDocument | undefined {
  if (!isOrderEvent(event)) return document;
  const orderEvent = event;
  switch (orderEvent.type) {
    case 'OrderSubmitted':
    // a new version of the order: the plan before it is void until the new one is stored
    case 'OrderAmended':
    case 'OrderPlanWithdrawn':
      return { status: 'pending' };
    case 'OrderCancelled':
      return { status: 'cancelled', cancelled_at: orderEvent.data.cancelled_at, reason: orderEvent.data.reason };
    case 'OrderPlanned': {
      return {
        status: 'planned',
        pallets: storedPalletContents(orderEvent.data.plan).map(({ pallet_index, pallet_code, contents }) => ({
          pallet_index,
          pallet_code,
          contents: contents.map(({ sku, purchase_order, line_item_number, quantity }) => ({
            sku,
            purchase_order,
            line_item_number,
            quantity,
          })),
        })),
      };
    }
    case 'OrderPlanningFailed':
      return { status: 'failed', reason: orderEvent.data.reason };
    default:
      return document;
  }
}
