// The planner says why something stayed behind in codes; the person at the dock reads sentences.
// Codes this file does not know (a newer planner) are shown as words rather than hidden.

const REASONS: Record<string, string> = {
  too_large_for_every_type: 'Too large for every container type of the order.',
  out_of_containers: 'No room left in the containers of the order.',
  over_payload: 'Would take the containers over their payload.',
  over_road_gross: 'Heavier than the road leaves any container type of the order (gross less tractor, chassis and box).',
  over_axle_limits: 'Wherever it stands in the containers of the order, an axle of the truck is over its limit.',
  no_item_master_data: 'No item master data (dimensions, weight) for this SKU on the lane.',
  no_pallet_type: 'The lane has no pallet type to build pallets on.',
  too_large_for_pallet: "Too large for the lane's pallet type.",
  over_pallet_max_weight: "Heavier than the pallet type's maximum loaded weight.",
};

const KINDS: Record<string, string> = {
  unit: 'SKU units',
  pallet: 'Service-built pallet',
  pre_built: 'Pre-built pallet',
  loose_box: 'Loose box',
};

/** The reason as a sentence; the planner's own sentence with the figures where it gave one (the road's). */
export function describeUnplacedReason(reason: string, detail?: string): string {
  return detail ?? REASONS[reason] ?? reason.replace(/_/g, ' ');
}

export function describeUnplacedKind(kind: string): string {
  return KINDS[kind] ?? kind.replace(/_/g, ' ');
}
