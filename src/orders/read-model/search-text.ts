// What list's `search` looks in: the fields lower-cased once at write time; the newline keeps a
// match from spanning two fields. Both read-model adapters store it.
import type { OrderDocument } from '../../../projections/order-view.js';

export function searchText(document: OrderDocument): string {
  const { service_ref, reference, transport_name } = document.view;
  return [service_ref, reference, transport_name].join('\n').toLowerCase();
}
