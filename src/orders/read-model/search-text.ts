// What list's `search` looks in: the fields lower-cased once at write time; the newline keeps a
// match from spanning two fields. Both read-model adapters store it.
import type { OrderDocument } from '../../../projections/order-view.js';
import { REFERENCE_MAX_LENGTH } from '../submit-order-schema.js';
import { TRANSPORTATION_MODES } from '../submit-order-payload.js';

/** The longest line of a search text: a reference, a service_ref (`SO-` and up to 16 digits) or a mode's name. */
const LONGEST_FIELD = Math.max(REFERENCE_MAX_LENGTH, 'SO-'.length + 16, ...TRANSPORTATION_MODES.map((mode) => mode.length));

export function searchText(document: OrderDocument): string {
  const { service_ref, reference, transport_name } = document.view;
  return [service_ref, reference, transport_name].join('\n').toLowerCase();
}

/**
 * Whether `search` can match any order at all: not when it is longer than the longest field, or spans
 * two (a newline). Such a search is answered with no orders without reading any: a request cannot make
 * the service scan every order of a group with a term of thousands of characters.
 */
export function canMatch(search: string): boolean {
  return search.length <= LONGEST_FIELD && !search.includes('\n');
}
